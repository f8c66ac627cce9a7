"""How much of a WGSL corpus ``ash.load_wgsl`` runs: each ``.wgsl`` file under a folder that
type-checks (asyncshader.front.wgsl) and uses no textures or samplers (the texture shaders
have their own corpus, tests/data/wgsl_textures) is loaded (code generation and compilation
into kernels). Dawn's ``test/tint`` (11,638 programs; its ``*.expected.*`` files are Tint's
outputs and are skipped) is the reference corpus; docs/wgsl-testing.md ("Coverage")
records its table.

    python benchmarks/wgsl_load.py DAWN/test/tint [--show 3]
    python benchmarks/wgsl_corpus.py DAWN/test/tint --load      # the same
    python benchmarks/wgsl_load.py tests/data/tint              # the fixed sample CI holds
    python benchmarks/wgsl_load.py DAWN/test/tint --naga        # also: of what naga accepts

With ``--naga`` each eligible file is also given to naga (wgpu's ``create_shader_module`` on
lavapipe; needs ``asyncshader[gpu]``) and the share loaded of the files naga accepts is
printed too (the measure the front-end is held to: at least 98% of them load).

Prints the share loaded of the eligible files per top-level folder, the refused constructs
("not supported yet by load_wgsl: ...") grouped by :func:`construct` with their counts, and
every file that crashed the loader (any exception but a ``ShaderCreationError``) or took
longer than ``--limit`` seconds, and the files refused by the kernels' own decoration-time
checks (a ``ShaderCreationError`` that is not a :class:`WGSLError`: a diagnostic naming the
WGSL line, but not the front-end's ``file:line:col`` form). The script checks itself: it
exits non-zero if any file crashed.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import asyncshader as ash
from asyncshader.errors import ShaderCreationError
from asyncshader.front.wgsl import WGSLError, check, resolve_wgsl

#: a texture or sampler type named anywhere in the text (declared, or as a parameter)
TEXTURES = re.compile(r"\b(texture_\w+|sampler(_comparison)?|binding_array)\b")
_REFUSED = "not supported yet by load_wgsl: "
_QUOTED = re.compile(r"'([^']*)'")
_KEYWORDS = {"let", "var", "const", "break", "continue", "discard", "loop", "for", "while",
             "if", "switch", "return", "break if", ".x"}


def construct(message: str) -> str:
    """The construct a refusal names, with the program's own text (names, expressions, struct
    types) replaced by ``…`` so that refusals of one kind count together."""
    first = message.split("\n")[0]
    if _REFUSED not in first:
        return "error: " + first.split(": error: ")[-1].split(": ", 1)[-1][:70]
    what = first.split(_REFUSED, 1)[1]
    what = _QUOTED.sub(lambda m: m.group(0) if m.group(1) in _KEYWORDS or
                       (m.group(1).startswith(".") and len(m.group(1)) < 3) else "'…'", what)
    what = re.sub(r"var<(\w+)>", r"var[\1]", what)  # (kept: the address space)
    what = _TYPED.sub(lambda m: f"{m.group(1)} {_kind(m.group(2))}", _no_templates(what))
    what = re.sub(r"var\[(\w+)\]", r"var<\1>", what)
    what = re.sub(r"(the built-in function|the call of) \w+", r"\1 …", what)
    return what


_TYPED = re.compile(r"(of type|constructor of|the type|as) ([A-Z_a-z]\w*)")


def _no_templates(text: str) -> str:
    """``text`` without template lists (``array<vec2u, 2>`` -> ``array``)."""
    out, depth = [], 0
    for c in text:
        depth += c == "<"
        if not depth:
            out.append(c)
        depth -= c == ">" and depth > 0
    return "".join(out)


def _kind(name: str) -> str:
    """A type's name reduced to its kind: ``array``, ``vec``, ``mat``, ``ptr``, ``atomic``, a
    scalar's name, or ``struct`` for a program's own."""
    for head in ("array", "vec", "mat", "ptr", "atomic"):
        if name.startswith(head):
            return head
    return name if name in ("f32", "f16", "i32", "u32", "bool") else "struct"


class _Slow(Exception):
    pass


def _alarm(signum, frame):
    raise _Slow


def _naga() -> Any:
    """``accepts(text)``: whether naga (wgpu on lavapipe) accepts a module."""
    import warnings

    from asyncshader.extra.device import device

    warnings.filterwarnings("ignore")
    dev = device()

    def accepts(text: str) -> bool:
        try:
            dev.create_shader_module(code=text)
            return True
        except Exception:  # wgpu's validation error (its class moves between versions)
            return False

    return accepts


def main(folder: Path, show: int = 0, limit: float = 20.0, naga: bool = False) -> int:
    files = sorted(p for p in folder.rglob("*.wgsl") if ".expected." not in p.name)
    per_folder: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    refused: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    crashes: list[str] = []
    late: list[str] = []  # refused by the kernels' checks, not as a WGSLError
    counts = collections.Counter()
    accepts = _naga() if naga else None
    naga_counts = collections.Counter()
    signal.signal(signal.SIGALRM, _alarm)
    start = time.perf_counter()
    for path in files:
        folder_name = path.relative_to(folder).parts[0] if path.parent != folder else "."
        row = per_folder[folder_name]  # loaded, eligible, files
        row[2] += 1
        text = path.read_text(encoding="utf-8", errors="replace")
        if TEXTURES.search(text):
            counts["textures"] += 1
            continue
        try:
            check(resolve_wgsl(text, str(path)))
        except WGSLError:
            counts["invalid"] += 1  # (not WGSL the front-end accepts: benchmarks/wgsl_corpus.py)
            continue
        except Exception:
            counts["invalid"] += 1  # (a checker crash: wgsl_corpus.py reports those)
            continue
        row[1] += 1
        by_naga = accepts is not None and accepts(text)
        naga_counts["accepted"] += by_naga
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            ash.load_wgsl(text)
            row[0] += 1
            naga_counts["loaded"] += by_naga
        except WGSLError as error:
            what = construct(str(error))
            refused[what] += 1
            examples.setdefault(what, f"{path}\n{error}")
        except ShaderCreationError as error:  # (the runtime's own decoration-time checks)
            what = "kernel checks: " + str(error).split("\n")[0].split(": ", 2)[-1][:70]
            refused[what] += 1
            examples.setdefault(what, f"{path}\n{error}")
            late.append(f"{path}: {str(error).splitlines()[0][:200]}")
        except _Slow:
            crashes.append(f"{path}: took over {limit} s")
        except Exception as error:  # a crash is what this script counts
            crashes.append(f"{path}: {type(error).__name__}: {str(error)[:200]}")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    elapsed = time.perf_counter() - start
    loaded = sum(r[0] for r in per_folder.values())
    eligible = sum(r[1] for r in per_folder.values())
    print(f"asyncshader load_wgsl: {loaded} of {eligible} eligible files loaded "
          f"({100 * loaded / max(1, eligible):.1f}%), {len(crashes)} crashes, {len(late)} "
          "refused by the kernels' checks rather than as a WGSLError; "
          f"{len(files)} files, {counts['textures']} use textures or samplers, "
          f"{counts['invalid']} do not type-check; {elapsed:.0f} s")
    if accepts is not None:
        print(f"  of the {naga_counts['accepted']} eligible files naga accepts: "
              f"{naga_counts['loaded']} loaded "
              f"({100 * naga_counts['loaded'] / max(1, naga_counts['accepted']):.1f}%)")
    print(f"  {'folder':24} {'loaded':>7} {'eligible':>9} {'share':>7} {'files':>7}")
    for name, (ok, total, n) in sorted(per_folder.items()):
        share = f"{100 * ok / total:6.1f}%" if total else "      -"
        print(f"  {name:24} {ok:7} {total:9} {share:>7} {n:7}")
    print("refused constructs (files):")
    for what, count in refused.most_common():
        print(f"  {count:5}  {what}")
    for what, _ in refused.most_common(show):
        print("\n" + examples[what])
    for refusal in late:
        print("NOT A WGSLError", refusal)
    for crash in crashes:
        print("CRASH", crash)
    return 1 if crashes else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--show", type=int, default=0, help="print N refusals in full")
    parser.add_argument("--limit", type=float, default=20.0, help="seconds a file may take")
    parser.add_argument("--naga", action="store_true", help="also count what naga accepts")
    args = parser.parse_args()
    sys.exit(main(args.folder, args.show, args.limit, args.naga))
