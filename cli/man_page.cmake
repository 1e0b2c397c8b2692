# SPDX-License-Identifier: MIT
# Writes wirejson.1 from wirejson.1.in: the version, and the function list
# as `BIN --help` prints it (made from the core's table of functions).
execute_process(COMMAND ${BIN} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${BIN} --help failed")
endif()
string(REGEX REPLACE ".*\nFunctions:\n" "" list "${help}")
string(REGEX REPLACE "\n\nOptions:.*" "" list "${list}")
string(REPLACE "\\" "\\e" list "${list}")
string(REGEX REPLACE "(^|\n)  ([a-z_]+\\([^\n]*\\))\n      " "\\1.TP\n.B \\2\n" list "${list}")
set(WIREJSON_FUNCTION_LIST "${list}")
configure_file(${IN} ${OUT} @ONLY)
