/* SPDX-License-Identifier: MIT */
/*
 * number.c - JSON number lexemes to doubles and doubles to ECMAScript text.
 *
 * Parsing: up to 19 significant digits take Clinger's exact fast path or
 * one 64 x 128-bit product with a tabled power of ten, whichever settles
 * the rounding; the rest are cut down exactly to at most 801 significant
 * digits and handed to the C library's correctly rounded strtod, spelled
 * without a decimal point so that the process locale cannot change the
 * reading.  No state is kept between calls.
 *
 * Formatting: the shortest digits that read back to the same double, the
 * closest to it among those, found in one pass with a 64 x 128-bit scaling
 * by a tabled power of ten whose exactness tools/gen_pow10.py proves, then
 * laid out as ECMAScript's Number::toString does.
 */
#include "number.h"
#include "number_pow10.h"
#include "wj_internal.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ arithmetic */

/* floor(x / 2^s) for either sign of x, without relying on how >> treats
 * negative numbers. */
static int floor_shift(int64_t x, int s)
{
    return (int)(x >= 0 ? x >> s : ~(~x >> s));
}

/* floor(q log10 2), floor(log10(3/4 2^q)) and floor(e log2 10) for the
 * exponents of doubles (tools/gen_pow10.py checks every one). */
static int floor_log10_pow2(int q)
{
    return floor_shift((int64_t)q * 1262611, 22);
}

static int floor_log10_three_quarters_pow2(int q)
{
    return floor_shift((int64_t)q * 1262611 - 524031, 22);
}

static int floor_log2_pow10(int e)
{
    return floor_shift((int64_t)e * 1741647, 19);
}

/* The high and low 64 bits of a * b. */
static void multiply_64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    __extension__ unsigned __int128 p = (unsigned __int128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
    uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
#endif
}

/* The 192-bit product m * g of a 64-bit m and a table entry g = {high,
 * low}: its top 64 bits, the 64 below them, and the lowest 64. */
static void multiply_pow10(uint64_t m, const uint64_t g[2], uint64_t *top,
                           uint64_t *mid, uint64_t *low)
{
    uint64_t hi_hi, hi_lo, lo_hi;
    multiply_64(m, g[0], &hi_hi, &hi_lo);
    multiply_64(m, g[1], &lo_hi, low);
    *mid = hi_lo + lo_hi;
    *top = hi_hi + (*mid < hi_lo);
}

static int leading_zeros(uint64_t x) /* x != 0 */
{
    int n = 0;
    for (int step = 32; step; step >>= 1) {
        if (!(x >> (64 - step))) {
            n += step;
            x <<= step;
        }
    }
    return n;
}

/* ---------------------------------------------------------------- parsing */

/*
 * Every double and every midpoint between neighbouring doubles has at most
 * 768 significant decimal digits, so a decimal cut after MAX_DIGITS digits
 * with one nonzero digit appended for the rest rounds as the whole does.
 */
#define MAX_DIGITS 800

/* A lexeme's significant digits: value = 0.D * 10^point, D in the lexeme. */
typedef struct decimal {
    const char *int_digits; /* the digits before '.' */
    size_t int_len;
    const char *frac_digits; /* the digits after '.', if any */
    size_t frac_len;
    size_t first;  /* index of D's first digit in int ++ frac */
    size_t count;  /* digits in D (no leading or trailing zeros) */
    int64_t point; /* decimal exponent of 0.D (saturated) */
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
/* clang-format off */
static const double exact_pow10[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
static const uint64_t exact_pow10_int[16] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
    1000000000u, 10000000000u, 100000000000u, 1000000000000u,
    10000000000000u, 100000000000000u, 1000000000000000u};
/* clang-format on */

/*
 * Clinger's fast path for w * 10^e: when w is below 2^53 and 10^e is a
 * double (after moving some of a large e into w), one correctly rounded
 * operation on exact operands gives the answer.  Returns 1 and sets *out
 * when it applies.
 */
static int parse_exact(uint64_t w, int64_t e, double *out)
{
#if FLT_EVAL_METHOD == 0
    const uint64_t limit = (uint64_t)1 << 53;
    if (w > limit || e < -22 || e > 22 + 15)
        return 0;
    if (e > 22) {
        if (w > limit / exact_pow10_int[e - 22])
            return 0;
        w *= exact_pow10_int[e - 22];
        e = 22;
    }
    double v = (double)w;
    *out = e < 0 ? v / exact_pow10[-e] : v * exact_pow10[e];
    return 1;
#else /* double rounding in wider registers would break the argument */
    (void)w;
    (void)e;
    (void)out;
    return 0;
#endif
}

/*
 * w * 10^e for 0 < w < 2^64 with one 64 x 128-bit product by the tabled
 * g = ceil(10^e / 2^r).  With w shifted up to 64 significant bits, the
 * product P exceeds the exact w 10^e / 2^r by less than 2^64, or equals it
 * when the entry is exact (0 <= e <= POW10_EXACT_MAX).  So when P's low
 * 128 bits are at least 2^64, its top 64 bits are exact and something
 * nonzero lies below them, which settles the rounding; otherwise returns
 * 0 and leaves the case to strtod.  Returns 1 and sets *out (infinity on
 * overflow) when it decides.
 */
static int parse_scaled(uint64_t w, int64_t e, double *out)
{
    if (e < POW10_E_MIN || e > POW10_E_MAX)
        return 0;
    int lz = leading_zeros(w);
    uint64_t top, mid, low;
    multiply_pow10(w << lz, pow10_table[e - POW10_E_MIN], &top, &mid, &low);
    int exact = e >= 0 && e <= POW10_EXACT_MAX;
    if (!exact && mid == 0)
        return 0;
    int below = mid != 0 || low != 0; /* nonzero bits under top */

    /* value = (top + below) * 2^b; top >= 2^62 as both factors are full. */
    int b = floor_log2_pow10((int)e) + 1 - lz;
    int lead = top >> 63 ? 63 : 62;
    int shift = lead - 52;        /* bits of top under the significand */
    int biased = lead + b + 1023; /* the exponent field, if normal */
    if (biased < 1) {             /* subnormal: unit 2^-1074 */
        shift += 1 - biased;
        biased = 1;
        if (shift >= 64)
            return 0;
    }
    uint64_t significand = top >> shift;
    uint64_t half = (uint64_t)1 << (shift - 1);
    uint64_t rest = top & ((half << 1) - 1);
    if (rest > half || (rest == half && (below || (significand & 1))))
        significand++; /* a carry to 2^53 or 2^52 bumps the exponent */
    uint64_t bits = ((uint64_t)(biased - 1) << 52) + significand;
    if (bits > 0x7ff0000000000000u)
        bits = 0x7ff0000000000000u;
    memcpy(out, &bits, sizeof bits);
    return 1;
}

/*
 * The general case: the digits (at most MAX_DIGITS, then a sticky 1) and an
 * exponent, without a decimal point, through strtod.  Such a subject
 * sequence reads the same in every locale.
 */
static double parse_slow(const decimal *dec)
{
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
    return v;
}

int wj_number_parse(const char *lexeme, size_t len, double *out)
{
    decimal dec;
    decimal_scan(lexeme, len, &dec);
    double v = 0.0;
    if (dec.count == 0 || dec.point < -323) {
        /* 0, or below 10^-324, under half the least subnormal */
    } else if (dec.point > 309) { /* 10^309 or more, past DBL_MAX */
        return -1;
    } else {
        uint64_t w = 0;
        int64_t e = dec.point - (int64_t)dec.count; /* value = w * 10^e */
        if (dec.count <= 19) {
            for (size_t i = 0; i < dec.count; i++)
                w = w * 10 + (uint64_t)(digit_at(&dec, dec.first + i) - '0');
        }
        if (!(w && (parse_exact(w, e, &v) || parse_scaled(w, e, &v))))
            v = parse_slow(&dec);
        if (v > DBL_MAX)
            return -1;
    }
    *out = dec.negative ? -v : v;
    return 0;
}

/* ------------------------------------------------------------- formatting */

/*
 * A finite double is v = c * 2^q.  It reads back from any decimal inside
 * its rounding interval, bounded by the midpoints to its neighbours and
 * closed when c is even.  In units of 2^(q-2) the interval runs from cbl to
 * cbr around cb = 4c.  Its width, 2^q (3/4 2^q when c = 2^52 and the
 * neighbour below is nearer), lies in [10^k, 10^(k+1)) for the k chosen
 * below, so it holds s or s + 1 times 10^k, s = floor(v / 10^k), and at
 * most one multiple of 10^(k+1): the shortest decimal is among these.
 *
 * Comparing v / 10^k and the bounds with integers needs only their integer
 * parts and whether they are integers, which the scaling computes exactly
 * as round-to-odd values: floor(x), with its low bit set when x is not an
 * integer.  Comparing such a value with an even integer gives the same
 * answer as comparing x itself.
 */
#define Q_MIN (-1074)
#define C_MIN ((uint64_t)1 << 52)

/*
 * m * g / 2^128 rounded to odd, for g = ceil(10^e / 2^r) from the table:
 * the top 64 bits of the product, with the low bit set when any of the 66
 * bits below them is.  tools/gen_pow10.py proves that this equals the
 * round-to-odd value of the exact m * 10^e / 2^(r + 128) for every m and
 * e the formatter uses (the table's excess never reaches 2^-66).
 */
static uint64_t scale_round_odd(uint64_t m, const uint64_t g[2])
{
    uint64_t top, mid, low;
    multiply_pow10(m, g, &top, &mid, &low);
    return top | ((mid | low >> 62) != 0);
}

/*
 * For the least subnormals v / 10^k is below 100, where a multiple of ten
 * does not always have fewer digits than its neighbours (9 and 10 both
 * have one).  Tries every candidate near s: the fewest digits, then the
 * closest (no ties here: v / 10^k is never a half-integer at this scale).
 */
static uint64_t shortest_small(uint64_t vbl, uint64_t vb, uint64_t vbr,
                               unsigned out)
{
    uint64_t s = vb >> 2;
    uint64_t best = 0;
    int best_len = 4;
    for (uint64_t n = s > 10 ? s - 10 : 1; n <= s + 10; n++) {
        if (vbl + out > n << 2 || (n << 2) + out > vbr)
            continue;
        uint64_t lead = n;
        while (lead % 10 == 0)
            lead /= 10;
        int len = lead < 10 ? 1 : lead < 100 ? 2 : 3;
        if (len < best_len || (len == best_len && vb > 2 * (best + n))) {
            best = n;
            best_len = len;
        }
    }
    return best;
}

/*
 * The shortest decimal s * 10^exp in the rounding interval of c * 2^q,
 * the closest to it among those (the even one on a tie).
 */
static uint64_t shortest_decimal(uint64_t c, int q, int *exp)
{
    unsigned out = (unsigned)(c & 1); /* odd c: the interval is open */
    uint64_t cb = c << 2, cbr = cb + 2, cbl;
    int k;
    if (c != C_MIN || q == Q_MIN) {
        cbl = cb - 2;
        k = floor_log10_pow2(q);
    } else { /* a power of two: the neighbour below is nearer */
        cbl = cb - 1;
        k = floor_log10_three_quarters_pow2(q);
    }
    int h = q + floor_log2_pow10(-k) + 1;
    const uint64_t *g = pow10_table[-k - POW10_E_MIN];
    uint64_t vb = scale_round_odd(cb << h, g);
    uint64_t vbl = scale_round_odd(cbl << h, g);
    uint64_t vbr = scale_round_odd(cbr << h, g);
    *exp = k;

    uint64_t s = vb >> 2;
    if (s < 100)
        return shortest_small(vbl, vb, vbr, out);
    /* The interval is narrower than 10 units, so it holds at most one
     * multiple of ten, and that one has the fewest digits. */
    uint64_t s10 = s / 10 * 10, t10 = s10 + 10;
    int s10_in = vbl + out <= s10 << 2;
    int t10_in = (t10 << 2) + out <= vbr;
    if (s10_in != t10_in)
        return s10_in ? s10 : t10;
    /* Otherwise all candidates have as many digits: s or s + 1, whichever
     * is inside, or the closer (even on a tie) when both are. */
    uint64_t t = s + 1;
    int s_in = vbl + out <= s << 2;
    int t_in = (t << 2) + out <= vbr;
    if (s_in != t_in)
        return s_in ? s : t;
    uint64_t midpoint = (s << 2) + 2;
    return vb < midpoint || (vb == midpoint && (s & 1) == 0) ? s : t;
}

static const char digit_pairs[201] = "0001020304050607080910111213141516171819"
                                     "2021222324252627282930313233343536373839"
                                     "4041424344454647484950515253545556575859"
                                     "6061626364656667686970717273747576777879"
                                     "8081828384858687888990919293949596979899";

/* Writes the 8 decimal digits of v < 10^8, leading zeros too, at p. */
static void digits_write8(uint32_t v, char *p)
{
    uint32_t hi = v / 10000, lo = v % 10000;
    memcpy(p, digit_pairs + 2 * (hi / 100), 2);
    memcpy(p + 2, digit_pairs + 2 * (hi % 100), 2);
    memcpy(p + 4, digit_pairs + 2 * (lo / 100), 2);
    memcpy(p + 6, digit_pairs + 2 * (lo % 100), 2);
}

/* Writes the decimal digits of n > 0 ending just before end; returns how
 * many. */
static int digits_write(uint64_t n, char *end)
{
    char *p = end;
    while (n >= 100000000) {
        uint64_t rest = n / 100000000;
        p -= 8;
        digits_write8((uint32_t)(n - rest * 100000000), p);
        n = rest;
    }
    uint32_t m = (uint32_t)n;
    while (m >= 100) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * (m % 100), 2);
        m /= 100;
    }
    if (m >= 10) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * m, 2);
    } else {
        *--p = (char)('0' + m);
    }
    return (int)(end - p);
}

/* Writes the ECMAScript layout of digits[0..k) * 10^(n-k) at p (k >= 1,
 * the last digit not 0); returns the length. */
static size_t layout(const char *digits, int k, int n, char *p)
{
    char *start = p;
    if (k <= n && n <= 21) { /* an integer: digits, then zeros */
        memcpy(p, digits, (size_t)k);
        p += k;
        memset(p, '0', (size_t)(n - k));
        p += n - k;
    } else if (0 < n && n <= 21) { /* the point among the digits */
        memcpy(p, digits, (size_t)n);
        p += n;
        *p++ = '.';
        memcpy(p, digits + n, (size_t)(k - n));
        p += k - n;
    } else if (-6 < n && n <= 0) { /* 0.000ddd */
        *p++ = '0';
        *p++ = '.';
        memset(p, '0', (size_t)-n);
        p += -n;
        memcpy(p, digits, (size_t)k);
        p += k;
    } else { /* d.ddde+x */
        *p++ = digits[0];
        if (k > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)(k - 1));
            p += k - 1;
        }
        *p++ = 'e';
        *p++ = n - 1 < 0 ? '-' : '+';
        int e = n - 1 < 0 ? 1 - n : n - 1; /* at most 324 */
        if (e >= 100) {
            *p++ = (char)('0' + e / 100);
            e %= 100;
            memcpy(p, digit_pairs + 2 * e, 2);
            p += 2;
        } else if (e >= 10) {
            memcpy(p, digit_pairs + 2 * e, 2);
            p += 2;
        } else {
            *p++ = (char)('0' + e);
        }
    }
    return (size_t)(p - start);
}

size_t wj_number_format(double d, char *buf)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    char *p = buf;
    if (bits >> 63)
        *p++ = '-';
    uint64_t fraction = bits & (C_MIN - 1);
    int biased = (int)(bits >> 52 & 0x7ff);
    if (biased == 0x7ff) { /* not finite: Number::toString's words */
        if (fraction) {
            memcpy(buf, "NaN", 3);
            return 3;
        }
        memcpy(p, "Infinity", 8);
        return (size_t)(p - buf) + 8;
    }
    if (biased == 0 && fraction == 0) { /* 0 and -0 */
        buf[0] = '0';
        return 1;
    }
    uint64_t c = biased ? fraction | C_MIN : fraction;
    int q = (biased ? biased : 1) - 1075;

    char digits[24];
    char *end = digits + sizeof digits;
    int k, exp;
    if (q <= 0 && q > -53 && (c & (((uint64_t)1 << -q) - 1)) == 0) {
        /* An integer below 2^53: its own digits are the shortest. */
        uint64_t n = c >> -q;
        exp = 0;
        while (n % 10 == 0) {
            n /= 10;
            exp++;
        }
        k = digits_write(n, end);
    } else {
        uint64_t s = shortest_decimal(c, q, &exp);
        while (s % 10000 == 0) {
            s /= 10000;
            exp += 4;
        }
        if (s % 100 == 0) {
            s /= 100;
            exp += 2;
        }
        if (s % 10 == 0) {
            s /= 10;
            exp++;
        }
        k = digits_write(s, end);
    }
    return (size_t)(p - buf) + layout(end - k, k, exp + k, p);
}

/* The public form: a double from a host language (an SQL REAL, a Python
 * float) as the JSON number ECMAScript writes for it. */
/* wj_number_format writes at most 25 bytes ("-0.000001234567890123456"),
 * so its room and a NUL fit. */
_Static_assert(WJ_NUMBER_MAX_CHARS <= WJ_NUMBER_BUF_SIZE,
               "wj_number_format's text and a NUL fit the public buffer");

wj_code wj_number_from_double(double value, char out[WJ_NUMBER_BUF_SIZE],
                              size_t *out_len, wj_error *err)
{
    size_t n = 0;
    wj_code rc = WJ_OK;

    wj_error_clear(err);
    if (!isfinite(value)) /* NaN and the infinities are no JSON number */
        rc = wj_fail(err, WJ_ERR_ARGUMENT, 0, "not a finite number");
    else
        n = wj_number_format(value, out);
    out[n] = '\0';
    if (out_len)
        *out_len = n;
    return rc;
}

/* --------------------------------------------------------------- canonical */

/*
 * A decimal of at most 15 significant digits is its double's shortest
 * decimal: any two such decimals read as different doubles (DBL_DIG) while
 * those doubles are normal, so no shorter one (nor another as short) reads
 * back as this one's double.  Its canonical text is then those digits laid
 * out by Number::toString, with no parse and no search for digits.  These
 * bounds on 0.D * 10^point keep the value from 10^-307 to below 10^308,
 * inside the normal doubles.
 */
#define SHORT_POINT_MIN (-306)
#define SHORT_POINT_MAX 308

/* The common case of the short path: a plain decimal that is already
 * written as Number::toString writes it (at most 15 significant digits, no
 * exponent, no zero ending a fraction, not below 10^-6, not "-0"), which is
 * copied as it is. */
static int prints_as_written(const char *lexeme, size_t len)
{
    size_t sign = lexeme[0] == '-', i = sign, int_end, zeros = 0;
    while (i < len && wj_is_digit((unsigned char)lexeme[i]))
        i++;
    int_end = i;
    if (i == len) /* an integer: below 10^15 */
        return wj_integer_as_written(lexeme, len);
    if (lexeme[i] != '.' || lexeme[len - 1] == '0')
        return 0;
    for (i++; i < len; i++) /* the fraction; anything else: an exponent */
        if (!wj_is_digit((unsigned char)lexeme[i]))
            return 0;
    if (lexeme[sign] == '0') { /* 0.xxx: the zeros after the point lead */
        while (lexeme[int_end + 1 + zeros] == '0')
            zeros++;
        return zeros <= 5 && len - (int_end + 1 + zeros) <= WJ_SHORT_DIGITS;
    }
    return len - sign - 1 <= WJ_SHORT_DIGITS;
}

/* The rest of the short path: any other spelling of a short decimal (an
 * exponent, zeros that end its fraction, -0).  Returns the length written,
 * or 0 when the lexeme has more digits or lies outside the bounds. */
static size_t short_canonical(const char *lexeme, size_t len, char *buf)
{
    decimal dec;
    char digits[WJ_SHORT_DIGITS], *p = buf;
    size_t k;

    decimal_scan(lexeme, len, &dec);
    if (dec.count == 0) { /* zero, of either sign */
        buf[0] = '0';
        return 1;
    }
    if (dec.count > WJ_SHORT_DIGITS || dec.point < SHORT_POINT_MIN ||
        dec.point > SHORT_POINT_MAX)
        return 0;
    for (k = 0; k < dec.count; k++)
        digits[k] = digit_at(&dec, dec.first + k);
    if (dec.negative)
        *p++ = '-';
    return (size_t)(p - buf) +
           layout(digits, (int)dec.count, (int)dec.point, p);
}

/* The length of a lexeme without the zeros that end its fraction (and
 * without its point when nothing else follows it): `84.0` is 2 long,
 * `1.50` 3; the length as it is when it has an exponent or no fraction.
 * Those zeros do not change the value, so the shorter lexeme spells the
 * same number. */
static size_t without_fraction_zeros(const char *lexeme, size_t len)
{
    size_t end = len, i;
    while (end > 0 && lexeme[end - 1] == '0')
        end--;
    for (i = end; i > 0 && wj_is_digit((unsigned char)lexeme[i - 1]); i--)
        ;
    if (i == 0 || lexeme[i - 1] != '.') /* an exponent, or an integer */
        return len;
    return i == end ? end - 1 : end;
}

/* An integer of 16 to 19 digits below 2^63 (ids and timestamps, common in
 * request bodies): the double it rounds to is one conversion away, with no
 * decimal scan, so only its digits are searched for.  Returns the length
 * written, or 0 for any other lexeme. */
static size_t long_integer(const char *lexeme, size_t len, char *buf)
{
#if FLT_EVAL_METHOD == 0 /* the conversion rounds once, to nearest */
    size_t sign = lexeme[0] == '-', i;
    uint64_t v = 0;
    double d;
    if (len - sign <= WJ_SHORT_DIGITS || len - sign > 19)
        return 0;
    for (i = sign; i < len; i++) {
        unsigned digit = (unsigned)(unsigned char)lexeme[i] - '0';
        if (digit > 9)
            return 0;
        v = v * 10 + digit;
    }
    if (v >> 63)
        return 0;
    d = (double)(int64_t)v;
    return wj_number_format(sign ? -d : d, buf);
#else
    (void)lexeme;
    (void)len;
    (void)buf;
    return 0;
#endif
}

size_t wj_number_canonical(const char *lexeme, size_t len, char *buf)
{
    double d;
    size_t n;
    /* `1.0`, `0.50` (common in request bodies) as `1`, `0.5`: a lexeme with
     * zeros ending its fraction never prints as written itself. */
    n = lexeme[len - 1] == '0' ? without_fraction_zeros(lexeme, len) : len;
    if (prints_as_written(lexeme, n)) {
        memcpy(buf, lexeme, n);
        return n;
    }
    n = long_integer(lexeme, len, buf);
    if (n)
        return n;
    n = short_canonical(lexeme, len, buf);
    if (n)
        return n;
    if (wj_number_parse(lexeme, len, &d) != 0)
        return 0;
    return wj_number_format(d, buf);
}
