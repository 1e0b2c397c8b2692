# SPDX-License-Identifier: MIT
"""The machine line of the results: cores, CPU, SHA extensions, versions."""

import os
import platform
import sqlite3
import subprocess


def cpu_info():
    model, flags = platform.processor() or "unknown CPU", set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name":
                    model = value.strip()
                elif key in ("flags", "Features") and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    return model, flags


def version(argv):
    try:
        res = subprocess.run(argv, capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "missing"
    text = (res.stdout or res.stderr).strip().splitlines()
    return text[0] if text else "missing"


def describe(tools):
    model, flags = cpu_info()
    sha = [f for f in ("sha_ni", "sha2", "sha256") if f in flags]
    avx = [f for f in ("avx2", "avx512f") if f in flags]
    return {
        "cores": os.cpu_count(),
        "cpu": model,
        "sha": ("yes (%s)" % ", ".join(sha)) if sha else "no",
        "simd": ", ".join(avx) or "none of avx2/avx512f",
        "kernel": platform.release(),
        "sqlite": sqlite3.sqlite_version,
        "python": platform.python_version(),
        "jq": version(["jq", "--version"]) if tools.get("jq") else "jq missing",
        "node": version(["node", "--version"]) if tools.get("node") else "missing",
        "openssl": (version([tools["openssl"], "version"]) if tools.get("openssl")
                    else "OpenSSL missing"),
        "wirejson": tools.get("wirejson_version") or "missing",
    }


def line(info):
    return ("%(cores)s cores, %(cpu)s, SHA extensions: %(sha)s, SIMD: %(simd)s; "
            "Linux %(kernel)s; SQLite %(sqlite)s, Python %(python)s, %(jq)s, "
            "Node %(node)s, %(openssl)s; wirejson %(wirejson)s" % info)
