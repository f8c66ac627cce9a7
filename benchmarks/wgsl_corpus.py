"""How much of a WGSL corpus the front-end reads, and how fast: every ``.wgsl`` file under a
folder (Dawn's ``test/tint``, 11,638 programs, is the reference corpus; its ``*.expected.*``
files are Tint's outputs and are skipped), parsed, its names resolved and its types checked by
``asyncshader.front.wgsl``.

    python benchmarks/wgsl_corpus.py DAWN/test/tint [--show 5]
    python benchmarks/wgsl_corpus.py tests/data/tint        # the fixed sample CI parses
    python benchmarks/wgsl_corpus.py DAWN/test/tint --load  # what ash.load_wgsl runs

With ``--load`` each file that type-checks and uses no textures or samplers goes on through
``ash.load_wgsl`` (code generation and compilation): it prints the share loaded per folder
and the constructs refused ("not supported yet by load_wgsl: ...", grouped as
:func:`wgsl_load.construct` names them), and counts any other exception as a crash.

Prints the counts parsed, resolved and typed, the share read (all three) per top-level folder,
the diagnostics grouped by
message (with ``--show N`` the first N in full), files that crashed the front-end (there must
be none: a rejection is a diagnostic), and the time per file and per 1,000 lines. The script checks
itself: it exits non-zero if any file crashed the parser.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from asyncshader.front.wgsl import WGSLError, check, parse_wgsl_file, resolve
from asyncshader.front.wgsl.source import Source


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--show", type=int, default=0, help="print N diagnostics in full")
    parser.add_argument("--load", action="store_true",
                        help="also load each texture-free file with ash.load_wgsl")
    args = parser.parse_args()
    if args.load:
        from wgsl_load import main as load_main
        return load_main(args.folder, args.show)
    files = sorted(p for p in args.folder.rglob("*.wgsl") if ".expected." not in p.name)
    per_folder: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    messages: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    crashes, lines = [], 0
    stages = collections.Counter()  # how many files passed each stage
    start = time.perf_counter()
    for path in files:
        folder = path.relative_to(args.folder).parts[0] if path.parent != args.folder else "."
        per_folder[folder][1] += 1
        lines += path.read_text(encoding="utf-8", errors="replace").count("\n")
        try:
            module = parse_wgsl_file(path)
            stages["parsed"] += 1
            resolved = resolve(module, Source.read(path))
            stages["resolved"] += 1
            check(resolved)
            stages["typed"] += 1
            per_folder[folder][0] += 1
        except WGSLError as error:
            message = str(error).split("\n")[0].split(": error: ")[-1][:80]
            messages[message] += 1
            examples.setdefault(message, str(error))
        except Exception as error:  # a crash is what this script counts
            crashes.append(f"{path}: {type(error).__name__}: {error}")
    elapsed = time.perf_counter() - start
    parsed = sum(ok for ok, _ in per_folder.values())
    print(f"asyncshader front-end: {parsed} of {len(files)} files read "
          f"({100 * parsed / max(1, len(files)):.2f}%), {len(crashes)} crashes; "
          f"{1000 * elapsed / max(1, len(files)):.2f} ms a file, "
          f"{1000 * elapsed / max(1, lines / 1000):.1f} ms per 1,000 lines")
    print(f"  parsed {stages['parsed']}, resolved {stages['resolved']}, typed "
          f"{stages['typed']} ({100 * stages['typed'] / max(1, stages['resolved']):.2f}% of "
          "the resolved)")
    for folder, (ok, total) in sorted(per_folder.items()):
        print(f"  {folder:24} {ok:6} / {total:<6} {100 * ok / total:6.2f}%")
    for message, count in messages.most_common():
        print(f"  {count:5}  {message}")
    for message, _ in messages.most_common(args.show):
        print("\n" + examples[message])
    for crash in crashes:
        print("CRASH", crash)
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
