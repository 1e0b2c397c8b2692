#!/bin/sh
# SPDX-License-Identifier: MIT
# run_tsan.sh PROGRAM ARGS... - runs a ThreadSanitizer build.  GCC 12's TSan
# cannot start where the kernel randomises mmap with more bits than it
# expects ("unexpected memory mapping"); then it runs again with address
# randomisation off (setarch -R), and when even that is not allowed (some
# containers forbid it) the test is skipped (exit 77) rather than failed.
# Any race report, wrong result or other failure still fails.
out=$("$@" 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'unexpected memory mapping'; then
    out=$(setarch "$(uname -m)" -R "$@" 2>&1)
    rc=$?
    if [ $rc -ne 0 ] && printf '%s\n' "$out" |
        grep -q 'unexpected memory mapping\|setarch: failed'; then
        printf '%s\n' "$out"
        echo "run_tsan.sh: ThreadSanitizer cannot run on this kernel; skipped"
        exit 77
    fi
fi
printf '%s\n' "$out"
exit $rc
