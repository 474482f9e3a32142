/* Fuzz target: the matrix-chain dimensions parser (pdt_chain_parse_dims), as
 * a --dims-file and as the --dims option.  At most 12 matrices are then
 * solved; the cost must equal the textbook dynamic programme's, the order
 * must name every matrix once, and the tree's text is written. */
#include <stdlib.h>
#include <string.h>

#include "../../problems/matrix_chain.h"
#include "harness.h"

#define SMALL_MATRICES 12

/* m[i][j]: the fewest multiplications for A_{i+1} .. A_{j+1} (CLRS 15.2). */
static void textbook_cost(mpz_ptr out, const mpz_t *p, size_t n)
{
    mpz_t m[SMALL_MATRICES][SMALL_MATRICES], t;
    mpz_init(t);
    for (size_t i = 0; i < n; i++) mpz_init(m[i][i]);
    for (size_t len = 2; len <= n; len++)
        for (size_t i = 0; i + len <= n; i++) {
            size_t j = i + len - 1;
            mpz_init(m[i][j]);
            for (size_t k = i; k < j; k++) {
                mpz_mul(t, p[i], p[k + 1]);
                mpz_mul(t, t, p[j + 1]);
                mpz_add(t, t, m[i][k]);
                mpz_add(t, t, m[k + 1][j]);
                if (k == i || mpz_cmp(t, m[i][j]) < 0) mpz_set(m[i][j], t);
            }
        }
    mpz_set(out, m[0][n - 1]);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++) mpz_clear(m[i][j]);
    mpz_clear(t);
}

static void check_order(const char *order, size_t n)
{
    size_t next = 1, depth = 0;
    for (const char *s = order; *s; s++) {
        if (*s == '(' || *s == ')') {
            PDT_FUZZ_CHECK(*s == '(' || depth-- > 0, "unbalanced order %s", order);
            depth += *s == '(';
            continue;
        }
        char *end;
        PDT_FUZZ_CHECK(*s == 'A' && strtoul(s + 1, &end, 10) == next, "order %s", order);
        next++;
        s = end - 1;
    }
    PDT_FUZZ_CHECK(depth == 0 && next == n + 1, "order %s of %zu matrices", order, n);
}

static void solve(const mpz_t *dims, size_t n_dims)
{
    pdt_chain *c = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_fuzz_check_ok(pdt_chain_new(&c, dims, n_dims, &err), &err, "a chain of parsed dimensions");
    pdt_fuzz_check_ok(pdt_chain_solve(c, NULL, &err), &err, "solving");
    mpz_t got, want;
    mpz_inits(got, want, NULL);
    pdt_chain_cost(got, c);
    textbook_cost(want, dims, n_dims - 1);
    PDT_FUZZ_CHECK(pdt_chain_optimal(c) && mpz_cmp(got, want) == 0, "cost %s, the textbook's %s",
                   mpz_get_str(NULL, 10, got), mpz_get_str(NULL, 10, want));
    mpz_clears(got, want, NULL);
    check_order(pdt_chain_order(c), n_dims - 1);
    pdt_fuzz_check_ok(pdt_chain_write_text(c, pdt_fuzz_null(), &err), &err, "the tree's text");
    pdt_chain_free(&c);
}

static void parse(const char *text, size_t len, const char *source, bool is_file)
{
    mpz_t *dims = NULL;
    size_t n = 0;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_chain_parse_dims(&dims, &n, text, len, source, is_file, &err);
    if (st != PDT_OK) {
        pdt_fuzz_check_rejected(st, &err, source, text, len);
        return;
    }
    PDT_FUZZ_CHECK(n >= 3, "%zu dimensions accepted", n);
    if (n - 1 <= SMALL_MATRICES) solve((const mpz_t *)dims, n);
    pdt_chain_dims_free(dims, n);
}

int pdt_fuzz_chain(const uint8_t *data, size_t size)
{
    if (size > PDT_FUZZ_MAX_CHAIN) return 0;
    parse((const char *)data, size, "dims.txt", true);
    parse((const char *)data, size, "option --dims", false);
    return 0;
}

#ifdef PDT_FUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return pdt_fuzz_chain(data, size); }
#endif
