#!/usr/bin/env python3
# hostile-deep.py - a call stack 100 000 frames deep through every command
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A capture's stacks are as deep as whoever wrote the file made them
# (parent_id < id is all the reader requires), and folded stacks mailed
# around are as deep as their lines are long. Every command must walk
# such a stack with loops, not recursion as deep as the stack, and in
# time that grows with the size of the file, not its square. Each
# command runs here with a 1 MiB C stack, an eighth of the usual: a walk
# that recurses once per frame then crashes at 100 000 frames, where with
# 8 MiB it would crash only at 400 000 or so. Two stacks: 100 000
# different functions, and one function recursing 100 000 times.
#
# usage: hostile-deep.py HOTPATH-CLI

import os
import resource
import subprocess
import sys
import tempfile
import time

DEPTH = 100000
STACK_BYTES = 1024 * 1024
TIMEOUT = 300


def limit():
    resource.setrlimit(resource.RLIMIT_STACK, (STACK_BYTES, STACK_BYTES))


def run(cli, *args):
    t0 = time.monotonic()
    try:
        res = subprocess.run([cli, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             preexec_fn=limit, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "did not finish in %d s" % TIMEOUT
    if res.returncode < 0:
        return "killed by signal %d" % -res.returncode
    if res.returncode != 0:
        return "exit %d: %s" % (res.returncode, res.stderr.decode(errors="replace").strip())
    print("ok: hotpath-cli %s (%.1f s)" % (" ".join(args), time.monotonic() - t0))
    return None


def main():
    cli = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="hostile-deep-") as tmp:
        folded = os.path.join(tmp, "deep.folded")
        with open(folded, "w") as f:
            f.write("main;" + ";".join("f%d" % i for i in range(DEPTH)) + " 5\n")
            f.write("main;" + ";".join(["recurse"] * DEPTH) + " 3\n")
        cap = os.path.join(tmp, "deep.hotpath")
        subprocess.run([cli, "import", folded, "-o", cap], check=True, stdout=subprocess.DEVNULL)

        commands = [
            ["report", cap],
            ["report", cap, "--format", "json"],
            ["report", cap, "--merge-recursion"],
            ["report", cap, "--tree", "--threshold", "0"],
            ["report", cap, "--tree", "--threshold", "0", "--format", "json"],
            ["report", cap, "--tree", "--threshold", "0", "--merge-recursion"],
            ["report", cap, "--callers", "f99999"],
            ["report", cap, "--callees", "main"],
            ["flamegraph", cap, "-o", "-"],
            ["flamegraph", cap, "-o", "-", "--reverse"],
            ["export", cap, "--format", "folded", "-o", "-"],
            ["export", cap, "--format", "speedscope", "-o", "-"],
            ["export", cap, "--format", "firefox", "-o", "-"],
            ["export", cap, "--format", "pprof", "-o", os.path.join(tmp, "deep.pb.gz")],
            ["diff", cap, cap],
            ["summary", cap, "main;f0", "--set", "The way down."],
            ["summary", cap, "--format", "json"],
        ]
        failed = []
        for args in commands:
            why = run(cli, *args)
            if why is not None:
                failed.append("hotpath-cli %s: %s" % (" ".join(args), why))
        if failed:
            sys.exit("FAIL:\n" + "\n".join(failed))
    print("ok: %d commands walk a stack %d frames deep" % (len(commands), DEPTH))


if __name__ == "__main__":
    main()
