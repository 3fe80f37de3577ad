#!/usr/bin/env python3
# record-lock-wait.py - how long another writer waits for a live capture's write lock
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A recording commits every 250 ms; with a backlog (DWARF stacks, a high
# frequency, a busy machine) it used to begin its next transaction at once,
# and another program that saves into the live capture (a summary from the
# window, a sqlite3 shell in BEGIN EXCLUSIVE) polls for the lock with
# SQLite's busy handler, every 100 ms at most: it could wait until the
# recorded program ended. This benchmark (it asserts nothing) records
# PROGRAM (by default the oracle workload, 200 rounds, DWARF stacks at
# 4 kHz, so that the recorder has a backlog) and meanwhile, from another
# process, takes the capture's write lock again and again as such a
# program does (BEGIN EXCLUSIVE, busy timeout --timeout s, holding it
# 20 ms), and prints how long each take waited: median, 90th percentile,
# maximum, and how many gave up ("database is locked"). --load N starts N
# busy loops for the run (and stops them), for the loaded figures.
#
# Usage: record-lock-wait.py [--hotpath-cli PATH] [--timeout S] [--load N]
#                            [--freq HZ] [-- PROGRAM [ARG...]]

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, '..', '..', 'build')


def samples(path):
    try:
        db = sqlite3.connect('file:%s?mode=ro' % path, uri=True, timeout=0.1)
        try:
            return db.execute('SELECT count(*) FROM samples').fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def main():
    parser = argparse.ArgumentParser(description='how long another writer waits for a live capture\'s write lock')
    parser.add_argument('--hotpath-cli', default=os.path.join(BUILD, 'src', 'cli', 'hotpath-cli'))
    parser.add_argument('--timeout', type=float, default=5.0)
    parser.add_argument('--load', type=int, default=0)
    parser.add_argument('--freq', default='4000')
    parser.add_argument('program', nargs='*',
                        default=[os.path.join(BUILD, 'tests', 'workloads', 'oracle'), '200'])
    args = parser.parse_args()

    loops = [subprocess.Popen(['sh', '-c', 'while :; do :; done']) for _ in range(args.load)]
    tmp = tempfile.mkdtemp(prefix='hp-lock-wait-')
    capture = os.path.join(tmp, 'live.hotpath')
    waits, gave_up = [], 0
    try:
        rec = subprocess.Popen([args.hotpath_cli, 'record', '-g', 'dwarf', '-F', args.freq,
                                '-o', capture, '--'] + args.program,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        while rec.poll() is None and samples(capture) == 0:
            time.sleep(0.05)
        while rec.poll() is None:
            db = sqlite3.connect(capture, timeout=args.timeout, isolation_level=None)
            start = time.monotonic()
            try:
                db.execute('BEGIN EXCLUSIVE')
                waited = time.monotonic() - start
                time.sleep(0.02)
                db.execute('COMMIT')
                if rec.poll() is None:
                    waits.append(waited)
            except sqlite3.OperationalError:
                gave_up += 1
            db.close()
            time.sleep(0.3)
        err = rec.stderr.read()
        load = os.getloadavg()[0]
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
        for name in os.listdir(tmp):
            os.unlink(os.path.join(tmp, name))
        os.rmdir(tmp)
    if rec.returncode != 0:
        sys.stderr.write(err)
    waits.sort()
    if waits:
        print('lock taken %d times while recording (load %.1f): median %.0f ms, p90 %.0f ms, max %.0f ms; '
              'gave up after %.0f s: %d' % (len(waits), load, statistics.median(waits) * 1e3,
                                           waits[min(len(waits) - 1, int(0.9 * len(waits)))] * 1e3, waits[-1] * 1e3,
                                           args.timeout, gave_up))
    else:
        print('lock never taken while recording (load %.1f); gave up after %.0f s: %d'
              % (load, args.timeout, gave_up))
    print('recorder: exit %d, %s' % (rec.returncode, [l for l in err.splitlines() if 'wrote' in l]))


if __name__ == '__main__':
    main()
