/* pdt count --list / --list-rules: printing the candidates and every
 * permutation of a few of them next to the proper trees they encode. */
#ifndef PDT_CLI_COUNT_LIST_H
#define PDT_CLI_COUNT_LIST_H

#include "pdt.h"

/* Parses "3,17,42" into a malloc'd array; prints the error and returns false on bad input. */
bool cli_parse_pick(uint32_t **out, size_t *n, const char *text);
/* Runs the listing and prints it; returns the exit status. */
int cli_count_list(const pdt_dataset *ds, const char *rules, const pdt_rule_params *params,
                   const uint32_t *pick, size_t n_pick, uint32_t size, bool list_rules, bool list_perms);

#endif
