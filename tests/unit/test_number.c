/* SPDX-License-Identifier: MIT */
/*
 * test_number.c - number lexemes to doubles and doubles to ECMAScript text.
 *
 * Expected spellings are written by hand from ECMA-262's Number::toString
 * rules and RFC 8785's number samples (Appendix B); expected doubles are
 * C literals, which the compiler converts on its own.  Long lexemes are
 * built at run time from exact powers of two and five.
 *
 * wj_number_from_double, the public form of the formatter, is checked
 * against the strings Node's String(x) gives for the same doubles.
 *
 * With WJ_TEST_LOCALE set (ctest does so for a decimal-comma locale), main
 * switches the process to that locale first and fails if it cannot.
 */
#include "check.h"
#include "number.h"
#include "wirejson.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static double from_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static uint64_t to_bits(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

/* ------------------------------------------------------------ formatting */

struct format_case {
    uint64_t bits;
    const char *text;
};

/* RFC 8785 Appendix B, then the edges of ECMAScript's layout rules. */
static const struct format_case format_cases[] = {
    {0x0000000000000000, "0"},
    {0x8000000000000000, "0"},
    {0x0000000000000001, "5e-324"},
    {0x8000000000000001, "-5e-324"},
    {0x7fefffffffffffff, "1.7976931348623157e+308"},
    {0xffefffffffffffff, "-1.7976931348623157e+308"},
    {0x4340000000000000, "9007199254740992"},
    {0xc340000000000000, "-9007199254740992"},
    {0x4430000000000000, "295147905179352830000"},
    {0x44b52d02c7e14af5, "9.999999999999997e+22"},
    {0x44b52d02c7e14af6, "1e+23"},
    {0x44b52d02c7e14af7, "1.0000000000000001e+23"},
    {0x444b1ae4d6e2ef4e, "999999999999999700000"},
    {0x444b1ae4d6e2ef4f, "999999999999999900000"},
    {0x444b1ae4d6e2ef50, "1e+21"},
    {0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
    {0x3eb0c6f7a0b5ed8d, "0.000001"},
    {0x41b3de4355555553, "333333333.3333332"},
    {0x41b3de4355555554, "333333333.33333325"},
    {0x41b3de4355555555, "333333333.3333333"},
    {0x41b3de4355555556, "333333333.3333334"},
    {0x41b3de4355555557, "333333333.33333343"},
    {0xbecbf647612f3696, "-0.0000033333333333333333"},
    {0x43143ff3c1cb0959, "1424953923781206.2"},
    /* Subnormals and the normal boundary. */
    {0x0000000000000002, "1e-323"},
    {0x0000000000000003, "1.5e-323"},
    {0x0000000000000012, "9e-323"},
    {0x000fffffffffffff, "2.225073858507201e-308"},
    {0x0010000000000000, "2.2250738585072014e-308"},
    {0x0010000000000001, "2.225073858507202e-308"},
    /* Powers of two: the neighbour below is only half as far away. */
    {0x3fe0000000000000, "0.5"},
    {0x3ff0000000000000, "1"},
    {0x4090000000000000, "1024"},
    {0x43f0000000000000, "18446744073709552000"},
    {0x4450000000000000, "1.1805916207174113e+21"},
    {0x7fe0000000000000, "8.98846567431158e+307"},
    {0x3eb0000000000000, "9.5367431640625e-7"},
    {0x3ec0000000000000, "0.0000019073486328125"},
    {0x4340000000000001, "9007199254740994"},
    {0x433fffffffffffff, "9007199254740991"},
    /* Layout edges: 21 integer digits, then exponent form; -6 < n. */
    {0x3ff0000000000001, "1.0000000000000002"},
    {0x3fefffffffffffff, "0.9999999999999999"},
    {0x3fd5555555555555, "0.3333333333333333"},
    {0x3fb999999999999a, "0.1"},
    {0x3fd3333333333334, "0.30000000000000004"},
    {0x4011666666666666, "4.35"},
};

/* Values given as C literals, spelled as ECMAScript does. */
struct literal_case {
    double value;
    const char *text;
};

static const struct literal_case literal_cases[] = {
    {1e21, "1e+21"},
    {1e20, "100000000000000000000"},
    {123456789012345680000.0, "123456789012345680000"},
    {1e-7, "1e-7"},
    {1.5e-7, "1.5e-7"},
    {1e-6, "0.000001"},
    {1.25e-6, "0.00000125"},
    {-1.25e-6, "-0.00000125"},
    {0.3, "0.3"},
    {4.35, "4.35"},
    {-4.35, "-4.35"},
    {1.0 / 3.0, "0.3333333333333333"},
    {2.0 / 3.0, "0.6666666666666666"},
    {1e23, "1e+23"},
    {9.999999999999999e22, "1e+23"},
    {123.456, "123.456"},
    {1234567.125, "1234567.125"},
    {1e100, "1e+100"},
    {1.5e300, "1.5e+300"},
    {-1e-100, "-1e-100"},
    {DBL_MIN, "2.2250738585072014e-308"},
    {DBL_EPSILON, "2.220446049250313e-16"},
};

static void test_format(void)
{
    char space[WJ_NUMBER_MAX_CHARS];
    char *buf = space;
    for (size_t i = 0; i < sizeof format_cases / sizeof *format_cases; i++) {
        size_t n = wj_number_format(from_bits(format_cases[i].bits), buf);
        CHECK_BYTES(buf, n, format_cases[i].text);
    }
    for (size_t i = 0; i < sizeof literal_cases / sizeof *literal_cases; i++) {
        size_t n = wj_number_format(literal_cases[i].value, buf);
        CHECK_BYTES(buf, n, literal_cases[i].text);
    }
}

/* --------------------------------------------------------------- parsing */

struct parse_case {
    const char *lexeme;
    double value;
};

static const struct parse_case parse_cases[] = {
    {"0", 0.0},
    {"1", 1.0},
    {"-1", -1.0},
    {"0.1", 0.1},
    {"1E+2", 100.0},
    {"1e-2", 0.01},
    {"123.456e3", 123456.0},
    {"0.000001", 1e-6},
    {"9007199254740992", 9007199254740992.0},
    {"9007199254740993", 9007199254740992.0},
    {"9007199254740995", 9007199254740996.0},
    {"9007199254740993.0000000001", 9007199254740994.0},
    {"5e-324", 0x1p-1074},
    {"4.9e-324", 0x1p-1074},
    {"2.5e-324", 0x1p-1074},
    {"2.4e-324", 0.0},
    {"-2.4e-324", -0.0},
    {"1e-400", 0.0},
    {"-1e-400", -0.0},
    {"1.7976931348623157e308", DBL_MAX},
    {"1.7976931348623158e308", DBL_MAX},
    {"2.2250738585072011e-308", 2.2250738585072011e-308},
    {"2.2250738585072012e-308", 2.2250738585072012e-308},
    {"0.30000000000000004", 0.30000000000000004},
    {"123456789012345678901234567890", 123456789012345678901234567890.0},
    {"1e23", 1e23},
    {"8.98846567431158e307", 8.98846567431158e307},
    {"1e22", 1e22},
    {"1e37", 1e37},
    {"123e35", 123e35},
    {"4.35", 4.35},
    {"-0.0e0", -0.0},
    {"0e999999999999", 0.0},
    {"1e-999999999999999999999999", 0.0},
    {"7.2057594037927933e16", 7.2057594037927933e16},
    /* Up to 19 digits: one scaled product, exact ties at e >= 0. */
    {"1234567890123456789", 1234567890123456789.0},
    {"18014398509481985", 18014398509481984.0},
    {"18014398509481987", 18014398509481988.0},
    {"1.8014398509481987e16", 18014398509481988.0},
    {"9223372036854775807", 9223372036854775807.0},
    {"2.4703282292062327e-324", 0.0},
    {"2.4703282292062328e-324", 0x1p-1074},
    {"1.7976931348623158079e308", DBL_MAX},
    {"2.225073858507201136e-308", 2.225073858507201136e-308},
};

static void test_parse(void)
{
    for (size_t i = 0; i < sizeof parse_cases / sizeof *parse_cases; i++) {
        const struct parse_case *c = &parse_cases[i];
        double d = 42.0;
        int rc = wj_number_parse(c->lexeme, strlen(c->lexeme), &d);
        CHECK(rc == 0);
        if (to_bits(d) != to_bits(c->value)) {
            fprintf(stderr, "parse %s: got %a, expected %a\n", c->lexeme, d,
                    c->value);
        }
        CHECK(to_bits(d) == to_bits(c->value));
    }

    static const char *const overflows[] = {
        "1e400", "-1e400", "1.7976931348623159e308", "1e999999999999",
        "1.797693134862315808e308", "-1.797693134862315808e308",
        "1e99999999999999999999999999999999999999"};
    for (size_t i = 0; i < sizeof overflows / sizeof *overflows; i++) {
        double d = 42.0;
        CHECK(wj_number_parse(overflows[i], strlen(overflows[i]), &d) == -1);
        CHECK(d == 42.0);
    }

    /* The lexeme is not NUL-terminated: digits after len are not read. */
    double d = 0;
    CHECK(wj_number_parse("12345", 3, &d) == 0 && d == 123.0);
    CHECK(wj_number_parse("0.125e1", 5, &d) == 0 && d == 0.125);
}

/* ------------------------------------------------------------ canonical */

struct canonical_case {
    const char *lexeme;
    const char *text; /* NULL when the number rounds to infinity */
};

static const struct canonical_case canonical_cases[] = {
    {"0", "0"},
    {"-0", "0"},
    {"-0.0", "0"},
    {"0.0e-5", "0"},
    {"1", "1"},
    {"-1", "-1"},
    {"0.1", "0.1"},
    {"0.5", "0.5"},
    {"1.0", "1"},
    {"1E+2", "100"},
    {"1e2", "100"},
    {"1e21", "1e+21"},
    {"1e20", "100000000000000000000"},
    {"1e-7", "1e-7"},
    {"0.0000001", "1e-7"},
    {"0.000001", "0.000001"},
    {"123456789012345680000", "123456789012345680000"},
    {"123456789012345678901", "123456789012345680000"},
    {"999999999999999999999", "1e+21"},
    {"5e-324", "5e-324"},
    {"4.9e-324", "5e-324"},
    {"2.4e-324", "0"},
    {"1.7976931348623157e308", "1.7976931348623157e+308"},
    {"-1.7976931348623157E+308", "-1.7976931348623157e+308"},
    {"9007199254740992", "9007199254740992"},
    {"9007199254740993", "9007199254740992"},
    {"123456789012345", "123456789012345"},
    {"-123456789012345", "-123456789012345"},
    {"1234567890123456", "1234567890123456"},
    {"12345678901234567", "12345678901234568"},
    {"4.35", "4.35"},
    {"0.3", "0.3"},
    {"0.3333333333333333", "0.3333333333333333"},
    {"0.33333333333333333333", "0.3333333333333333"},
    {"1e23", "1e+23"},
    {"9.999999999999999e22", "1e+23"},
    {"2.2250738585072014e-308", "2.2250738585072014e-308"},
    {"2.225073858507201e-308", "2.225073858507201e-308"},
    {"1e400", NULL},
    {"-1e400", NULL},
    {"1e-400", "0"},
    {"-1e-400", "0"},
    {"100e-2", "1"},
    {"0.00001e5", "1"},
    {"1.5e-7", "1.5e-7"},
    {"-3.25e2", "-325"},
    {"1e-6", "0.000001"},
    {"12.5e-7", "0.00000125"},
    /* zeros ending a fraction, dropped before the copy path */
    {"1.50", "1.5"},
    {"-0.50", "-0.5"},
    {"100.0", "100"},
    {"-10.00", "-10"},
    {"0.000", "0"},
    {"-0.00", "0"},
    {"0.0000010", "0.000001"},
    {"0.00000010", "1e-7"},
    {"123456789012345.0", "123456789012345"},
    {"1234567890123456.0", "1234567890123456"},
    {"1.000000000000000000001", "1"},
    {"1.50e10", "15000000000"},
    {"120", "120"},
};

static void test_canonical(void)
{
    char space[WJ_NUMBER_MAX_CHARS];
    char *buf = space;
    for (size_t i = 0; i < sizeof canonical_cases / sizeof *canonical_cases;
         i++) {
        const struct canonical_case *c = &canonical_cases[i];
        size_t n = wj_number_canonical(c->lexeme, strlen(c->lexeme), buf);
        if (c->text)
            CHECK_BYTES(buf, n, c->text);
        else
            CHECK(n == 0);
    }
}

/* ---------------------------------------------------------- long lexemes */

/* Decimal digits of base^exp (base 2 or 5), most significant first, in a
 * malloc'd NUL-terminated string. */
static char *power_digits(unsigned base, unsigned exp)
{
    size_t cap = exp + 2;
    unsigned char *rev = calloc(cap, 1); /* least significant first */
    size_t n = 1;
    rev[0] = 1;
    for (unsigned e = 0; e < exp; e++) {
        unsigned carry = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned v = rev[i] * base + carry;
            rev[i] = (unsigned char)(v % 10);
            carry = v / 10;
        }
        if (carry)
            rev[n++] = (unsigned char)carry;
    }
    char *s = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        s[i] = (char)('0' + rev[n - 1 - i]);
    s[n] = '\0';
    free(rev);
    return s;
}

/* The lexeme "<head><zeros x '0'><tail>", malloc'd. */
static char *spell(const char *head, size_t zeros, const char *tail)
{
    size_t h = strlen(head), t = strlen(tail);
    char *s = malloc(h + zeros + t + 1);
    memcpy(s, head, h);
    memset(s + h, '0', zeros);
    memcpy(s + h + zeros, tail, t + 1);
    return s;
}

static void check_canonical_of(char *lexeme, const char *expected)
{
    char space[WJ_NUMBER_MAX_CHARS];
    char *buf = space;
    size_t n = wj_number_canonical(lexeme, strlen(lexeme), buf);
    if (expected)
        CHECK_BYTES(buf, n, expected);
    else
        CHECK(n == 0);
    free(lexeme);
}

static void test_long_lexemes(void)
{
    /* A 1000-digit integer is past the largest double; a 300-digit one. */
    check_canonical_of(spell("1", 999, ""), NULL);
    check_canonical_of(spell("1", 299, ""), "1e+299");
    check_canonical_of(spell("-1", 299, ""), "-1e+299");
    check_canonical_of(spell("17976931348623157", 292, ""),
                       "1.7976931348623157e+308");
    /* Zeros before the point, after it, and an exponent that cancels. */
    check_canonical_of(spell("0.", 999, "1e+1000"), "1");
    check_canonical_of(spell("0.", 999, "1E1002"), "100");
    check_canonical_of(spell("0.", 5000, "15e+5001"), "1.5");
    check_canonical_of(spell("1", 1000, "e-1000"), "1");
    check_canonical_of(spell("1.", 3000, "e-3"), "0.001");
    check_canonical_of(spell("0.", 400, "1"), "0");
    check_canonical_of(spell("-0.", 400, "1"), "0");
    check_canonical_of(spell("0.", 300, "1"), "1e-301");
    check_canonical_of(spell("0.", 100000, "1e99999"), "0.01");

    /* 1 + 2^-53 lies halfway between 1 and the next double: ties go to
     * the even 1, anything above goes up, however far down it is. */
    char *half_ulp = power_digits(5, 53); /* 2^-53 = 5^53 * 10^-53 */
    size_t lead = 53 - strlen(half_ulp);
    char head[80];
    snprintf(head, sizeof head, "1.%.*s%s", (int)lead,
             "00000000000000000000", half_ulp);
    check_canonical_of(spell(head, 0, ""), "1");
    check_canonical_of(spell(head, 2000, ""), "1");
    check_canonical_of(spell(head, 2000, "1"), "1.0000000000000002");
    check_canonical_of(spell(head, 2000, "1e0"), "1.0000000000000002");
    free(half_ulp);

    /* Half the least subnormal, 2^-1075: ties go to 0. */
    char *tiny = power_digits(5, 1075); /* 2^-1075 = 5^1075 * 10^-1075 */
    size_t tiny_len = strlen(tiny);
    char *tie = malloc(tiny_len + 16);
    snprintf(tie, tiny_len + 16, "%se-1075", tiny);
    check_canonical_of(spell(tie, 0, ""), "0");
    tie[tiny_len] = '\0';
    check_canonical_of(spell(tie, 1000, "1e-2076"), "5e-324");
    free(tie);
    free(tiny);

    /* DBL_MAX + half its spacing, 2^1024 - 2^970, goes to infinity. */
    char *top = power_digits(2, 1024);
    char *step = power_digits(2, 970);
    size_t tn = strlen(top), sn = strlen(step);
    int borrow = 0;
    for (size_t i = 0; i < tn; i++) { /* top -= step, from the right */
        int a = top[tn - 1 - i] - '0' - borrow;
        int b = i < sn ? step[sn - 1 - i] - '0' : 0;
        borrow = a < b;
        top[tn - 1 - i] = (char)('0' + a - b + (borrow ? 10 : 0));
    }
    check_canonical_of(spell(top, 0, ""), NULL);
    check_canonical_of(spell(top, 0, ".0000000"), NULL);
    top[tn - 1]--; /* the midpoint ends in 2; one less stays finite */
    check_canonical_of(spell(top, 0, ""), "1.7976931348623157e+308");
    check_canonical_of(spell(top, 0, ".99999999"), "1.7976931348623157e+308");
    free(top);
    free(step);
}

/* ------------------------------------------------- wj_number_from_double */

static void check_from_double(double d, const char *expected)
{
    char out[WJ_NUMBER_BUF_SIZE];
    const char *text = out; /* CHECK_BYTES tests its pointer for NULL */
    size_t len = 99;
    wj_error err = {WJ_ERR_SYNTAX, 5, "stale", "stale", 3};
    CHECK(wj_number_from_double(d, out, &len, &err) == WJ_OK);
    CHECK_BYTES(text, len, expected);
    CHECK(strlen(out) == len); /* NUL-terminated */
    CHECK(err.code == WJ_OK && err.msg == NULL && err.argument == NULL &&
          err.element == WJ_NO_ELEMENT && err.offset == 0);
}

static void check_not_finite(double d)
{
    char out[WJ_NUMBER_BUF_SIZE] = "junk";
    size_t len = 99;
    wj_error err;
    CHECK(wj_number_from_double(d, out, &len, &err) == WJ_ERR_ARGUMENT);
    CHECK(err.code == WJ_ERR_ARGUMENT && err.msg &&
          strcmp(err.msg, "not a finite number") == 0);
    CHECK(err.argument == NULL && err.element == WJ_NO_ELEMENT);
    CHECK(len == 0 && out[0] == '\0');
}

static void test_from_double(void)
{
    char out[WJ_NUMBER_BUF_SIZE];
    /* Node: String(x) for each */
    check_from_double(0.1 + 0.2, "0.30000000000000004");
    check_from_double(1e21, "1e+21");
    check_from_double(1e20, "100000000000000000000");
    check_from_double(1e-7, "1e-7");
    check_from_double(1.5e-7, "1.5e-7");
    check_from_double(0.000001, "0.000001");
    check_from_double(-0.0, "0");
    check_from_double(0.0, "0");
    check_from_double(5e-324, "5e-324");
    check_from_double(-5e-324, "-5e-324");
    check_from_double(1.7976931348623157e+308, "1.7976931348623157e+308");
    check_from_double(-1.7976931348623157e+308, "-1.7976931348623157e+308");
    check_from_double(2.2250738585072014e-308, "2.2250738585072014e-308");
    check_from_double(123456789012345678901.0, "123456789012345680000");
    check_from_double(-1.5, "-1.5");
    check_from_double(100.0, "100");
    check_from_double(9007199254740993.0, "9007199254740992");
    check_from_double(-1.2345678901234567e-5, "-0.000012345678901234568");
    check_not_finite(HUGE_VAL);
    check_not_finite(-HUGE_VAL);
    check_not_finite(NAN);
    /* err and out_len may be NULL */
    CHECK(wj_number_from_double(0.5, out, NULL, NULL) == WJ_OK &&
          strcmp(out, "0.5") == 0);
    CHECK(wj_number_from_double(NAN, out, NULL, NULL) == WJ_ERR_ARGUMENT);
}

/* ---------------------------------------------------------------- main */

int main(void)
{
    const char *want = getenv("WJ_TEST_LOCALE");
    if (want && *want) {
        if (!setlocale(LC_ALL, want)) {
            fprintf(stderr,
                    "test_number: cannot switch to locale %s: generate it "
                    "first (Debian: apt-get install locales; localedef -i "
                    "de_DE -f UTF-8 de_DE.UTF-8)\n",
                    want);
            return 1;
        }
        if (strcmp(localeconv()->decimal_point, ".") == 0) {
            fprintf(stderr, "test_number: locale %s has a decimal point, "
                            "expected a decimal comma\n", want);
            return 1;
        }
    }
    test_format();
    test_parse();
    test_canonical();
    test_long_lexemes();
    test_from_double();
    return check_report(want && *want ? "test_number (decimal comma)"
                                      : "test_number");
}
