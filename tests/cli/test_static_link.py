#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Where the static archives of libcrypto and zlib are installed, the
command line needs neither as a shared library (cli/CMakeLists.txt: a
short run would spend milliseconds loading and relocating libcrypto).

usage: test_static_link.py build/wirejson

Reads the DT_NEEDED entries of the binary's dynamic section (ELF64, little
endian) and fails on any libcrypto or libz among them.
"""

import struct
import sys

DT_NEEDED, DT_STRTAB, SHT_DYNAMIC = 1, 5, 6


def needed(path):
    with open(path, "rb") as f:
        elf = f.read()
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        sys.exit(f"{path}: not a little-endian ELF64 file")
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + k * shentsize)
                for k in range(shnum)]
    for sh in sections:
        if sh[1] != SHT_DYNAMIC:
            continue
        strtab = sections[sh[6]]  # sh_link: the dynamic string table
        names = []
        for at in range(sh[4], sh[4] + sh[5], 16):
            tag, value = struct.unpack_from("<qQ", elf, at)
            if tag == DT_NEEDED:
                start = strtab[4] + value
                names.append(elf[start:elf.index(b"\0", start)].decode())
        return names
    return []


libs = needed(sys.argv[1])
print("needed:", " ".join(libs))
bad = [n for n in libs if n.startswith(("libcrypto", "libz."))]
if bad or "libc.so.6" not in libs:
    print("FAIL", bad or "no libc.so.6 found: the dynamic section misread")
    sys.exit(1)
