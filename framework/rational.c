/* Exact rationals from text, and the nearest double to an exact rational.
 *
 * The parser checks the whole syntax first and only then hands plain digit
 * strings to GMP, so GMP never sees unchecked text, a zero denominator or an
 * exponent that would need gigabytes. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"
#include "pdt_plugin.h"

#define MAX_EXPONENT 100000L

/* The syntax of one number, as spans of the text. */
typedef struct number_syntax {
    bool negative;
    const char *int_digits, *frac_digits, *den_digits;
    size_t n_int, n_frac, n_den;
    long exponent;
} number_syntax;

static size_t count_digits(const char *s, size_t len)
{
    size_t k = 0;
    while (k < len && s[k] >= '0' && s[k] <= '9') k++;
    return k;
}

/* "e[+-]digits" at s; false when malformed or out of range. */
static bool parse_exponent(long *out, const char *s, size_t len)
{
    size_t k = 1;
    bool negative = false;
    if (k < len && (s[k] == '+' || s[k] == '-')) negative = s[k++] == '-';
    size_t n = count_digits(s + k, len - k);
    if (n == 0 || k + n != len) return false;
    long e = 0;
    for (size_t i = 0; i < n; i++) {
        e = e * 10 + (s[k + i] - '0');
        if (e > MAX_EXPONENT) return false;
    }
    *out = negative ? -e : e;
    return true;
}

/* Splits text into sign, digits, fraction digits, exponent or denominator. */
static bool parse_syntax(number_syntax *ns, const char *s, size_t len)
{
    memset(ns, 0, sizeof *ns);
    size_t k = 0;
    if (k < len && (s[k] == '+' || s[k] == '-')) ns->negative = s[k++] == '-';
    ns->int_digits = s + k;
    ns->n_int = count_digits(s + k, len - k);
    k += ns->n_int;
    if (k < len && s[k] == '/') {
        ns->den_digits = s + k + 1;
        ns->n_den = count_digits(s + k + 1, len - k - 1);
        return ns->n_int > 0 && ns->n_den > 0 && k + 1 + ns->n_den == len;
    }
    if (k < len && s[k] == '.') {
        ns->frac_digits = s + k + 1;
        ns->n_frac = count_digits(s + k + 1, len - k - 1);
        k += 1 + ns->n_frac;
    }
    if (ns->n_int + ns->n_frac == 0) return false;
    if (k == len) return true;
    if (s[k] != 'e' && s[k] != 'E') return false;
    return parse_exponent(&ns->exponent, s + k, len - k);
}

/* z = the concatenated digit spans a and b (at least one digit in all). */
static bool set_digits(mpz_ptr z, const char *a, size_t na, const char *b, size_t nb)
{
    char small[128];
    char *buf = na + nb < sizeof small ? small : malloc(na + nb + 1);
    if (!buf) return false;
    if (na) memcpy(buf, a, na);
    if (nb) memcpy(buf + na, b, nb);
    buf[na + nb] = '\0';
    int rc = mpz_set_str(z, buf, 10);
    if (buf != small) free(buf);
    return rc == 0;
}

static bool all_zero(const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (s[k] != '0') return false;
    return true;
}

/* Builds the value from checked syntax. */
static bool syntax_value(mpq_ptr out, const number_syntax *ns)
{
    mpz_t num, den;
    mpz_inits(num, den, NULL);
    bool ok = set_digits(num, ns->int_digits, ns->n_int, ns->frac_digits, ns->n_frac);
    if (ok && ns->den_digits) {
        ok = set_digits(den, ns->den_digits, ns->n_den, NULL, 0);
    } else if (ok) {
        long scale = ns->exponent - (long)ns->n_frac;
        mpz_ui_pow_ui(den, 10, (unsigned long)labs(scale));
        if (scale > 0) {
            mpz_mul(num, num, den);
            mpz_set_ui(den, 1);
        }
    }
    if (ok) {
        if (ns->negative) mpz_neg(num, num);
        mpq_set_num(out, num);
        mpq_set_den(out, den);
        mpq_canonicalize(out);
    }
    mpz_clears(num, den, NULL);
    return ok;
}

/* gcd(num, 10^k) = 2^min(v2(num), k) · 5^min(v5(num), k), for num > 0, k ≤ 19:
 * a shift and a few divisions by 5, where Euclid's algorithm takes dozens of
 * 64-bit divisions (loading 20 000 rows of 17-digit decimals spent most of
 * its parsing time there). */
static uint64_t gcd_pow10(uint64_t num, long k)
{
    long t2 = __builtin_ctzll(num);
    if (t2 > k) t2 = k;
    uint64_t g = UINT64_C(1) << t2;
    for (long t5 = 0; t5 < k && num % 5 == 0; t5++) num /= 5, g *= 5;
    return g;
}

/* Most cells are decimals of at most 19 significant digits: machine integers
 * and the gcd with a power of ten suffice. */
static bool small_value(mpq_ptr out, const number_syntax *ns)
{
    long scale = ns->exponent - (long)ns->n_frac;
    if (ns->den_digits || scale > 0 || scale < -19) return false;
    uint64_t num = 0, den = 1;
    size_t significant = 0;
    for (size_t k = 0; k < ns->n_int + ns->n_frac; k++) {
        char c = k < ns->n_int ? ns->int_digits[k] : ns->frac_digits[k - ns->n_int];
        if (significant || c != '0') significant++;
        if (significant > 19) return false;
        num = num * 10 + (uint64_t)(c - '0');
    }
    for (long k = 0; k < -scale; k++) den *= 10;
    if (num == 0) {
        mpq_set_ui(out, 0, 1);
        return true;
    }
    uint64_t g = gcd_pow10(num, -scale);
    num /= g;
    den /= g;
    if (num > ULONG_MAX || den > ULONG_MAX) return false;
    mpq_set_ui(out, (unsigned long)num, (unsigned long)den);
    if (ns->negative) mpq_neg(out, out);
    return true;
}

bool pdt_parse_rational(mpq_ptr out, const char *text, size_t len)
{
    number_syntax ns;
    if (!text || !parse_syntax(&ns, text, len)) return false;
    if (ns.den_digits && all_zero(ns.den_digits, ns.n_den)) return false;
    if (small_value(out, &ns)) return true;
    /* A scale beyond the limit (many fraction digits plus an exponent) is fine:
     * the digits are in the text, so the numbers stay proportional to it. */
    return syntax_value(out, &ns);
}

/* |q| = num/den with 2^k <= |q| < 2^(k+1). */
static long floor_log2(mpz_srcptr num, mpz_srcptr den)
{
    long k = (long)mpz_sizeinbase(num, 2) - (long)mpz_sizeinbase(den, 2);
    mpz_t t;
    mpz_init(t);
    int cmp;
    if (k >= 0) {
        mpz_mul_2exp(t, den, (mp_bitcnt_t)k);
        cmp = mpz_cmp(num, t);
    } else {
        mpz_mul_2exp(t, num, (mp_bitcnt_t)-k);
        cmp = mpz_cmp(t, den);
    }
    mpz_clear(t);
    return cmp >= 0 ? k : k - 1;
}

/* round(num * 2^-lsb / den), ties to even; num > 0. */
static double scaled_round(mpz_srcptr num, mpz_srcptr den, long lsb)
{
    mpz_t a, b, q, r;
    mpz_inits(a, b, q, r, NULL);
    if (lsb >= 0) {
        mpz_set(a, num);
        mpz_mul_2exp(b, den, (mp_bitcnt_t)lsb);
    } else {
        mpz_mul_2exp(a, num, (mp_bitcnt_t)-lsb);
        mpz_set(b, den);
    }
    mpz_tdiv_qr(q, r, a, b);
    mpz_mul_2exp(r, r, 1);
    int cmp = mpz_cmp(r, b);
    if (cmp > 0 || (cmp == 0 && mpz_odd_p(q))) mpz_add_ui(q, q, 1);
    double m = mpz_get_d(q); /* at most 2^53: exact */
    mpz_clears(a, b, q, r, NULL);
    return m;
}

double pdt_rational_to_double(mpq_srcptr q)
{
    int sign = mpq_sgn(q);
    if (sign == 0) return 0.0;
    mpz_srcptr den = mpq_denref(q);
    mpz_t num;
    mpz_init(num);
    mpz_abs(num, mpq_numref(q));
    double v;
    if (mpz_sizeinbase(num, 2) <= 53 && mpz_sizeinbase(den, 2) <= 53) {
        v = mpz_get_d(num) / mpz_get_d(den); /* exact operands: IEEE rounds once */
    } else {
        long k = floor_log2(num, den);
        if (k > DBL_MAX_EXP) {
            v = DBL_MAX;
        } else {
            long lsb = k - (DBL_MANT_DIG - 1);
            if (lsb < DBL_MIN_EXP - DBL_MANT_DIG) lsb = DBL_MIN_EXP - DBL_MANT_DIG;
            v = ldexp(scaled_round(num, den, lsb), (int)lsb);
            if (v > DBL_MAX) v = DBL_MAX;
        }
    }
    mpz_clear(num);
    return sign < 0 ? -v : v;
}
