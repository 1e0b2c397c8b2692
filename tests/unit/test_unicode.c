/* SPDX-License-Identifier: MIT */
/*
 * test_unicode.c - wj_is_combining() against hand-picked code points.
 *
 * Every expectation below was read off Unicode 15.0's UnicodeData.txt by
 * hand (field 3, the canonical combining class, shown in the comments), not
 * taken from the generated table: range ends and the code points just
 * outside them, marks of several classes, and the common non-marks.
 */
#include "check.h"
#include "unicode.h"

struct unicode_case {
    uint32_t cp;
    int combining; /* 1 when field 3 of the code point's line is not 0 */
};

static const struct unicode_case cases[] = {
    /* Below the first mark: ASCII, Latin-1 and the letter before U+0300. */
    {0x0000, 0},   /* <control> NULL, ccc 0 */
    {0x0041, 0},   /* LATIN CAPITAL LETTER A, 0 */
    {0x00E9, 0},   /* e WITH ACUTE, precomposed, 0 */
    {0x02FF, 0},   /* MODIFIER LETTER LOW LEFT ARROW, 0 */
    /* U+0300..U+034E, then the grapheme joiner (0), then U+0350..U+036F. */
    {0x0300, 1},   /* COMBINING GRAVE ACCENT, 230 */
    {0x0301, 1},   /* COMBINING ACUTE ACCENT, 230 */
    {0x0345, 1},   /* COMBINING GREEK YPOGEGRAMMENI, 240 */
    {0x034E, 1},   /* COMBINING UPWARDS ARROW BELOW, 220 */
    {0x034F, 0},   /* COMBINING GRAPHEME JOINER, 0 */
    {0x0350, 1},   /* COMBINING RIGHT ARROWHEAD ABOVE, 230 */
    {0x036F, 1},   /* COMBINING LATIN SMALL LETTER X, 230 */
    {0x0370, 0},   /* GREEK CAPITAL LETTER HETA, 0 */
    /* Cyrillic U+0483..U+0487; U+0488 is an enclosing mark of class 0. */
    {0x0482, 0},   /* CYRILLIC THOUSANDS SIGN, 0 */
    {0x0483, 1},   /* COMBINING CYRILLIC TITLO, 230 */
    {0x0487, 1},   /* COMBINING CYRILLIC POKRYTIE, 230 */
    {0x0488, 0},   /* COMBINING CYRILLIC HUNDRED THOUSANDS SIGN, Me, 0 */
    /* Hebrew U+0591..U+05BD, U+05BF alone. */
    {0x0591, 1},   /* HEBREW ACCENT ETNAHTA, 220 */
    {0x05B0, 1},   /* HEBREW POINT SHEVA, 10 */
    {0x05BD, 1},   /* HEBREW POINT METEG, 22 */
    {0x05BE, 0},   /* HEBREW PUNCTUATION MAQAF, 0 */
    {0x05BF, 1},   /* HEBREW POINT RAFE, 23 */
    {0x05C0, 0},   /* HEBREW PUNCTUATION PASEQ, 0 */
    /* Thai U+0E38..U+0E3A; U+0E47 is a mark of class 0. */
    {0x0E37, 0},   /* THAI CHARACTER SARA UEE, 0 */
    {0x0E38, 1},   /* THAI CHARACTER SARA U, 103 */
    {0x0E3A, 1},   /* THAI CHARACTER PHINTHU, 9 */
    {0x0E3B, 0},   /* unassigned */
    {0x0E47, 0},   /* THAI CHARACTER MAITAIKHU, Mn, 0 */
    {0x0E48, 1},   /* THAI CHARACTER MAI EK, 107 */
    /* Tibetan: U+0F73 decomposes to two marks but has class 0 itself. */
    {0x0F72, 1},   /* TIBETAN VOWEL SIGN I, 130 */
    {0x0F73, 0},   /* TIBETAN VOWEL SIGN II, 0 */
    /* Combining Diacritical Marks Supplement: all of U+1DC0..U+1DFF. */
    {0x1DBF, 0},   /* MODIFIER LETTER SMALL THETA, 0 */
    {0x1DC0, 1},   /* COMBINING DOTTED GRAVE ACCENT, 230 */
    {0x1DFA, 1},   /* COMBINING DOT BELOW LEFT, 218 */
    {0x1DFF, 1},   /* COMBINING RIGHT ARROWHEAD AND DOWN ARROWHEAD BELOW, 220 */
    {0x1E00, 0},   /* LATIN CAPITAL LETTER A WITH RING BELOW, 0 */
    /* Symbols: U+20D0..U+20DC, then enclosing marks of class 0. */
    {0x20D0, 1},   /* COMBINING LEFT HARPOON ABOVE, 230 */
    {0x20DC, 1},   /* COMBINING FOUR DOTS ABOVE, 230 */
    {0x20DD, 0},   /* COMBINING ENCLOSING CIRCLE, 0 */
    /* CJK tone marks U+302A..U+302F. */
    {0x3029, 0},   /* HANGZHOU NUMERAL NINE, 0 */
    {0x302A, 1},   /* IDEOGRAPHIC LEVEL TONE MARK, 218 */
    {0x302F, 1},   /* HANGUL DOUBLE DOT TONE MARK, 224 */
    {0x3030, 0},   /* WAVY DASH, 0 */
    {0x3099, 1},   /* COMBINING KATAKANA-HIRAGANA VOICED SOUND MARK, 8 */
    {0x309B, 0},   /* KATAKANA-HIRAGANA VOICED SOUND MARK, 0 */
    /* Half marks U+FE20..U+FE2F. */
    {0xFE20, 1},   /* COMBINING LIGATURE LEFT HALF, 230 */
    {0xFE2F, 1},   /* COMBINING CYRILLIC TITLO RIGHT HALF, 230 */
    {0xFE30, 0},   /* PRESENTATION FORM FOR VERTICAL TWO DOT LEADER, 0 */
    /* Surrogates and private use (First/Last ranges, class 0). */
    {0xD800, 0},
    {0xDFFF, 0},
    {0xE000, 0},
    {0xFFFF, 0},
    /* Musical symbols U+1D165..U+1D169, U+1D16D..U+1D172. */
    {0x1D164, 0},  /* MUSICAL SYMBOL ONE HUNDRED TWENTY-EIGHTH NOTE, 0 */
    {0x1D165, 1},  /* MUSICAL SYMBOL COMBINING STEM, 216 */
    {0x1D167, 1},  /* MUSICAL SYMBOL COMBINING TREMOLO-1, 1 */
    {0x1D169, 1},  /* MUSICAL SYMBOL COMBINING TREMOLO-3, 1 */
    {0x1D16A, 0},  /* MUSICAL SYMBOL FINGERED TREMOLO-1, 0 */
    {0x1D16D, 1},  /* MUSICAL SYMBOL COMBINING AUGMENTATION DOT, 226 */
    {0x1D172, 1},  /* MUSICAL SYMBOL COMBINING FLAG-5, 216 */
    {0x1D173, 0},  /* MUSICAL SYMBOL BEGIN BEAM, 0 */
    /* Nag Mundari, new in Unicode 15.0: U+1E4EC..U+1E4EF. */
    {0x1E4EB, 0},  /* NAG MUNDARI SIGN OJOD, 0 */
    {0x1E4EC, 1},  /* NAG MUNDARI SIGN MUHOR, 232 */
    {0x1E4EF, 1},  /* NAG MUNDARI SIGN SUTUH, 230 */
    {0x1E4F0, 0},  /* NAG MUNDARI DIGIT ZERO, 0 */
    /* Adlam U+1E944..U+1E94A: the last marks in the whole table. */
    {0x1E943, 0},  /* ADLAM SMALL LETTER SHA, 0 */
    {0x1E944, 1},  /* ADLAM ALIF LENGTHENER, 230 */
    {0x1E94A, 1},  /* ADLAM NUKTA, 7 */
    {0x1E94B, 0},  /* ADLAM NASALIZATION MARK, 0 */
    /* Above: CJK, planes 15 and 16, the top, and beyond Unicode. */
    {0x20000, 0},  /* <CJK Ideograph Extension B, First>, 0 */
    {0x10FFFD, 0}, /* <Plane 16 Private Use, Last>, 0 */
    {0x10FFFF, 0}, /* noncharacter, not in the file */
    {0x110000, 0}, /* not a code point */
    {0xFFFFFFFFu, 0},
};

int main(void)
{
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = wj_is_combining(cases[i].cp) != 0;
        CHECK(got == cases[i].combining);
        if (got != cases[i].combining)
            fprintf(stderr, "  U+%04lX: expected %d, got %d\n",
                    (unsigned long)cases[i].cp, cases[i].combining, got);
    }
    return check_report("test_unicode");
}
