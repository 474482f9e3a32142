/* Growable text buffers. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pdt_plugin.h"

void pdt_buf_init(pdt_buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = false;
}

void pdt_buf_clear(pdt_buf *b)
{
    free(b->data);
    pdt_buf_init(b);
}

static bool buf_reserve(pdt_buf *b, size_t extra)
{
    if (b->failed) return false;
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void pdt_buf_printf(pdt_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !buf_reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void pdt_buf_puts(pdt_buf *b, const char *s)
{
    size_t n = strlen(s);
    if (!buf_reserve(b, n)) return;
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

void pdt_buf_mpq(pdt_buf *b, mpq_srcptr q)
{
    size_t n = mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3;
    if (!buf_reserve(b, n)) return;
    mpq_get_str(b->data + b->len, 10, q);
    b->len += strlen(b->data + b->len);
}

/* Terminating decimal expansion exists iff the reduced denominator is 2^a 5^b. */
void pdt_buf_mpq_decimal(pdt_buf *b, mpq_srcptr q)
{
    mpz_t den, scaled, pow10;
    mpz_inits(den, scaled, pow10, NULL);
    mpz_set(den, mpq_denref(q));
    unsigned long twos = mpz_scan1(den, 0);
    mpz_tdiv_q_2exp(den, den, twos);
    /* mpz_remove, not a loop of divisions by 5: "1e-100000" has 100000 fives
     * in a 5200-limb denominator, and one division per five took 0.5 s. */
    mpz_set_ui(pow10, 5);
    unsigned long fives = mpz_remove(den, den, pow10);
    if (mpz_cmp_ui(den, 1) != 0) {
        pdt_buf_mpq(b, q);
    } else {
        unsigned long digits = twos > fives ? twos : fives;
        mpz_ui_pow_ui(pow10, 10, digits);
        mpz_mul(scaled, mpq_numref(q), pow10);
        mpz_divexact(scaled, scaled, mpq_denref(q));
        bool neg = mpz_sgn(scaled) < 0;
        mpz_abs(scaled, scaled);
        char *s = mpz_get_str(NULL, 10, scaled);
        if (!s) {
            b->failed = true;
        } else {
            size_t len = strlen(s);
            if (neg) pdt_buf_puts(b, "-");
            if (digits == 0) {
                pdt_buf_puts(b, s);
            } else if (len > digits) {
                pdt_buf_printf(b, "%.*s.%s", (int)(len - digits), s, s + len - digits);
            } else {
                pdt_buf_puts(b, "0.");
                for (size_t k = len; k < digits; k++) pdt_buf_puts(b, "0");
                pdt_buf_puts(b, s);
            }
            void (*gmp_free)(void *, size_t);
            mp_get_memory_functions(NULL, NULL, &gmp_free);
            gmp_free(s, len + 1);
        }
    }
    mpz_clears(den, scaled, pow10, NULL);
}
