#!/usr/bin/env python3
# hostile-size.py - a file of many gigabytes is refused without being read into memory
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Files are mailed around, and a sparse file costs nothing to make: 4 GiB
# of it named .folded, .pb.gz or perf.data. Each import must say what is
# wrong with it (the folded stacks' second line is NUL bytes, the pprof
# profile is bigger than any profile may be, the perf.data record has
# size 0) from the first bytes it reads, without holding the file in
# memory: each runs with its address space limited to 1 GiB (the
# perf.data, which is mapped, not read, with its resident memory under
# 256 MiB instead). Before, the
# folded and pprof imports read the whole file first (8 GB of a sparse
# file took 8 GB of memory and minutes before the error).
#
# usage: hostile-size.py HOTPATH-CLI

import os
import resource
import struct
import subprocess
import sys
import tempfile
import time

SIZE = 4 << 30
LIMIT = 1 << 30
TIMEOUT = 120


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def run(cmd, limited):
    """exit status, stderr and the largest resident size in KiB of @cmd"""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=limit if limited else None)
        deadline = time.monotonic() + TIMEOUT
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid != 0:
                break
            if time.monotonic() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                return None, "", usage.ru_maxrss
            time.sleep(0.05)
        err.seek(0)
        return os.waitstatus_to_exitcode(status), err.read().decode(errors="replace").strip(), usage.ru_maxrss


def sparse(path, head):
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(SIZE)


def perf_data_head():
    # a PERFILE2 header whose data section is the whole file after it, and
    # one attribute (cpu-clock) of 64 bytes plus its empty ids section
    attr = struct.pack("<IIQQQQQ", 1, 64, 0, 4000, 0x107, 0, 0) + b"\0" * 16
    attr += struct.pack("<QQ", 0, 0)
    header = struct.pack("<8sQQQQQQQQ", b"PERFILE2", 104, len(attr), 104, len(attr),
                         104 + len(attr), SIZE - 104 - len(attr), 0, 0) + b"\0" * 32
    return header + attr


def main():
    cli = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        cases = [
            ("stacks.folded", b"main;work 10\n", "stacks.folded:2: a NUL byte"),
            ("profile.pb.gz", b"\x1f\x8b\x08\x00", "4096 MiB, more than the 1024 MiB a pprof profile may take"),
            ("perf.data", perf_data_head(), "corrupted record at offset"),
        ]
        for name, head, expect in cases:
            path = os.path.join(tmp, name)
            sparse(path, head)
            t0 = time.monotonic()
            code, err, rss = run([cli, "import", path, "-o", os.path.join(tmp, "out.hotpath")],
                                 name != "perf.data")
            took = time.monotonic() - t0
            print("%s: exit %s in %.2f s, %d MiB resident: %s" % (name, code, took, rss >> 10, err))
            if code is None:
                failures.append("%s: did not finish in %d s" % (name, TIMEOUT))
            elif code != 1 or expect not in err or path not in err:
                failures.append("%s: expected exit 1 and an error naming the file and saying '%s'" % (name, expect))
            elif rss > 256 << 10:
                failures.append("%s: %d MiB resident" % (name, rss >> 10))
            os.unlink(path)
    if failures:
        sys.exit("FAIL:\n  " + "\n  ".join(failures))
    print("PASS")


main()
