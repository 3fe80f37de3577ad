#!/usr/bin/env python3
# record-overhead.py - what recording costs: Hotpath against perf record -g
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A benchmark, not a test (docs/ARCHITECTURE.md: speed is measured, never asserted by
# a timed test).  For one workload (tests/workloads/paths-fp by default) it
# times, N times each:
#   plain     the program alone
#   hotpath   hotpath-cli record -F 999 --call-graph fp -o X -- program
#   perf      perf record -F 999 -g -o X -- program
# and prints the median wall time of each, the slowdown of each recorder
# against the plain run, and the size of Hotpath's capture against perf.data.
# Wall time is of the whole command, so it includes whatever a recorder does
# after the program exits (symbolizing, writing indexes): that is what a
# user waits for.  Issue 2 requires the Hotpath slowdown to be no worse than
# perf's; the last line says whether it is.
#
# Usage: record-overhead.py [--runs N] [--hotpath-cli PATH] [--perf PATH]
#                           [-- PROGRAM [ARG...]]

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(cmd):
    start = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        sys.stderr.write('record-overhead: %s failed (exit %d):\n%s\n'
                         % (' '.join(cmd), proc.returncode, proc.stderr))
        sys.exit(2)
    return elapsed


def main():
    parser = argparse.ArgumentParser(description='Recording overhead, Hotpath vs perf')
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--hotpath-cli', default='hotpath-cli')
    parser.add_argument('--perf', default='perf')
    parser.add_argument('--freq', default='999')
    parser.add_argument('program', nargs='*')
    args = parser.parse_args()

    program = args.program or [os.path.join(HERE, '..', 'workloads', 'paths-fp')]
    perf = shutil.which(args.perf)
    if shutil.which(args.hotpath_cli) is None:
        sys.stderr.write('record-overhead: %s not found\n' % args.hotpath_cli)
        return 2

    times = {'plain': [], 'hotpath': [], 'perf': []}
    sizes = {'hotpath': 0, 'perf': 0}
    with tempfile.TemporaryDirectory(prefix='hotpath-bench-') as tmpdir:
        capture = os.path.join(tmpdir, 'bench.hotpath')
        perf_data = os.path.join(tmpdir, 'perf.data')
        # Interleaved, so that a machine that slows down over the minute
        # penalises every variant alike.
        for i in range(args.runs):
            times['plain'].append(timed(program))
            times['hotpath'].append(timed([args.hotpath_cli, 'record', '--force',
                                           '-F', args.freq, '--call-graph', 'fp',
                                           '-o', capture, '--']
                                          + program))
            sizes['hotpath'] = os.path.getsize(capture)
            if perf:
                times['perf'].append(timed([perf, 'record', '-q', '-F', args.freq,
                                            '-g', '-o', perf_data, '--'] + program))
                sizes['perf'] = os.path.getsize(perf_data)

    plain = statistics.median(times['plain'])
    print('workload: %s, %d runs each, -F %s' % (' '.join(program), args.runs, args.freq))
    print('%-10s %12s %10s %12s' % ('', 'median wall', 'slowdown', 'output size'))
    print('%-10s %11.3fs %10s %12s' % ('plain', plain, '1.00x', '-'))
    for name in ('hotpath', 'perf'):
        if not times[name]:
            print('%-10s %12s' % (name, 'not run (perf not found)'))
            continue
        median = statistics.median(times[name])
        print('%-10s %11.3fs %9.2fx %11.1fK' % (name, median, median / plain,
                                                 sizes[name] / 1024.0))
    if times['perf']:
        h = statistics.median(times['hotpath']) / plain
        p = statistics.median(times['perf']) / plain
        print('hotpath/perf: slowdown %.2f, size %.2f'
              % (h / p, sizes['hotpath'] / max(sizes['perf'], 1)))
        print('slowdown under Hotpath %s perf\'s'
              % ('is no worse than' if h <= p else 'is WORSE than'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
