# perf-import-workload.py - a CPU-bound Python program to profile with perf
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run by python3.11-dbg under perf record for perf-import-compare.py: the
# samples land in the interpreter's C functions (the eval loop, dict and
# long arithmetic, string building), a profile with many functions of
# different weights.  About three seconds.

import sys


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def words(n):
    counts = {}
    for i in range(n):
        w = 'w%d' % (i * 7919 % 1013)
        counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: -kv[1])[:5]


def bignum(n):
    x = 1
    for i in range(1, n):
        x = x * i % (1 << 4000)
    return x.bit_length()


rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 25
for _ in range(rounds):
    fib(20)
    words(60000)
    bignum(6000)
