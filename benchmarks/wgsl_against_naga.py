"""The WGSL front-end's verdicts against naga's (wgpu's ``create_shader_module``, on lavapipe):
every ``.wgsl`` file under a folder (Dawn's ``test/tint``), as written and with random
type-breaking mutations (``1u`` to ``1i``, ``f32(`` to ``i32(``, ``vec3f`` to ``vec2f``, ``let``
to ``const``, ``(&`` to ``(`` ...), each judged by both. Prints the files naga accepts that
the front-end rejects (each a bug of the front-end, or of naga), and the mutants on which the
two disagree, to read one by one: naga lacks some of WGSL (``enable subgroups``, const
``bitcast``, some f16) and Tint's corpus has files only Tint accepts.

    python benchmarks/wgsl_against_naga.py DAWN/test/tint [--mutants 2000] [--seed 1]

Needs wgpu and a WebGPU adapter (``asyncshader[gpu]``).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import warnings
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from asyncshader.extra.device import device
from asyncshader.front.wgsl import WGSLError, check_wgsl

MUTATIONS = [(r"\b(\d+)u\b", r"\1i"), (r"\b(\d+)i\b", r"\1u"), (r"\bf32\(", "i32("),
             (r"\bvec3<f32>", "vec2<f32>"), (r"\bvec3f\b", "vec2f"), (r"\bu32\b", "i32"),
             (r"\.x\b", ".q"), (r"\blet\b", "const"), (r"\(&", "("), (r"\b1\.0\b", "true"),
             (r"\bi32\b", "f32"), (r" \* ", " + "), (r"\.xy\b", ".xyz"), (r"\bvar\b", "let"),
             (r"\bf32\b", "u32"), (r"\[0\]", "[5]")]


def verdicts(text: str, dev) -> tuple[str | None, str | None]:
    """(naga's error or None, the front-end's error or None)."""
    try:
        dev.create_shader_module(code=text)
        naga = None
    except Exception as error:  # wgpu's validation error (its class moves between versions)
        naga = str(error).strip().splitlines()[-1][:200]
    try:
        check_wgsl(text)
        mine = None
    except WGSLError as error:
        mine = str(error).splitlines()[0][:200]
    return naga, mine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--mutants", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    dev = device()
    files = sorted(p for p in args.folder.rglob("*.wgsl") if ".expected." not in p.name)
    naga_ok = both_ok = 0
    for path in files:
        naga, mine = verdicts(path.read_text(encoding="utf-8"), dev)
        if naga is None:
            naga_ok += 1
            both_ok += mine is None
            if mine is not None:
                print(f"naga accepts, asyncshader rejects: {path}: {mine}")
    print(f"asyncshader type-checks {both_ok} of the {naga_ok} files naga accepts "
          f"({100 * both_ok / max(1, naga_ok):.2f}%), of {len(files)}")
    rng = random.Random(args.seed)
    disagree = 0
    for _ in range(args.mutants):
        path = rng.choice(files)
        text = path.read_text(encoding="utf-8")
        pattern, replacement = rng.choice(MUTATIONS)
        hits = list(re.finditer(pattern, text))
        if not hits:
            continue
        hit = rng.choice(hits)
        naga, mine = verdicts(text[:hit.start()] + hit.expand(replacement) + text[hit.end():],
                              dev)
        if (naga is None) != (mine is None):
            disagree += 1
            print(f"mutant {path}: {pattern} -> {replacement} at {hit.start()}\n"
                  f"    naga: {naga or 'accepts'}\n    asyncshader: {mine or 'accepts'}")
    if args.mutants:
        print(f"{disagree} of {args.mutants} mutants judged differently")
    return 0


if __name__ == "__main__":
    sys.exit(main())
