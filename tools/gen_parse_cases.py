#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the parser conformance cases, tests/data/parse/*.json (docs/contract.md §3).

Every case is spelled below as exact bytes, so the files that are not valid
UTF-8 on purpose can be reviewed here.  y_<what>.json must be accepted,
n_<what>.json rejected; n_<what>@<offset>.json must be rejected at that
0-based byte offset.  The offset rules (tests/data/parse/README.md): an error
is at the first byte that cannot continue a valid document; invalid UTF-8 at
the first byte of the ill-formed sequence; a bad escape at its backslash; a
duplicate name at the opening quote of its later spelling; too deep at the
bracket that makes depth 1001; an unexpected end at the input length.

Usage: python3 tools/gen_parse_cases.py [--out DIR]
Rewrites every case and removes *.json files in DIR that are no longer cases.
"""

import argparse
import os
import re
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(REPO_ROOT, "tests", "data", "parse")
MAX_DEPTH = 1000

CASES = []  # (file name without .json, bytes)


def y(what, data):
    CASES.append(("y_" + what, data))


def n(what, data, offset=None):
    """A must-reject case; offset given only where the rules fix it."""
    name = "n_" + what if offset is None else f"n_{what}@{offset}"
    CASES.append((name, data))


# ------------------------------------------------------------------ literals
y("literal_true", b"true")
y("literal_false", b"false")
y("literal_null", b"null")
y("literals_in_array", b"[true,false,null]")
n("literal_True", b"True", 0)
n("literal_NULL", b"NULL", 0)
n("literal_tru", b"tru", 3)
n("literal_nul_in_array", b"[nul]", 4)
n("literal_nulL", b"nulL", 3)
n("literal_truex", b"truex", 4)
n("literal_fals_e", b"fals e", 4)
n("literal_undefined", b"undefined", 0)
n("literal_none", b"[None]", 1)

# ------------------------------------------------------------------- numbers
y("number_zero", b"0")
y("number_negative_zero", b"-0")
y("number_int", b"123")
y("number_negative_int", b"-123")
y("number_fraction", b"1.5")
y("number_zero_fraction", b"0.5")
y("number_negative_fraction", b"-0.25")
y("number_trailing_zeros", b"1.000")
y("number_exp_lower", b"1e5")
y("number_exp_upper", b"1E5")
y("number_exp_plus", b"1e+5")
y("number_exp_minus", b"1E-5")
y("number_exp_leading_zeros", b"1e007")
y("number_zero_exp", b"0e0")
y("number_negative_zero_exp", b"-0E+0")
y("number_fraction_exp", b"-1.25E-3")
y("number_huge_exponent", b"1e999999999999")
y("number_huge_negative_exponent", b"-1.5e-999999999999")
y("number_huge_exponent_long", b"[1E+" + b"9" * 60 + b"]")
y("number_40_digits", b"1234567890123456789012345678901234567890")
y("number_long_fraction", b"0." + b"3" * 50)
y("number_tiny", b"4.9e-324")
y("number_in_array", b"[0,-0,1.5e3,-7]")
y("number_with_whitespace", b" 1 ")

n("number_leading_zero", b"01", 1)
n("number_leading_zeros", b"00", 1)
n("number_negative_leading_zero", b"-01", 2)
n("number_leading_zero_fraction", b"01.5", 1)
n("number_leading_zero_in_array", b"[01]", 2)
n("number_plus", b"+1", 0)
n("number_plus_in_array", b"[+1]", 1)
n("number_dot_start", b".5", 0)
n("number_minus_dot", b"-.5", 1)
n("number_dot_end", b"1.", 2)
n("number_dot_end_in_array", b"[1.]", 3)
n("number_dot_exp", b"1.e5", 2)
n("number_leading_zero_dot_exp", b"0.e1", 2)
n("number_double_dot", b"1..5", 2)
n("number_two_fractions", b"1.5.3", 3)
n("number_exp_empty", b"1e", 2)
n("number_exp_empty_in_array", b"[1E]", 3)
n("number_exp_plus_empty", b"1e+", 3)
n("number_exp_minus_empty_in_array", b"[1e-]", 4)
n("number_exp_two_signs", b"1e+-5", 3)
n("number_exp_fraction", b"1e5.5", 3)
n("number_minus", b"-", 1)
n("number_minus_in_array", b"[-]", 2)
n("number_minus_minus", b"--1", 1)
n("number_minus_space", b"- 1", 1)
n("number_hex", b"0x10", 1)
n("number_NaN", b"NaN", 0)
n("number_NaN_in_array", b"[NaN]", 1)
n("number_negative_NaN", b"-NaN", 1)
n("number_Infinity", b"Infinity", 0)
n("number_negative_Infinity", b"-Infinity", 1)
n("number_plus_Infinity", b"+Infinity", 0)
n("number_decimal_comma", b"1,5", 1)
n("number_space_inside", b"1 2", 2)
n("number_fullwidth_digit", b"\xef\xbc\x91", 0)
n("number_exp_only", b"e5", 0)
n("number_letter_after", b"[1a]", 2)

# ------------------------------------------------------------------- strings
y("string_empty", b'""')
y("string_ascii", b'"abc"')
y("string_escapes_all", b'"\\"\\\\\\/\\b\\f\\n\\r\\t"')
y("string_escaped_backslash_then_u", b'"\\\\u12"')
y("string_u_lower_hex", b'"\\u00e9\\uabcd"')
y("string_u_upper_hex", b'"\\u00E9\\uABCD"')
y("string_u_mixed_case_hex", b'"\\uAbCd"')
y("string_u_nul", b'"\\u0000"')
y("string_u_ffff", b'"\\uFFFF"')
y("string_u_escaped_quote", b'"\\u0022"')
y("string_surrogate_pair_lower", b'"\\ud83d\\ude00"')
y("string_surrogate_pair_upper", b'"\\uD834\\uDD1E"')
y("string_surrogate_pair_max", b'"\\uDBFF\\uDFFF"')
y("string_lone_high_surrogate", b'"\\ud800"')
y("string_lone_low_surrogate", b'"\\udc00"')
y("string_lone_high_surrogate_then_text", b'"\\ud800abc"')
y("string_lone_low_surrogate_at_end", b'"a\\uDFFF"')
y("string_reversed_surrogate_pair", b'"\\udc00\\ud800"')
y("string_two_high_surrogates", b'"\\ud800\\ud800"')
y("string_high_surrogate_then_bmp_escape", b'"\\ud800\\u0041"')
y("string_lone_surrogate_as_name", b'{"\\ud800":1}')
y("string_del_raw", b'"\x7f"')
y("string_slash_raw", b'"/"')
y("string_utf8_2byte", b'"\xc3\xa9"')
y("string_utf8_3byte", b'"\xe2\x82\xac"')
y("string_utf8_4byte", b'"\xf0\x9f\x98\x80"')
y("string_utf8_smallest_each_length",
  b'"\xc2\x80\xe0\xa0\x80\xf0\x90\x80\x80"')
y("string_utf8_largest_each_length",
  b'"\xdf\xbf\xef\xbf\xbf\xf4\x8f\xbf\xbf"')
y("string_utf8_around_surrogates", b'"\xed\x9f\xbf\xee\x80\x80"')
y("string_utf8_nbsp_inside", b'"\xc2\xa0"')
y("string_utf8_bom_inside", b'"\xef\xbb\xbf"')
y("string_utf8_line_separator", b'"\xe2\x80\xa8\xe2\x80\xa9"')
y("string_utf8_noncharacters", b'"\xef\xb7\x90\xef\xbf\xbe"')
y("string_combining_after_escape", b'"\\n\xcc\x81"')
y("string_in_object", b'{"k\xc3\xa9y":"v\xe2\x82\xacl"}')

n("string_escape_x", b'"\\x41"', 1)
n("string_escape_a", b'"\\a"', 1)
n("string_escape_U", b'"\\U0041"', 1)
n("string_escape_u_short", b'"\\u12"', 1)
n("string_escape_u_bad_hex", b'"\\u12G4"', 1)
n("string_escape_u_no_digits", b'"\\u"', 1)
n("string_escape_u_minus", b'"\\u-123"', 1)
n("string_escape_zero", b'"\\0"', 1)
n("string_escape_space", b'"\\ "', 1)
n("string_escape_single_quote", b'"\\\'"', 1)
n("string_escape_N", b'"\\N"', 1)
n("string_escape_non_ascii", b'"\\\xc3\xa9"', 1)
n("string_escape_after_text", b'"abc\\q"', 4)
n("string_escape_bad_after_surrogate", b'"\\ud800\\uZZZZ"', 7)
n("string_escape_bad_in_name", b'{"\\x":1}', 2)
n("string_escape_u_truncated", b'"\\u12')
n("string_backslash_at_end", b'"\\')
n("string_unclosed", b'"abc', 4)
n("string_unclosed_in_array", b'["a', 3)
n("string_lone_quote", b'"', 1)
n("string_single_quotes", b"'abc'", 0)
n("string_single_quotes_in_array", b"['a']", 1)
for c in range(0x20):
    n(f"string_control_{c:02x}", b'"' + bytes([c]) + b'"', 1)
n("string_control_1f_after_text", b'"ab\x1fcd"', 3)
n("string_control_0a_in_name", b'{"a\n":1}', 3)
n("string_control_00_after_escape", b'"\\n\x00"', 3)

# --------------------------------------------------------------------- UTF-8
# Inside strings (the quote is byte 0, so the sequence starts at 1).
n("utf8_overlong_2byte_c0_80", b'"\xc0\x80"', 1)
n("utf8_overlong_2byte_c1_bf", b'"\xc1\xbf"', 1)
n("utf8_overlong_2byte_quote", b'"\xc0\xa2"', 1)
n("utf8_overlong_3byte_nul", b'"\xe0\x80\x80"', 1)
n("utf8_overlong_3byte_07ff", b'"\xe0\x9f\xbf"', 1)
n("utf8_overlong_4byte_nul", b'"\xf0\x80\x80\x80"', 1)
n("utf8_overlong_4byte_ffff", b'"\xf0\x8f\xbf\xbf"', 1)
n("utf8_surrogate_d800", b'"\xed\xa0\x80"', 1)
n("utf8_surrogate_dfff", b'"\xed\xbf\xbf"', 1)
n("utf8_surrogate_pair_encoded", b'"\xed\xa0\xbd\xed\xb8\x80"', 1)
n("utf8_above_10ffff", b'"\xf4\x90\x80\x80"', 1)
for lead in range(0xF5, 0x100):
    n(f"utf8_lead_{lead:02x}", b'"' + bytes([lead]) + b'\x80\x80\x80"', 1)
n("utf8_5byte_form", b'"\xf8\x88\x80\x80\x80"', 1)
n("utf8_6byte_form", b'"\xfc\x84\x80\x80\x80\x80"', 1)
n("utf8_stray_continuation_80", b'"\x80"', 1)
n("utf8_stray_continuation_bf", b'"a\xbf"', 2)
n("utf8_extra_continuation", b'"\xc3\xa9\x80"', 3)
n("utf8_truncated_2byte_middle", b'"\xc3"', 1)
n("utf8_truncated_3byte_middle", b'"\xe2\x82"', 1)
n("utf8_truncated_4byte_middle", b'"\xf0\x9f\x98a"', 1)
n("utf8_truncated_then_valid", b'"\xe2\xc3\xa9"', 1)
n("utf8_bad_second_byte", b'"\xe2\x28\xa1"', 1)
n("utf8_bad_third_byte", b'"\xe2\x82\x28"', 1)
n("utf8_bad_fourth_byte", b'"\xf0\x9f\x98\x28"', 1)
n("utf8_invalid_after_text", b'"abc\xff"', 4)
n("utf8_invalid_in_name", b'{"\xff":1}', 2)
# Truncated at the very end of the input, inside an unclosed string: the
# end-of-input and the UTF-8 rules name different offsets, so none is given.
n("utf8_truncated_2byte_at_end", b'"\xc3')
n("utf8_truncated_3byte_at_end", b'"\xe2\x82')
n("utf8_truncated_4byte_at_end", b'"\xf0\x9f\x98')
# Outside strings no byte above 0x7F can continue a document.
n("utf8_invalid_outside", b"[\xff]", 1)
n("utf8_invalid_alone", b"\xff", 0)
n("utf8_continuation_alone", b"\x80", 0)
n("utf8_invalid_after_value", b"1\xfe", 1)
n("utf8_valid_outside_string", b"[\xc3\xa9]", 1)
n("utf8_truncated_outside", b"[\xe2\x82]", 1)
n("utf8_truncated_outside_at_end", b"[\xe2\x82")
n("utf8_overlong_bracket_outside", b"\xc1\x9b]", 0)

# ---------------------------------------------------------------- whitespace
y("ws_all_four", b" \t\n\r[ \t\n\r1 \t\n\r, \t\n\r{ \t\n\r\"a\" \t\n\r: \t\n\r"
  b"null \t\n\r} \t\n\r] \t\n\r")
y("ws_trailing_newline", b"{}\n")
y("ws_crlf", b"[\r\n1\r\n]\r\n")
n("ws_form_feed", b"\x0c1", 0)
n("ws_form_feed_in_array", b"[\x0c]", 1)
n("ws_form_feed_trailing", b"1\x0c", 1)
n("ws_vertical_tab", b"[\x0b1]", 1)
n("ws_nbsp", b"[\xc2\xa01]", 1)
n("ws_nbsp_leading", b"\xc2\xa01", 0)
n("ws_nbsp_trailing", b"1\xc2\xa0", 1)
n("ws_feff_inside", b"[\xef\xbb\xbf1]", 1)
n("ws_line_separator", b"[\xe2\x80\xa81]", 1)
n("ws_nul_trailing", b"1\x00", 1)
n("bom_utf8", b"\xef\xbb\xbf1", 0)
n("bom_utf8_object", b'\xef\xbb\xbf{"a":1}', 0)
n("bom_utf8_only", b"\xef\xbb\xbf", 0)
n("bom_utf8_after_space", b" \xef\xbb\xbf[]", 1)
n("bom_utf16_be", b"\xfe\xff\x001", 0)

# ----------------------------------------------------------------- structure
y("array_empty", b"[]")
y("object_empty", b"{}")
y("array_nested_empty", b"[[],[[]],{}]")
y("object_empty_name", b'{"":0}')
y("object_nested_mixed", b'{"a":[1,{"b":null}],"c":{},"d":"e"}')
y("object_many_members", b'{"a":1,"b":[],"c":{},"d":"x","e":true,"f":null}')
y("string_top_level", b'"top"')

n("structure_empty", b"", 0)
n("structure_only_whitespace", b" \t\n\r", 4)
n("structure_nul_byte", b"\x00", 0)
n("structure_control_outside", b"[\x01]", 1)
n("array_trailing_comma", b"[1,]", 3)
n("array_trailing_comma_nested", b"[[1],]", 5)
n("object_trailing_comma", b'{"a":1,}', 7)
n("array_leading_comma", b"[,1]", 1)
n("array_only_comma", b"[,]", 1)
n("array_double_comma", b"[1,,2]", 3)
n("object_leading_comma", b'{,"a":1}', 1)
n("array_missing_comma", b"[1 2]", 3)
n("array_missing_comma_strings", b'["a""b"]', 4)
n("object_missing_comma", b'{"a":1"b":2}', 6)
n("object_missing_colon", b'{"a" 1}', 5)
n("object_missing_value", b'{"a":}', 5)
n("object_name_only", b'{"a"}', 4)
n("object_comma_for_colon", b'{"a",1}', 4)
n("object_double_colon", b'{"a"::1}', 5)
n("array_colon", b'["a":1]', 4)
n("array_unclosed", b"[1", 2)
n("array_unclosed_empty", b"[", 1)
n("array_unclosed_after_comma", b"[1,", 3)
n("array_unclosed_nested", b"[[[]]", 5)
n("object_unclosed", b'{"a":1', 6)
n("object_unclosed_empty", b"{", 1)
n("object_unclosed_after_colon", b'{"a":', 5)
n("object_unclosed_after_name", b'{"a"', 4)
n("object_unclosed_name", b'{"a', 3)
n("structure_extra_close_bracket", b"[1]]", 3)
n("structure_extra_close_brace", b"{}}", 2)
n("structure_close_only", b"]", 0)
n("structure_mismatched_close", b"[1}", 2)
n("structure_mismatched_close_object", b'{"a":1]', 6)
n("structure_trailing_garbage", b"[1]x", 3)
n("structure_trailing_garbage_after_space", b"1 x", 2)
n("structure_trailing_garbage_after_string", b'"a"b', 3)
n("structure_two_values", b"1 2", 2)
n("structure_two_arrays", b"[] []", 3)
n("structure_two_objects", b"{}{}", 2)
n("structure_value_then_comma", b"1,", 1)
n("comment_line", b"// c\n1", 0)
n("comment_line_trailing", b"1 // c", 2)
n("comment_block", b"/* c */ 1", 0)
n("comment_block_in_array", b"[1/*c*/]", 2)
n("comment_block_in_object", b'{"a":1 /* c */}', 7)
n("comment_hash", b"# c\n1", 0)
n("object_single_quoted_name", b"{'a':1}", 1)
n("object_unquoted_name", b"{a:1}", 1)
n("object_number_name", b"{1:1}", 1)
n("object_null_name", b"{null:1}", 1)
n("object_true_name", b"{true:1}", 1)
n("object_array_name", b"{[]:1}", 1)
n("object_object_name", b"{{}:1}", 1)

# ---------------------------------------------------------------- duplicates
y("object_same_name_in_siblings", b'[{"a":1},{"a":2}]')
y("object_same_name_nested", b'{"a":{"a":{"a":1}}}')
y("object_names_differ_in_case", b'{"a":1,"A":2}')
y("object_name_prefix_of_other", b'{"a":1,"ab":2}')
y("object_empty_name_and_nul", b'{"":1,"\\u0000":2}')
y("object_precomposed_and_decomposed", b'{"\xc3\xa9":1,"e\\u0301":2}')
y("object_lone_surrogate_and_pair", b'{"\\ud83d":1,"\\ud83d\\ude00":2}')
n("object_duplicate", b'{"a":1,"a":2}', 7)
n("object_duplicate_escaped_second", b'{"a":1,"\\u0061":2}', 7)
n("object_duplicate_escaped_first", b'{"\\u0061":1,"a":2}', 12)
n("object_duplicate_escaped_slash", b'{"/":1,"\\/":2}', 7)
n("object_duplicate_pair_and_raw",
  b'{"\xf0\x9f\x98\x80":1,"\\ud83d\\ude00":2}', 10)
n("object_duplicate_lone_surrogate_case", b'{"\\ud800":1,"\\uD800":2}', 12)
n("object_duplicate_empty_name", b'{"":1,"":2}', 6)
n("object_duplicate_nonadjacent", b'{"a":1,"b":2,"a":3}', 13)
n("object_duplicate_at_depth", b'[{"x":{"a":1,"a":2}}]', 13)
n("object_two_duplicates", b'{"a":1,"b":2,"b":3,"a":4}', 13)

# --------------------------------------------------------------------- depth
y("depth_1000_arrays", b"[" * MAX_DEPTH + b"]" * MAX_DEPTH)
y("depth_1000_arrays_scalar", b"[" * MAX_DEPTH + b"1" + b"]" * MAX_DEPTH)
y("depth_1000_objects",
  b'{"a":' * (MAX_DEPTH - 1) + b"{}" + b"}" * (MAX_DEPTH - 1))
y("depth_1000_mixed_scalar",
  b'{"a":[' * (MAX_DEPTH // 2) + b"null" + b"]}" * (MAX_DEPTH // 2))
y("depth_1000_twice",
  b"[" * (MAX_DEPTH - 1) + b"[],[]" + b"]" * (MAX_DEPTH - 1))
# The opening bracket that makes depth 1001 is at offset 1000 (arrays),
# 5 * 1000 (objects, '{"a":' each) and 6 * 500 (pairs of '{"a":' and '[').
n("depth_1001_arrays", b"[" * 1001 + b"]" * 1001, 1000)
n("depth_1001_arrays_scalar", b"[" * 1001 + b"1" + b"]" * 1001, 1000)
n("depth_1001_objects", b'{"a":' * 1000 + b"{}" + b"}" * 1000, 5000)
n("depth_1001_mixed", b'{"a":[' * 500 + b"{}" + b"]}" * 500, 3000)
n("depth_1001_unclosed", b"[" * 1001, 1000)
n("depth_1001_after_sibling",
  b"[" * 999 + b"[],[[]]" + b"]" * 999, 1003)
n("depth_10000_arrays", b"[" * 10000 + b"]" * 10000, 1000)


def check_cases():
    names = set()
    for name, data in CASES:
        m = re.fullmatch(r"([yn])_[A-Za-z0-9_]+(?:@(\d+))?", name)
        if not m or name in names:
            sys.exit(f"gen_parse_cases: bad or repeated name {name!r}")
        if m.group(2) is not None and int(m.group(2)) > len(data):
            sys.exit(f"gen_parse_cases: {name}: offset past the end")
        names.add(name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT,
                    help="folder to write (default tests/data/parse)")
    args = ap.parse_args()
    check_cases()
    os.makedirs(args.out, exist_ok=True)
    wanted = {name + ".json" for name, _ in CASES}
    for old in os.listdir(args.out):
        if old.endswith(".json") and old not in wanted:
            os.remove(os.path.join(args.out, old))
    for name, data in CASES:
        with open(os.path.join(args.out, name + ".json"), "wb") as f:
            f.write(data)
    print(f"gen_parse_cases: {len(CASES)} cases in {args.out}")


if __name__ == "__main__":
    main()
