# SPDX-License-Identifier: MIT
# The fuzz targets: fuzz/<name>.c with its seed corpus in fuzz/corpus/<name>/.
# Read by fuzz/CMakeLists.txt (libFuzzer builds) and tests/hardening (replay).
set(WIREJSON_FUZZ_TARGETS
    fuzz_parse
    fuzz_wire
    fuzz_wire_sorted
    fuzz_canonical
    fuzz_digest
    fuzz_with_top_level
    fuzz_tool_schemas
    fuzz_encode_with_schemas
    fuzz_writer
    fuzz_canonical_writer
    fuzz_records
    fuzz_sha256_multi)
set(WIREJSON_FUZZ_HELPERS
    ${CMAKE_CURRENT_LIST_DIR}/fuzz_util.c
    ${CMAKE_CURRENT_LIST_DIR}/fuzz_value.c
    ${CMAKE_CURRENT_LIST_DIR}/fuzz_rendering.c)
# Sources a target needs beyond the helpers and the core: <target>_SOURCES.
set(fuzz_records_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/../cli/records.c
    ${CMAKE_CURRENT_LIST_DIR}/../cli/util.c
    ${CMAKE_CURRENT_LIST_DIR}/../cli/progress.c
    ${CMAKE_CURRENT_LIST_DIR}/../kit/buf.c
    ${CMAKE_CURRENT_LIST_DIR}/../kit/memory.c)
set(fuzz_records_INCLUDES ${CMAKE_CURRENT_LIST_DIR}/../cli
    ${CMAKE_CURRENT_LIST_DIR}/../kit)
set(fuzz_records_DEFINITIONS _XOPEN_SOURCE=700) # as the command line's
