"""The ``asyncshader`` command line."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="asyncshader",
                                     description="Run GPU shaders on the CPU as coroutines.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="a racy counter: different seeds, different results; replay")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from .demo import main as demo
        return demo()
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":
    sys.exit(main())
