# compare-perf-common.py - what compare-perf.py and compare-perf-dwarf.py share
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Both oracle tests let perf and Hotpath sample the very same run of a
# program, so the workload's run-to-run variation (a busy machine, another
# CPU, frequency scaling) is the same for both and cancels. What is left
# between the two shares of a function is sampling error: each tool takes
# its own samples of that run, at its own instants. Treating each tool's n
# samples as draws of a binomial with the share p (in [0, 1]) bounds it:
#
#   sigma_tool = sqrt(p (1 - p) / n_tool)
#   tolerance  = Z * sqrt(sigma_perf^2 + sigma_hotpath^2) + FLOOR
#
# with Z = 3 and FLOOR = 0.5 percentage points. The binomial is the worst
# case: two samplers with the same period over one run disagree less than
# independent draws do for code that runs in long stretches (both see every
# stretch), and as much for code interleaved finely with other code. The
# floor covers what is not sampling: a sample on a symbol boundary, an
# alias, a kernel entry resolved differently.
#
# Loaded by the two scripts with importlib (their names have dashes).

import json
import math
import subprocess

Z = 3.0
FLOOR_PP = 0.5


def folded_self_shares(cli, capture):
    """Self shares in percent with inlined functions folded into the
    function they were inlined into (`report --inline fold`), as perf's
    --sort sym names them; one name over all modules."""
    out = subprocess.run([cli, 'report', capture, '--format', 'json', '--sort', 'self',
                          '--limit', '1000000', '--inline', 'fold'],
                         check=True, stdout=subprocess.PIPE).stdout
    report = json.loads(out)
    total = report['samples']
    shares = {}
    for f in report['functions']:
        shares[f['name']] = shares.get(f['name'], 0.0) + (100.0 * f['self'] / total if total else 0.0)
    return shares


def binomial_sigma_pp(share_pp, n):
    """Standard error of a share (in percent) measured with n samples, in pp."""
    if n <= 0:
        return float('inf')
    p = min(max(share_pp / 100.0, 0.0), 1.0)
    return 100.0 * math.sqrt(p * (1.0 - p) / n)


def share_tolerance(perf_pp, hotpath_pp, n_perf, n_hotpath, z=Z, floor=FLOOR_PP):
    """How far apart two shares of one function (perf's from n_perf samples,
    Hotpath's from n_hotpath) may be by sampling alone, in pp. Sigma is
    taken at whichever of the two shares gives the larger p (1 - p): a
    function one tool misses entirely gets the tolerance of the share the
    other one measured, and a share of 100 % on one side (main, in every
    sample perf unwound) that of the other side's 99.7 %."""
    p = max((perf_pp, hotpath_pp), key=lambda s: binomial_sigma_pp(s, 1))
    sigma = math.hypot(binomial_sigma_pp(p, n_perf), binomial_sigma_pp(p, n_hotpath))
    return z * sigma + floor
