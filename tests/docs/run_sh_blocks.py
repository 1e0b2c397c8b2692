#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the ```sh blocks of the given pages as a reader would paste them
(shell_blocks.run_sh), each page in a fresh folder laid out like the top of
a clone after the build, its blocks in order.  `build/` holds this build's
wirejson and wirejq; python3 is the interpreter running this script, with
the build's Python module on PYTHONPATH when the build has one.

usage: run_sh_blocks.py SOURCE_DIR BUILD_DIR PAGE.md...
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from blocks import read_blocks  # noqa: E402
from shell_blocks import page_folder, run_sh, write_file  # noqa: E402


def environment(build):
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    python_dir = os.path.join(build, "python")
    if os.path.isdir(python_dir):
        env["PYTHONPATH"] = python_dir + os.pathsep + env.get("PYTHONPATH", "")
    return env


def main(argv):
    source, build = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    env = environment(build)
    passed = failed = 0
    for page in argv[3:]:
        folder = page_folder(source, build)
        try:
            for block in read_blocks(page):
                if "file" in block.attrs:
                    write_file(block, folder)
                    continue
                if block.tag != "sh" or block.not_run:
                    continue
                err = run_sh(block, folder, env)
                if err:
                    failed += 1
                    print(f"{block.where()}: {err}")
                else:
                    passed += 1
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    print(f"sh doc blocks: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
