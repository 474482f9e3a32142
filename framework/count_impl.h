/* Counting proper trees on a chosen list of candidates (count.c), shared
 * with the teaching listing (count_list.c). */
#ifndef PDT_COUNT_IMPL_H
#define PDT_COUNT_IMPL_H

#include "pdt_plugin.h"

/* out = the number of proper trees with exactly `size` branch nodes built from
 * the candidates ids[0..n_ids) of rs (min_leaf honoured when > 0). */
pdt_status pdt_count_on(mpz_ptr out, const pdt_ruleset *rs, const uint32_t *ids, size_t n_ids, uint32_t size,
                        uint32_t min_leaf, pdt_error *err);

#endif
