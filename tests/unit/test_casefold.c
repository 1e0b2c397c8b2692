/* SPDX-License-Identifier: MIT */
/*
 * test_casefold.c - wj_case_fold() against hand-picked code points.
 *
 * Every expectation below was read off Unicode 15.0's CaseFolding.txt by
 * hand (the line's status and mapping are in the comments; "none" means the
 * code point has no C or S line and folds to itself), not taken from the
 * generated table: run ends and the code points just outside them, the
 * alternating capital/small blocks on both parities, negative offsets, the
 * folds that leave their script's block, and the F and T lines that simple
 * folding leaves out.
 */
#include "check.h"
#include "unicode.h"

struct fold_case {
    uint32_t cp;
    uint32_t folded;
};

static const struct fold_case cases[] = {
    /* ASCII: A-Z only. */
    {0x0000, 0x0000}, /* none */
    {0x0040, 0x0040}, /* COMMERCIAL AT, none */
    {0x0041, 0x0061}, /* 0041; C; 0061 */
    {0x0049, 0x0069}, /* 0049; C; 0069 (the T line to 0131 is left out) */
    {0x004B, 0x006B}, /* 004B; C; 006B */
    {0x005A, 0x007A}, /* 005A; C; 007A */
    {0x005B, 0x005B}, /* LEFT SQUARE BRACKET, none */
    {0x0061, 0x0061}, /* none: small letters are already folded */
    {0x007F, 0x007F}, /* none */
    /* Latin-1: MICRO SIGN goes to Greek; the multiplication sign and the
     * sharp s are not letters with a simple fold. */
    {0x00B4, 0x00B4}, /* ACUTE ACCENT, none */
    {0x00B5, 0x03BC}, /* 00B5; C; 03BC */
    {0x00BF, 0x00BF}, /* none */
    {0x00C0, 0x00E0}, /* 00C0; C; 00E0 */
    {0x00D6, 0x00F6}, /* 00D6; C; 00F6 */
    {0x00D7, 0x00D7}, /* MULTIPLICATION SIGN, none */
    {0x00D8, 0x00F8}, /* 00D8; C; 00F8 */
    {0x00DE, 0x00FE}, /* 00DE; C; 00FE */
    {0x00DF, 0x00DF}, /* 00DF; F; 0073 0073 only: none */
    {0x00E0, 0x00E0}, /* none */
    /* Latin Extended-A: capitals on even, small letters on odd. */
    {0x0100, 0x0101}, /* 0100; C; 0101 */
    {0x0101, 0x0101}, /* none */
    {0x012E, 0x012F}, /* 012E; C; 012F */
    {0x0130, 0x0130}, /* 0130; F; 0069 0307 and T; 0069 only: none */
    {0x0131, 0x0131}, /* DOTLESS I, none */
    {0x0178, 0x00FF}, /* 0178; C; 00FF (a negative offset) */
    {0x017F, 0x0073}, /* 017F; C; 0073 LONG S to ASCII */
    /* The DZ digraphs: capital, title case, small. */
    {0x01C4, 0x01C6}, /* 01C4; C; 01C6 */
    {0x01C5, 0x01C6}, /* 01C5; C; 01C6 */
    {0x01C6, 0x01C6}, /* none */
    /* Greek: the three sigmas, a combining mark that folds, theta. */
    {0x0345, 0x03B9}, /* 0345; C; 03B9 */
    {0x03A3, 0x03C3}, /* 03A3; C; 03C3 */
    {0x03C2, 0x03C3}, /* 03C2; C; 03C3 */
    {0x03C3, 0x03C3}, /* none */
    {0x03F4, 0x03B8}, /* 03F4; C; 03B8 */
    {0x0587, 0x0587}, /* 0587; F; 0565 0582 only: none */
    /* Cherokee folds to its capitals in 15.0. */
    {0x13A0, 0x13A0}, /* CHEROKEE LETTER A, none */
    {0x13F8, 0x13F0}, /* 13F8; C; 13F0 */
    {0x13FD, 0x13F5}, /* 13FD; C; 13F5 */
    {0xAB70, 0x13A0}, /* AB70; C; 13A0 */
    {0xABBF, 0x13EF}, /* ABBF; C; 13EF */
    {0x1C90, 0x10D0}, /* 1C90; C; 10D0 Georgian Mtavruli */
    {0x1E9B, 0x1E61}, /* 1E9B; C; 1E61 */
    {0x1E9E, 0x00DF}, /* 1E9E; S; 00DF (the F line to "ss" left out) */
    {0x1FBE, 0x03B9}, /* 1FBE; C; 03B9 */
    /* Letterlike symbols that are letters under folding. */
    {0x2126, 0x03C9}, /* 2126; C; 03C9 OHM SIGN */
    {0x212A, 0x006B}, /* 212A; C; 006B KELVIN SIGN */
    {0x212B, 0x00E5}, /* 212B; C; 00E5 ANGSTROM SIGN */
    {0x2C2F, 0x2C5F}, /* 2C2F; C; 2C5F */
    {0xA7C0, 0xA7C1}, /* A7C0; C; A7C1 */
    {0xFB00, 0xFB00}, /* FB00; F; 0066 0066 only: none */
    {0xFF20, 0xFF20}, /* FULLWIDTH COMMERCIAL AT, none */
    {0xFF21, 0xFF41}, /* FF21; C; FF41 */
    {0xFF3A, 0xFF5A}, /* FF3A; C; FF5A */
    {0xFF3B, 0xFF3B}, /* none */
    /* Above the BMP. */
    {0x10400, 0x10428},   /* 10400; C; 10428 */
    {0x10427, 0x1044F},   /* 10427; C; 1044F */
    {0x10428, 0x10428},   /* none */
    {0x10C80, 0x10CC0},   /* 10C80; C; 10CC0 */
    {0x1E900, 0x1E922},   /* 1E900; C; 1E922 */
    {0x1E921, 0x1E943},   /* 1E921; C; 1E943, the last line */
    {0x1E922, 0x1E922},   /* none */
    {0x10FFFF, 0x10FFFF}, /* none */
    /* Not characters: folded to themselves. */
    {0xD800, 0xD800},
    {0xDFFF, 0xDFFF},
    {0x110000, 0x110000},
    {0x1100FF, 0x1100FF},
    {0xFFFFFFFF, 0xFFFFFFFF},
};

int main(void)
{
    size_t k;
    uint32_t cp;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint32_t got = wj_case_fold(cases[k].cp);
        if (got != cases[k].folded)
            fprintf(stderr, "U+%04X folds to U+%04X, expected U+%04X\n",
                    (unsigned)cases[k].cp, (unsigned)got,
                    (unsigned)cases[k].folded);
        CHECK(got == cases[k].folded);
    }
    /* Folding is a projection: what a code point folds to folds to itself,
     * so "equal under folding" is an equivalence. */
    for (cp = 0; cp <= 0x10FFFF; cp++) {
        uint32_t f = wj_case_fold(cp);
        if (wj_case_fold(f) != f) {
            fprintf(stderr, "U+%04X folds to U+%04X, which folds again\n",
                    (unsigned)cp, (unsigned)f);
            CHECK(wj_case_fold(f) == f);
            break;
        }
    }
    return check_report("test_casefold");
}
