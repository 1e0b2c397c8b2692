# SPDX-License-Identifier: MIT
# Turns wirejson.jq into a C source holding its definitions as one line:
# comment lines dropped, the other lines joined by spaces.  wirejq splices
# that line into programs, so it must add no newline to them.
#   cmake -DIN=wirejson.jq -DOUT=wirejson_jq.c -P embed_module.cmake
file(READ "${IN}" text)
string(REGEX REPLACE "\r" "" text "\n${text}")
string(REGEX REPLACE "\n[ \t]*#[^\n]*" "" text "${text}")
string(REGEX REPLACE "\n+" " " text "${text}")
string(STRIP "${text}" text)
string(REPLACE "\\" "\\\\" text "${text}")
string(REPLACE "\"" "\\\"" text "${text}")
file(WRITE "${OUT}"
"/* Generated from jq-module/wirejson.jq by embed_module.cmake; do not edit. */
#include \"module_text.h\"

const char wirejq_module_text[] =
    \"${text} \";
")
