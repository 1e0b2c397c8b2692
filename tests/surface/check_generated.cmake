# SPDX-License-Identifier: MIT
# Makes the lists of tools/functions_gen.c again under OUT and fails, with
# a diff, when a committed file under SRC differs.
#   cmake -DGEN=functions_gen -DSRC=<tree> -DOUT=<dir> -P check_generated.cmake
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${GEN}" "${SRC}" "${OUT}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE files)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "functions_gen failed (${rc})")
endif()
string(REPLACE "\n" ";" files "${files}")
set(stale "")
foreach(f IN LISTS files)
  if(f STREQUAL "")
    continue()
  endif()
  execute_process(COMMAND diff -u "${SRC}/${f}" "${OUT}/${f}"
                  RESULT_VARIABLE differs OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT differs EQUAL 0)
    message("${out}")
    list(APPEND stale "${f}")
  endif()
endforeach()
if(stale)
  message(FATAL_ERROR "Out of date with the table of functions (core/functions.c): "
          "${stale}\nRegenerate them with: cmake --build build --target regenerate-functions")
endif()
