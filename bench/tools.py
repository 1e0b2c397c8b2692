# SPDX-License-Identifier: MIT
"""Finds (and builds or installs) what the contenders need.

  ext       build/wirejson.so, built from this checkout with CMake (Release)
  wirejq    the build folder's wirejq, when jq-module/ has sources
  node      node plus the pinned canonicalize, installed into bench/node_modules
  jq, openssl   from PATH
A tool that cannot be had is None; its contenders show as "missing".
"""

import os
import shutil
import sqlite3
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_logged(argv, log_file, cwd=None):
    with open(log_file, "a", encoding="utf-8") as log:
        log.write("$ %s\n" % " ".join(argv))
        log.flush()
        return subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, cwd=cwd,
                              check=False).returncode == 0


def build(build_dir, log_file, say):
    """Configures and builds the extension and wirejq; returns what was built."""
    say("building wirejson (Release) in %s ..." % build_dir)
    if not run_logged(["cmake", "-S", ROOT, "-B", build_dir,
                       "-DCMAKE_BUILD_TYPE=Release"], log_file):
        say("  cmake configure failed (see %s)" % log_file)
        return set()
    built = set()
    if run_logged(["cmake", "--build", build_dir, "-j2", "--target", "wirejson_sqlite"],
                  log_file):
        built.add("ext")
    else:
        say("  wirejson_sqlite did not build (see %s)" % log_file)
    has_wirejq = any(n.endswith(".c") for n in os.listdir(os.path.join(ROOT, "jq-module")))
    if has_wirejq:
        if run_logged(["cmake", "--build", build_dir, "-j2", "--target", "wirejq"], log_file):
            built.add("wirejq")
        else:
            say("  wirejq did not build (see %s)" % log_file)
    return built


def node_ready(log_file, say):
    """node on PATH and canonicalize installed from bench/package-lock.json."""
    if not shutil.which("node"):
        return False
    if os.path.exists(os.path.join(HERE, "node_modules", "canonicalize", "package.json")):
        return True
    if not shutil.which("npm"):
        say("  npm missing: node contenders skipped")
        return False
    say("installing canonicalize into bench/node_modules ...")
    ok = run_logged(["npm", "ci", "--no-audit", "--no-fund"], log_file, cwd=HERE)
    if not ok:
        say("  npm ci failed (see %s)" % log_file)
    return ok


def sql_functions(extension):
    """Names of the functions the extension registers, and its version."""
    con = sqlite3.connect(":memory:")
    con.enable_load_extension(True)
    try:
        con.load_extension(extension)
    except sqlite3.Error:
        return set(), None
    names = {r[0] for r in con.execute("SELECT name FROM pragma_function_list")}
    ver = None
    if "wirejson_version" in names:
        ver = con.execute("SELECT wirejson_version()").fetchone()[0]
    return names, ver


def find(build_dir, do_build, log_file, say):
    built = build(build_dir, log_file, say) if do_build else {"ext", "wirejq"}
    tools = {"jq": shutil.which("jq"), "openssl": shutil.which("openssl"),
             "node": node_ready(log_file, say), "ext": None, "wirejq": None,
             "functions": set(), "wirejson_version": None}
    ext = os.path.join(build_dir, "wirejson.so")
    if "ext" in built and os.path.exists(ext):
        tools["functions"], tools["wirejson_version"] = sql_functions(ext)
        if tools["functions"]:
            tools["ext"] = ext
    wirejq = os.path.join(build_dir, "wirejq")
    if "wirejq" in built and os.access(wirejq, os.X_OK):
        tools["wirejq"] = wirejq
    return tools
