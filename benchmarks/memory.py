"""Peak memory of a large dispatch: 4096 workgroups of 256 invocations (1,048,576 invocations).

Workgroups start lazily and at most `max_live_workgroups` are alive at once, so the peak stays
flat however many workgroups a dispatch has. Prints the peak resident set size (RSS) of a fresh
process for each strategy, with the race detector off, and in order with it on (its shadow of
a storage buffer lives as long as the dispatch: four slots per element).

    python benchmarks/memory.py [--groups 4096] [--live 1]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
import numpy as np
sys.path.insert(0, {bench!r})
from reduce import reduce256
import asyncshader as ash
groups, live, strategy, sanitize = {groups}, {live}, {strategy!r}, {sanitize!r}
inp = np.ones(groups * 256, np.float32)
out = np.zeros(groups, np.float32)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
schedule = ash.Random(1) if strategy == "random" else ash.InOrder()
t = time.perf_counter()
r = ash.run(reduce256, groups, inp=inp, out=out, schedule=schedule, max_live_workgroups=live,
            sanitize=sanitize)
assert not r.findings
elapsed = time.perf_counter() - t
assert (out == 256).all()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"before_mb": before / 1024, "peak_mb": peak / 1024,
                  "invocations": r.counters.invocations, "seconds": elapsed}}))
"""


def measure(groups: int, live: int, strategy: str, sanitize: str) -> dict:
    here = os.path.dirname(os.path.abspath(__file__))
    code = CHILD.format(root=os.path.dirname(here), bench=here, groups=groups, live=live,
                        strategy=strategy, sanitize=sanitize)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, default=4096)
    ap.add_argument("--live", type=int, default=1)
    args = ap.parse_args(argv)
    for strategy, sanitize in (("in_order", "off"), ("random", "off"), ("in_order", "report")):
        m = measure(args.groups, args.live, strategy, sanitize)
        print(f"{strategy:9s} sanitize={sanitize!r:9s} {m['invocations']:>9,} invocations, "
              "max_live_workgroups="
              f"{args.live}: peak RSS {m['peak_mb']:.0f} MB (after imports "
              f"{m['before_mb']:.0f} MB), {m['seconds']:.1f} s")


if __name__ == "__main__":
    main()
