/*
 * number.c - JSON number lexemes to doubles and doubles to ECMAScript text.
 *
 * Parsing: short lexemes take Clinger's exact fast path; the rest are cut
 * down exactly to at most 801 significant digits and handed to the C
 * library's correctly rounded strtod, spelled without a decimal point so
 * the process locale cannot change the reading.
 *
 * Formatting: the shortest digits that read back to the same double, found
 * by trying 1..17 significant digits of the exact decimal expansion, then
 * laid out as ECMAScript's Number::toString does.
 */
#include "number.h"

#include <errno.h>
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- parsing */

/*
 * Every double and every midpoint between neighbouring doubles has at most
 * 768 significant decimal digits, so a decimal cut after MAX_DIGITS digits
 * with one nonzero digit appended for the rest rounds as the whole does.
 */
#define MAX_DIGITS 800

/* A lexeme's significant digits: value = 0.D * 10^point, D in the lexeme. */
typedef struct decimal {
    const char *int_digits;  /* the digits before '.' */
    size_t int_len;
    const char *frac_digits; /* the digits after '.', if any */
    size_t frac_len;
    size_t first;            /* index of D's first digit in int ++ frac */
    size_t count;            /* digits in D (no leading or trailing zeros) */
    int64_t point;           /* decimal exponent of 0.D (saturated) */
    int negative;
} decimal;

/* The i-th digit of the lexeme's digits, int part then fraction part. */
static char digit_at(const decimal *dec, size_t i)
{
    return i < dec->int_len ? dec->int_digits[i]
                            : dec->frac_digits[i - dec->int_len];
}

/* Exponents beyond this are all the same to a double; keeps sums exact. */
#define EXP_LIMIT ((int64_t)1 << 50)

/* Splits a valid RFC 8259 number lexeme into its parts. */
static void decimal_scan(const char *s, size_t len, decimal *dec)
{
    size_t i = 0;
    dec->negative = s[0] == '-';
    if (dec->negative)
        i++;
    dec->int_digits = s + i;
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++;
    dec->int_len = (size_t)(s + i - dec->int_digits);
    dec->frac_digits = s + i;
    dec->frac_len = 0;
    if (i < len && s[i] == '.') {
        dec->frac_digits = s + ++i;
        while (i < len && s[i] >= '0' && s[i] <= '9')
            i++;
        dec->frac_len = (size_t)(s + i - dec->frac_digits);
    }
    int64_t exp = 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        int exp_negative = s[++i] == '-';
        if (s[i] == '-' || s[i] == '+')
            i++;
        for (; i < len; i++) {
            if (exp < EXP_LIMIT)
                exp = exp * 10 + (s[i] - '0');
        }
        if (exp_negative)
            exp = -exp;
    }

    size_t total = dec->int_len + dec->frac_len;
    size_t first = 0;
    while (first < total && digit_at(dec, first) == '0')
        first++;
    size_t end = total;
    while (end > first && digit_at(dec, end - 1) == '0')
        end--;
    dec->first = first;
    dec->count = end - first;
    /* 0.D * 10^point: the int part's length less the skipped zeros.  The
     * lexeme's length bounds both terms well below 2^62. */
    dec->point = (int64_t)dec->int_len - (int64_t)first + exp;
}

/* Powers of ten that doubles hold exactly. */
static const double exact_pow10[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
static const uint64_t exact_pow10_int[16] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
    1000000000u, 10000000000u, 100000000000u, 1000000000000u,
    10000000000000u, 100000000000000u, 1000000000000000u};

/*
 * Clinger's fast path: a significand below 2^53 and a power of ten a double
 * holds exactly give a correctly rounded result with one operation.
 * Returns 1 and sets *out when it applies.
 */
static int parse_fast(const decimal *dec, double *out)
{
#if FLT_EVAL_METHOD == 0
    if (dec->count > 19)
        return 0;
    uint64_t w = 0;
    for (size_t i = 0; i < dec->count; i++)
        w = w * 10 + (uint64_t)(digit_at(dec, dec->first + i) - '0');
    if (w > ((uint64_t)1 << 53))
        return 0;
    int64_t scale = dec->point - (int64_t)dec->count; /* value = w * 10^scale */
    if (scale > 22) {
        /* Move the excess into w while w stays below 2^53. */
        if (scale > 22 + 15 || w > ((uint64_t)1 << 53) / exact_pow10_int[scale - 22])
            return 0;
        w *= exact_pow10_int[scale - 22];
        scale = 22;
    }
    if (scale < -22)
        return 0;
    double v = (double)w;
    if (scale < 0)
        v /= exact_pow10[-scale];
    else
        v *= exact_pow10[scale];
    *out = v;
    return 1;
#else
    (void)dec;
    (void)out;
    return 0;
#endif
}

/*
 * The general case: the digits (at most MAX_DIGITS, then a sticky 1) and an
 * exponent, without a decimal point, through strtod.  Such a subject
 * sequence reads the same in every locale.  Returns -1 on overflow.
 */
static int parse_slow(const decimal *dec, double *out)
{
    if (dec->point > 309) /* >= 10^309, past DBL_MAX's midpoint */
        return -1;
    if (dec->point < -323) { /* < 10^-324, below half the least subnormal */
        *out = 0.0;
        return 0;
    }
    char text[MAX_DIGITS + 1 + 8];
    size_t n = dec->count < MAX_DIGITS ? dec->count : MAX_DIGITS;
    for (size_t i = 0; i < n; i++)
        text[i] = digit_at(dec, dec->first + i);
    if (dec->count > MAX_DIGITS) /* D ends in a nonzero digit */
        text[n++] = '1';
    /* value = text * 10^(point - n), an exponent in [-1125, 309]. */
    int exp = (int)(dec->point - (int64_t)n);
    char *p = text + n;
    *p++ = 'e';
    if (exp < 0) {
        *p++ = '-';
        exp = -exp;
    }
    char rev[8];
    int r = 0;
    do {
        rev[r++] = (char)('0' + exp % 10);
        exp /= 10;
    } while (exp);
    while (r)
        *p++ = rev[--r];
    *p = '\0';

    int saved_errno = errno;
    double v = strtod(text, NULL);
    errno = saved_errno;
    if (v > DBL_MAX)
        return -1;
    *out = v;
    return 0;
}

int wj_number_parse(const char *lexeme, size_t len, double *out)
{
    decimal dec;
    decimal_scan(lexeme, len, &dec);
    double v;
    if (dec.count == 0)
        v = 0.0;
    else if (!parse_fast(&dec, &v) && parse_slow(&dec, &v) != 0)
        return -1;
    *out = dec.negative ? -v : v;
    return 0;
}

/* ------------------------------------------------------------- formatting */

/* Reads digits[0..n) * 10^exp back through strtod, locale-free as above. */
static double digits_read(const char *digits, int n, int exp)
{
    char text[40];
    memcpy(text, digits, (size_t)n);
    snprintf(text + n, sizeof text - (size_t)n, "e%d", exp);
    int saved_errno = errno;
    double v = strtod(text, NULL);
    errno = saved_errno;
    return v;
}

/* Adds or subtracts one unit in the last place of digits[0..n), keeping n
 * digits and adjusting *exp when the digit count would change. */
static void digits_step(char *digits, int n, int *exp, int up)
{
    int i = n - 1;
    if (up) {
        while (i >= 0 && digits[i] == '9')
            digits[i--] = '0';
        if (i >= 0) {
            digits[i]++;
        } else { /* 99..9 + 1 = 100..0: one digit more, shift right */
            digits[0] = '1';
            (*exp)++;
        }
    } else {
        while (i >= 0 && digits[i] == '0')
            digits[i--] = '9';
        digits[i]--;
        if (digits[0] == '0') { /* 100..0 - 1 = 099..9: shift left */
            memmove(digits, digits + 1, (size_t)(n - 1));
            digits[n - 1] = '9';
            (*exp)--;
        }
    }
}

/*
 * The shortest digits that read back as d (> 0, finite), the closest to d
 * among them: into digits, returning their count; *exp is such that
 * d ~ digits * 10^exp.
 */
static int shortest_digits(double d, char *digits, int *exp)
{
    for (int n = 1; n <= 17; n++) {
        /* The nearest n-digit decimal, exactly rounded by printf. */
        char text[48];
        snprintf(text, sizeof text, "%.*e", n - 1, d);
        /* "D<radix>DDDe+XX": take the digits around any radix spelling. */
        const char *p = text;
        int got = 0;
        while (*p != 'e') {
            if (*p >= '0' && *p <= '9')
                digits[got++] = *p;
            p++;
        }
        *exp = atoi(p + 1) - (n - 1);
        double back = digits_read(digits, n, *exp);
        if (back == d)
            return n;
        /* The other n-digit neighbour of d may still read back as d when
         * the doubles around d are unevenly spaced. */
        digits_step(digits, n, exp, back < d);
        if (digits_read(digits, n, *exp) == d)
            return n;
    }
    return 0; /* not reached: 17 digits always read back */
}

/* Writes the ECMAScript layout of digits[0..k) * 10^(n-k) at p. */
static size_t layout(const char *digits, int k, int n, char *p)
{
    char *start = p;
    if (k <= n && n <= 21) {
        memcpy(p, digits, (size_t)k);
        p += k;
        memset(p, '0', (size_t)(n - k));
        p += n - k;
    } else if (0 < n && n <= 21) {
        memcpy(p, digits, (size_t)n);
        p += n;
        *p++ = '.';
        memcpy(p, digits + n, (size_t)(k - n));
        p += k - n;
    } else if (-6 < n && n <= 0) {
        *p++ = '0';
        *p++ = '.';
        memset(p, '0', (size_t)-n);
        p += -n;
        memcpy(p, digits, (size_t)k);
        p += k;
    } else {
        *p++ = digits[0];
        if (k > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)(k - 1));
            p += k - 1;
        }
        *p++ = 'e';
        int e = n - 1;
        *p++ = e < 0 ? '-' : '+';
        if (e < 0)
            e = -e;
        if (e >= 100)
            *p++ = (char)('0' + e / 100);
        if (e >= 10)
            *p++ = (char)('0' + e / 10 % 10);
        *p++ = (char)('0' + e % 10);
    }
    return (size_t)(p - start);
}

size_t wj_number_format(double d, char *buf)
{
    if (d != d) {
        memcpy(buf, "NaN", 3);
        return 3;
    }
    if (d == 0) {
        buf[0] = '0';
        return 1;
    }
    size_t sign = 0;
    if (d < 0) {
        buf[sign++] = '-';
        d = -d;
    }
    if (d > DBL_MAX) {
        memcpy(buf + sign, "Infinity", 8);
        return sign + 8;
    }
    char digits[18];
    int exp;
    int k = shortest_digits(d, digits, &exp);
    while (k > 1 && digits[k - 1] == '0') {
        k--;
        exp++;
    }
    return sign + layout(digits, k, exp + k, buf + sign);
}

/* --------------------------------------------------------------- canonical */

size_t wj_number_canonical(const char *lexeme, size_t len, char *buf)
{
    /* Integers of up to 15 digits are exact doubles and print as written. */
    size_t sign = lexeme[0] == '-';
    if (len - sign <= 15) {
        size_t i = sign;
        while (i < len && lexeme[i] >= '0' && lexeme[i] <= '9')
            i++;
        if (i == len) {
            if (len == 2 && sign && lexeme[1] == '0') {
                buf[0] = '0';
                return 1;
            }
            memcpy(buf, lexeme, len);
            return len;
        }
    }
    double d;
    if (wj_number_parse(lexeme, len, &d) != 0)
        return 0;
    return wj_number_format(d, buf);
}
