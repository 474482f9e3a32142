/* Private interface between the axis plugin's files. */
#ifndef PDT_RULES_AXIS_H
#define PDT_RULES_AXIS_H

#include "pdt_plugin.h"

extern const pdt_rule_class pdt_rule_class_axis;

/* The standalone rule x[j] ≤ (row's exact value in column j). */
pdt_status axis_rule_make(pdt_rule *rule, const pdt_dataset *ds, size_t j, size_t row, pdt_error *err);

/* Depth- and size-limited fits through the binary-feature backend (axis_solve.c). */
pdt_status axis_solve(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);
/* What axis_solve does not take (NULL: it takes this fit). */
const char *axis_solve_declines(const pdt_dataset *ds, const pdt_fit_options *opt);

#endif
