# SPDX-License-Identifier: MIT
"""Builds the wirejson Python package (pyproject.toml's setuptools backend):

    pip install .                      from a clone
    python -m build --sdist; pip install dist/wirejson-*.tar.gz
    pip wheel .                        a wheel that installs with no compiler

The C extension wirejson._wirejson compiles python/src/*.c with the core's
sources (core/) where they are, and the SQLite extension (sqlite-ext/ with
the core) is built into the package as wirejson/wirejson.so for
wirejson.sqlite.  Only libcrypto (libssl-dev) and, for the SQLite extension,
sqlite3ext.h (libsqlite3-dev) are needed.  setuptools over the C sources
rather than scikit-build-core over CMake: the core is plain C11 files with
no generated sources, so the build needs no CMake and nothing but
setuptools from the index.
"""

import glob
import os
import re

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
HERE = os.path.join(ROOT, "python")
CORE = os.path.join(ROOT, "core")
KIT = os.path.join(ROOT, "kit")
SQLITE_EXT = os.path.join(ROOT, "sqlite-ext")

if not os.path.exists(os.path.join(CORE, "wirejson.h")):
    raise SystemExit(
        "setup.py: the core sources are not at %s: install from a checkout of "
        "the repository or its sdist" % CORE)


def sources(folder):
    # Relative to the top (where pip runs setup.py), as an sdist wants them.
    return sorted(os.path.relpath(p, ROOT)
                  for p in glob.glob(os.path.join(folder, "*.c")))


def version():
    """The library's version, from the WJ_VERSION_* macros of wirejson.h (as
    the CMake build reads it)."""
    with open(os.path.join(CORE, "wirejson.h"), encoding="utf-8") as f:
        header = f.read()
    return ".".join(
        re.search(r"^#define WJ_VERSION_%s +([0-9]+) *$" % part, header,
                  re.M).group(1) for part in ("MAJOR", "MINOR", "PATCH"))


# The SQLite extension is named for SQLite, not for Python: wirejson.so, from
# which SQLite derives its entry point sqlite3_wirejson_init.
SQLITE_NAME = "wirejson.wirejson"


class BuildExt(build_ext):
    def finalize_options(self):
        # Compile on every core (the sources are many small files).
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1
        super().finalize_options()

    def get_ext_filename(self, ext_name):
        # Called with the full name, or (building into build/lib) with its
        # last part only.
        if ext_name == SQLITE_NAME:
            return os.path.join("wirejson", "wirejson.so")
        if ext_name == SQLITE_NAME.rsplit(".", 1)[1]:
            return "wirejson.so"
        return super().get_ext_filename(ext_name)

    def get_export_symbols(self, ext):
        return [] if ext.name == SQLITE_NAME else super().get_export_symbols(ext)


C_FLAGS = ["-std=c11", "-fvisibility=hidden"]

extensions = [
    Extension(
        "wirejson._wirejson",
        sources=sources(os.path.join(HERE, "src")) + sources(CORE) + sources(KIT),
        include_dirs=[CORE, KIT],
        libraries=["crypto"],
        extra_compile_args=C_FLAGS,
    ),
]
if os.path.exists("/usr/include/sqlite3ext.h") or os.environ.get(
        "WIREJSON_SQLITE_EXT", "") == "1":
    extensions.append(Extension(
        SQLITE_NAME,
        sources=sources(SQLITE_EXT) + sources(CORE) + sources(KIT),
        include_dirs=[CORE, KIT, SQLITE_EXT],
        libraries=["crypto"],
        extra_compile_args=C_FLAGS,
    ))

setup(
    version=version(),
    packages=["wirejson"],
    package_dir={"wirejson": "python/wirejson"},
    package_data={"wirejson": ["py.typed", "*.pyi"]},
    ext_modules=extensions,
    cmdclass={"build_ext": BuildExt},
    zip_safe=False,
)
