/* Fuzz target: the exact number parser (pdt_parse_rational), which every
 * loader uses for cells, coordinates and model parameters.  An accepted text
 * holds only number characters; its value is canonical, survives printing as
 * "p/q" and as a decimal and parsing again, and its nearest double is one of
 * the two doubles around it. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "dataset_impl.h"
#include "harness.h"
#include "pdt_plugin.h"

static void check_reparse(mpq_srcptr q, const pdt_buf *b, const char *form)
{
    PDT_FUZZ_CHECK(!b->failed && b->data, "%s: out of memory", form);
    mpq_t r;
    mpq_init(r);
    PDT_FUZZ_CHECK(pdt_parse_rational(r, b->data, b->len), "%s \"%.80s\" does not parse", form, b->data);
    PDT_FUZZ_CHECK(mpq_equal(q, r), "%s \"%.80s\" parses to another value", form, b->data);
    mpq_clear(r);
}

static void check_double(mpq_srcptr q)
{
    double d = pdt_rational_to_double(q);
    PDT_FUZZ_CHECK(isfinite(d), "the nearest double of a rational is not finite");
    mpq_t a;
    mpq_init(a);
    mpq_abs(a, q);
    double t = mpq_get_d(a); /* truncated towards zero */
    if (mpq_sgn(q) < 0) d = -d;
    /* |q| lies in [t, next(t)]: its nearest double is one of the two (DBL_MAX beyond the range) */
    PDT_FUZZ_CHECK(d == t || d == nextafter(t, INFINITY) || (d == DBL_MAX && isinf(nextafter(t, INFINITY))),
                   "nearest double %a, truncated %a", d, t);
    mpq_clear(a);
}

int pdt_fuzz_rational(const uint8_t *data, size_t size)
{
    if (size > PDT_FUZZ_MAX_RATIONAL) return 0;
    const char *text = (const char *)data;
    mpq_t q;
    mpq_init(q);
    if (pdt_parse_rational(q, text, size)) {
        for (size_t k = 0; k < size; k++)
            PDT_FUZZ_CHECK(text[k] && strchr("+-0123456789./eE", text[k]), "accepted byte 0x%02x",
                           (unsigned char)text[k]);
        mpz_t g;
        mpz_init(g);
        mpz_gcd(g, mpq_numref(q), mpq_denref(q));
        PDT_FUZZ_CHECK(mpz_sgn(mpq_denref(q)) > 0 && mpz_cmp_ui(g, 1) == 0, "not canonical");
        mpz_clear(g);
        pdt_buf b;
        pdt_buf_init(&b);
        pdt_buf_mpq(&b, q);
        check_reparse(q, &b, "p/q");
        pdt_buf_clear(&b);
        pdt_buf_mpq_decimal(&b, q);
        check_reparse(q, &b, "decimal");
        pdt_buf_clear(&b);
        check_double(q);
    }
    mpq_clear(q);
    return 0;
}

#ifdef PDT_FUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return pdt_fuzz_rational(data, size); }
#endif
