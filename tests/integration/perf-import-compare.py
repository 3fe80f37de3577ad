#!/usr/bin/env python3
# perf-import-compare.py - import a perf.data and compare with perf report on it
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Issue 4: for a perf.data recorded with `perf record -g` (also -z, pipe
# mode and --call-graph dwarf), `hotpath-cli report --format json` of the
# imported file has the same sample count as `perf report`, and each of the
# top 20 functions by self samples has a share within 0.5 percentage points
# of `perf report --no-children --sort sym` on the same file.
#
# Both tools read the same file, so there is no sampling noise between
# them: shares are compared on sample counts (perf's -n column over its
# total), which is what Hotpath counts; perf's period-weighted Overhead is
# printed beside them. Entries perf leaves unnamed (hex addresses) are not
# compared by name; their share is printed.
#
# One difference is by design: Hotpath names the inlined function a sample
# is in (its own identity, docs/ARCHITECTURE.md), perf --sort sym the symbol
# around it. `hotpath-cli report --inline fold` folds inlined functions into
# the function they were inlined into, as perf does: every top function's
# share in it must agree with perf's (issue 14); the default report's
# share may differ where inlining moved samples, and the table marks it
# "inline". Aliases of one address may be named
# differently too (perf prefers "pthread_getspecific@@GLIBC_2.34", the
# debug info "___pthread_getspecific"), so names are compared without
# symbol versions and leading underscores.
#
# --expect NAME (repeatable): NAME must be among the functions both name,
# with self samples (the vDSO's __vdso_clock_gettime: the comparison alone
# would pass if perf left it unnamed too).
#
# Usage: perf-import-compare.py --mode fp|compressed|pipe|dwarf|errors
#            [--hotpath-cli PATH] [--perf PATH] [--top N] [--tolerance PP]
#            [--expect NAME]... -- PROGRAM [ARG...]
# Exit status: 0 on agreement, 1 on a mismatch, 2 when a tool fails,
# 77 (skip) when perf cannot sample here.

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

PERF_LINE = re.compile(r'^\s*([0-9.]+)%\s+(\d+)\s+\[([.kgu])\]\s+(.+?)\s*$')
SKIP = 77


def fail(message, status=2):
    sys.stderr.write('perf-import-compare: %s\n' % message)
    sys.exit(status)


def run(cmd, **kwargs):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          **kwargs)
    if proc.returncode != 0:
        fail('%s failed (exit %d):\n%s' % (' '.join(cmd), proc.returncode,
                                           proc.stderr.decode(errors='replace')))
    return proc.stdout.decode(errors='replace')


def record(args, tmpdir):
    """Records the program; returns (perf.data path, capture path)."""
    data = os.path.join(tmpdir, 'perf.data')
    capture = os.path.join(tmpdir, 'imported.hotpath')
    base = [args.perf, 'record', '-q', '-F', str(args.freq)]
    if args.mode == 'dwarf':
        base += ['--call-graph', 'dwarf']
    else:
        base += ['-g']
    if args.mode == 'compressed':
        base += ['-z']

    if args.mode == 'pipe':
        # perf record -o - | hotpath-cli import -, with the stream also
        # kept for perf report (perf reads pipe-mode files too).
        perf = subprocess.Popen(base + ['-o', '-', '--'] + args.program,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        tee = subprocess.Popen(['tee', data], stdin=perf.stdout, stdout=subprocess.PIPE)
        perf.stdout.close()
        imp = subprocess.run([args.hotpath_cli, 'import', '-', '-o', capture],
                             stdin=tee.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        tee.stdout.close()
        perf.wait()
        tee.wait()
        if perf.returncode != 0:
            fail('perf record failed: %s' % perf.stderr.read().decode(errors='replace'))
        if imp.returncode != 0:
            fail('import - failed: %s' % imp.stderr.decode(errors='replace'))
    else:
        run(base + ['-o', data, '--'] + args.program)
        run([args.hotpath_cli, 'import', data, '-o', capture])
    return data, capture


def perf_report(args, data):
    out = run([args.perf, 'report', '-i', data, '--no-children', '--sort', 'sym',
               '--stdio', '-n', '--percent-limit', '0', '-g', 'none'])
    samples, overhead = {}, {}
    for line in out.splitlines():
        if line.startswith('#'):
            continue
        m = PERF_LINE.match(line)
        if m:
            name = m.group(4)
            samples[name] = samples.get(name, 0) + int(m.group(2))
            overhead[name] = overhead.get(name, 0.0) + float(m.group(1))
    return samples, overhead


def hotpath_report(args, capture, extra=()):
    report = json.loads(run([args.hotpath_cli, 'report', capture, '--format', 'json',
                             '--sort', 'self'] + list(extra)))
    samples = {}
    for f in report['functions']:
        # perf's --sort sym merges a name across modules in this output too.
        samples[f['name']] = samples.get(f['name'], 0) + f['self']
    return report, samples


def canonical(name):
    return name.split('@')[0].lstrip('_') or name


def canonicalize(table):
    out = {}
    for name, value in table.items():
        key = canonical(name)
        out[key] = out.get(key, 0) + value
    return out


def unnamed(name):
    return name.startswith('0x') or name.startswith('[unknown]')


def compare(args):
    with tempfile.TemporaryDirectory(prefix='hotpath-perf-import-') as tmpdir:
        data, capture = record(args, tmpdir)
        perf_samples, perf_overhead = perf_report(args, data)
        report, hp_samples = hotpath_report(args, capture)
        folded_report, folded = hotpath_report(args, capture, ['--inline', 'fold'])
    perf_overhead = canonicalize(perf_overhead)
    perf_samples = canonicalize(perf_samples)
    hp_samples = canonicalize(hp_samples)
    folded = canonicalize(folded)

    perf_total = sum(perf_samples.values())
    hp_total = report['samples']
    print('program: %s (%s)' % (' '.join(args.program), args.mode))
    print('samples: perf report %d, hotpath %d' % (perf_total, hp_total))
    if perf_total == 0:
        fail('perf recorded no samples')

    failures = []
    if perf_total != hp_total:
        failures.append('sample count %d != %d' % (hp_total, perf_total))
    if folded_report['samples'] != hp_total:
        failures.append('--inline fold sample count %d != %d' % (folded_report['samples'], hp_total))

    def share(table, total, name):
        return 100.0 * table.get(name, 0) / total if total else 0.0

    ranked = sorted(perf_samples.items(), key=lambda kv: (-kv[1], kv[0]))
    top = [name for name, _ in ranked if not unnamed(name)][:args.top]
    hp_ranked = sorted(hp_samples.items(), key=lambda kv: (-kv[1], kv[0]))
    hp_top = [name for name, _ in hp_ranked if '+0x' not in name][:args.top]
    unnamed_share = sum(share(perf_samples, perf_total, n) for n, _ in ranked if unnamed(n))

    print('%-40s %9s %9s %9s %7s %9s' % ('function (self)', 'perf %', 'overhead', 'hotpath %', 'diff',
                                         'folded %'))
    for name in top + [n for n in hp_top if n not in top]:
        p = share(perf_samples, perf_total, name)
        h = share(hp_samples, hp_total, name)
        f = share(folded, hp_total, name)
        note = ''
        if abs(p - f) > args.tolerance:
            note = '--inline fold differs by more than %.1f pp' % args.tolerance
            failures.append(name)
        elif abs(p - h) > args.tolerance:
            note = 'inline: agrees with inlined code folded in'
        print('%-40s %9.2f %9.2f %9.2f %+7.2f %9.2f  %s' % (name[:40], p, perf_overhead.get(name, 0.0),
                                                           h, h - p, f, note))
    print('perf entries without a name: %.2f %%' % unnamed_share)
    for name in args.expect or []:
        key = canonical(name)
        print('expected %s: perf %d, hotpath %d self samples' % (name, perf_samples.get(key, 0),
                                                              hp_samples.get(key, 0)))
        if perf_samples.get(key, 0) == 0 or hp_samples.get(key, 0) == 0:
            failures.append('%s not named by both' % name)

    if failures:
        print('MISMATCH: %s' % ', '.join(failures))
        return 1
    print('OK: same sample count; top %d within %.1f pp with --inline fold' % (args.top, args.tolerance))
    return 0


# Bad input ------------------------------------------------------------------

def records_of(blob):
    """(offset, type, size) of the records in a file-mode perf.data."""
    data_offset, data_size = struct.unpack_from('<QQ', blob, 40)
    at, end = data_offset, data_offset + data_size
    while at + 8 <= end:
        rtype, misc, size = struct.unpack_from('<IHH', blob, at)
        yield at, rtype, size
        at += size


def check_errors(args):
    """Each broken file: exit 1, one line naming the file and the offset or
    section, and no capture (nor temporary file) left behind."""
    status = 0
    with tempfile.TemporaryDirectory(prefix='hotpath-perf-import-') as tmpdir:
        good = os.path.join(tmpdir, 'good.data')
        run([args.perf, 'record', '-q', '-g', '-o', good, '--'] + args.program)
        blob = open(good, 'rb').read()
        recs = list(records_of(blob))
        samples = [r for r in recs if r[1] == 9]
        if len(samples) < 10:
            fail('too few samples in the recording to corrupt')
        victim = samples[len(samples) // 2]
        data_offset = struct.unpack_from('<Q', blob, 40)[0]

        corrupt_size = bytearray(blob)
        struct.pack_into('<H', corrupt_size, victim[0] + 6, 4)
        corrupt_chain = bytearray(blob)
        # IP|TID|TIME|CALLCHAIN|PERIOD: nr follows header, ip, tid, time, period
        struct.pack_into('<Q', corrupt_chain, victim[0] + 8 + 32, 1 << 40)
        # `report` takes captures too: a file without perf's magic is
        # refused as not a capture, which still names it.
        cases = {
            'empty.data': (b'', 'empty file'),
            'short.data': (blob[:5], 'offset 0'),
            'magic.data': (b'NOTPERF!' + blob[8:], "magic 'NOTPERF!' at offset 0"),
            'bigendian.data': (b'2ELIFREP' + blob[8:], 'big-endian'),
            'truncated.data': (blob[:data_offset + (len(blob) - data_offset) // 2], 'section'),
            'badsize.data': (bytes(corrupt_size), 'offset %d' % victim[0]),
            'badchain.data': (bytes(corrupt_chain), 'offset %d' % victim[0]),
        }
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmpdir, 'cache'))
        for name, (content, expect) in cases.items():
            case_dir = os.path.join(tmpdir, name + '.d')
            os.mkdir(case_dir)
            path = os.path.join(case_dir, name)
            with open(path, 'wb') as f:
                f.write(content)
            for cmd in ([args.hotpath_cli, 'import', path, '-o', os.path.join(case_dir, 'out.hotpath')],
                        [args.hotpath_cli, 'report', path]):
                proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
                err = proc.stderr.decode(errors='replace').strip()
                left = sorted(set(os.listdir(case_dir)) - {name})
                cached = os.listdir(os.path.join(tmpdir, 'cache', 'hotpath', 'perf-data')) \
                    if os.path.isdir(os.path.join(tmpdir, 'cache', 'hotpath', 'perf-data')) else []
                problems = []
                if proc.returncode != 1:
                    problems.append('exit %d' % proc.returncode)
                if len(err.splitlines()) != 1:
                    problems.append('%d lines on stderr' % len(err.splitlines()))
                if path not in err:
                    problems.append('the message does not name the file')
                perf_magic = content[:8] in (b'PERFILE2', b'2ELIFREP')
                if expect not in err and (cmd[1] == 'import' or perf_magic):
                    problems.append('the message lacks "%s"' % expect)
                if left or cached:
                    problems.append('left behind: %s' % ', '.join(left + cached))
                print('%-8s %-16s %s%s' % (cmd[1], name, err.replace(tmpdir, '$TMP'),
                                            ('   <-- ' + '; '.join(problems)) if problems else ''))
                if problems:
                    status = 1
    print('OK: every broken file gives one error and leaves nothing' if status == 0 else 'MISMATCH')
    return status


# Whether perf can sample here, and if not, what perf said. Tried three
# times: once in a CI run on a busy machine the probe failed and the test
# was skipped while perf sampled in every other test; the message now
# says why, and one failed probe no longer skips the test.
def can_sample(perf):
    for attempt in range(3):
        proc = subprocess.run([perf, 'record', '-q', '-o', '/dev/null', '--', 'true'],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode == 0:
            return True, ''
        if attempt < 2:
            time.sleep(1)
    return False, 'perf record exited with %d: %s' % (proc.returncode, proc.stderr.strip()[-300:])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--hotpath-cli', default='hotpath-cli')
    parser.add_argument('--perf', default='perf')
    parser.add_argument('--mode', choices=['fp', 'compressed', 'pipe', 'dwarf', 'errors'],
                        default='fp')
    parser.add_argument('--freq', type=int, default=2000)
    parser.add_argument('--top', type=int, default=20)
    parser.add_argument('--tolerance', type=float, default=0.5)
    parser.add_argument('--require', help='skip unless this program exists')
    parser.add_argument('--expect', action='append', help='a function both must name')
    parser.add_argument('program', nargs='+')
    args = parser.parse_args()

    if args.require and shutil.which(args.require) is None and not os.path.exists(args.require):
        print('SKIP: %s is not installed' % args.require)
        return SKIP
    for tool in (args.hotpath_cli, args.perf):
        if shutil.which(tool) is None:
            fail('%s not found' % tool)
    sampling, why = can_sample(args.perf)
    if not sampling:
        print('SKIP: perf cannot sample here (perf_event_paranoid?): %s' % why)
        return SKIP
    if args.mode == 'errors':
        return check_errors(args)
    return compare(args)


if __name__ == '__main__':
    sys.exit(main())
