#!/usr/bin/env python3
# record-system-wide.py - shares of a whole-system recording (-a) against perf record -a
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A benchmark, not a test: it prints figures and never fails on one.  It
# starts two busy programs whose names it knows (tests/workloads/events
# busy, one of them at nice 5 so that the two differ), then records the
# whole system with
#   hotpath   hotpath-cli record -a -F 999 --call-graph fp --duration D
#   perf      perf record -a -F 999 -g -- sleep D
# at the same time, so that both sample the same run (each sees the other's
# cost too), and prints for each recording its samples and length, then the
# share of the CPU time of each process (pid) and of each command (thread
# name) in both, with the difference in percentage
# points: the biggest PER_TABLE by perf's share, the two busy programs
# always. Shares are of all the time sampled, idle included ("swapper",
# pid 0), weighted by period as perf report weighs them. Whatever else the
# machine runs is the background; its load decides the busy programs'
# shares, so compare the two recorders row by row, never with a threshold.
#
# Usage: record-system-wide.py [--duration S] [--rows N] [--keep DIR]
#                              [--hotpath-cli PATH] [--workload PATH] [--perf PATH]
# Needs root (or kernel.perf_event_paranoid <= 0) and perf.

import argparse
import collections
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))


def hotpath_shares(path):
    """(by pid, by command, pid -> command, samples) of a capture, in ns of cpu-clock."""
    db = sqlite3.connect('file:%s?mode=ro' % path, uri=True)
    by_pid = collections.Counter()
    by_comm = collections.Counter()
    names = {}
    n = 0
    rows = db.execute('SELECT t.pid, t.name, sum(s.weight), count(*) FROM samples s '
                      'LEFT JOIN threads t ON t.tid = s.tid GROUP BY s.tid')
    for pid, name, weight, count in rows:
        pid = pid if pid is not None else -1
        # the idle task is "swapper" in perf; Hotpath names its threads
        # by their COMM, and pid 0 has none
        name = name if name else ('swapper' if pid == 0 else '[unknown]')
        by_pid[pid] += weight
        by_comm[name] += weight
        names.setdefault(pid, name)
        n += count
    for pid, command in db.execute('SELECT pid, command FROM processes'):
        if command:
            names[pid] = command
    db.close()
    return by_pid, by_comm, names, n


def perf_shares(perf, path):
    """(by pid, by command, pid -> command, samples, span in s) of a perf.data, in ns of cpu-clock.
    perf report --sort pid sorts by thread, so the samples are summed here."""
    out = subprocess.run([perf, 'script', '-i', path, '-F', 'comm,pid,tid,time,period', '-G'],
                         capture_output=True, text=True, check=True).stdout
    by_pid = collections.Counter()
    by_comm = collections.Counter()
    names = {}
    n = 0
    times = []
    for line in out.splitlines():
        m = re.match(r'\s*(.*?)\s+(-?\d+)/(-?\d+)\s+([0-9.]+):\s+(\d+)\s*$', line)
        if not m:
            continue
        comm, pid, tid, period = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(5))
        times.append(float(m.group(4)))
        by_pid[pid] += period
        by_comm[comm] += period
        if pid == tid or pid not in names:
            names[pid] = comm
        n += 1
    return by_pid, by_comm, names, n, (max(times) - min(times)) if times else 0.0


def percent(counter):
    total = sum(counter.values()) or 1
    return {k: 100.0 * v / total for k, v in counter.items()}


def table(title, hp, pf, label, always, rows):
    keys = sorted(set(hp) | set(pf), key=lambda k: -pf.get(k, 0.0))
    shown = keys[:rows] + [k for k in always if k in keys[rows:]]
    print('\n%s' % title)
    print('  %-28s %9s %9s %8s' % ('', 'hotpath', 'perf', 'diff'))
    worst = 0.0
    for k in shown:
        h, p = hp.get(k, 0.0), pf.get(k, 0.0)
        worst = max(worst, abs(h - p))
        print('  %-28s %8.2f%% %8.2f%% %+7.2f' % (label(k)[:28], h, p, h - p))
    print('  largest difference over these rows: %.2f pp' % worst)


def main():
    parser = argparse.ArgumentParser(description='Whole-system shares, Hotpath vs perf record -a')
    parser.add_argument('--duration', type=float, default=5.0)
    parser.add_argument('--rows', type=int, default=10)
    parser.add_argument('--keep', help='keep the recordings in this folder')
    parser.add_argument('--hotpath-cli', default=os.path.join(TOP, 'build', 'src', 'cli', 'hotpath-cli'))
    parser.add_argument('--workload', default=os.path.join(TOP, 'build', 'tests', 'workloads', 'events-fp'))
    parser.add_argument('--perf', default='perf')
    args = parser.parse_args()

    if shutil.which(args.perf) is None:
        sys.stderr.write('record-system-wide: perf is not installed; nothing to compare with\n')
        return 77
    folder = args.keep or tempfile.mkdtemp(prefix='hp-bench-sw-')
    os.makedirs(folder, exist_ok=True)
    capture = os.path.join(folder, 'all.hotpath')
    perf_data = os.path.join(folder, 'all.perf.data')
    for f in (capture, perf_data):
        if os.path.exists(f):
            os.unlink(f)

    busy_seconds = str(int(args.duration + 10))
    busy = [subprocess.Popen([args.workload, 'busy', busy_seconds]),
            subprocess.Popen(['nice', '-n', '5', args.workload, 'busy', busy_seconds])]
    time.sleep(0.3)
    load = os.getloadavg()[0]
    try:
        hp = subprocess.Popen([args.hotpath_cli, 'record', '-a', '-F', '999', '--call-graph', 'fp',
                               '--duration', str(args.duration), '-o', capture],
                              stderr=subprocess.PIPE, text=True)
        pf = subprocess.Popen([args.perf, 'record', '-q', '-a', '-F', '999', '-g', '-o', perf_data,
                               '--', 'sleep', str(args.duration)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        hp_err = hp.communicate()[1]
        pf_err = pf.communicate()[1]
    finally:
        for p in busy:
            p.kill()
            p.wait()
    if hp.returncode != 0 or pf.returncode != 0:
        sys.stderr.write('record-system-wide: a recording failed:\n%s\n%s\n' % (hp_err, pf_err))
        return 2

    hp_pid, hp_comm, hp_names, hp_n = hotpath_shares(capture)
    pf_pid, pf_comm, pf_names, pf_n, pf_span = perf_shares(args.perf, perf_data)
    db = sqlite3.connect('file:%s?mode=ro' % capture, uri=True)
    meta = dict(db.execute('SELECT key, value FROM metadata'))
    first, last = db.execute('SELECT min(time), max(time) FROM samples').fetchone()
    db.close()

    print('load average %.1f; %d CPUs; busy programs: pid %d (nice 0), pid %d (nice 5)'
          % (load, os.cpu_count(), busy[0].pid, busy[1].pid))
    hp_span = (last - first) / 1e9
    print('hotpath: %d samples over %.3f s (%.0f a second), duration %.3f s, %s lost'
          % (hp_n, hp_span, hp_n / max(hp_span, 1e-9), int(meta.get('duration_ns', 0)) / 1e9,
             meta.get('lost_samples', '?')))
    print('perf:    %d samples over %.3f s (%.0f a second)' % (pf_n, pf_span, pf_n / max(pf_span, 1e-9)))

    names = dict(pf_names)
    names.update({k: v for k, v in hp_names.items() if k not in names})
    table('share of the time sampled, by process', percent(hp_pid), percent(pf_pid),
          lambda pid: '%s [%d]' % (names.get(pid, '?'), pid), [busy[0].pid, busy[1].pid], args.rows)
    table('share of the time sampled, by command (thread name)', percent(hp_comm), percent(pf_comm),
          lambda name: name, [os.path.basename(args.workload)[:15]], args.rows)
    if not args.keep:
        shutil.rmtree(folder)
    return 0


if __name__ == '__main__':
    sys.exit(main())
