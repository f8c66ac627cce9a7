"""How much of the project's own shader code emits WGSL: every ``@compute`` / ``@fragment``
``async def`` in examples/ and tests/ is lifted out of its file (with its module's names),
emitted with to_wgsl (no bindings: types from annotations and use only) and, with a device,
compiled by naga. Run it as a script for the table in docs/to-gpu.md::

    python tests/emit/kernel_census.py [--validate]

Categories: ``emits`` (and ``validates``), ``needs bindings`` (a type only the arrays would
give: the error says so), ``unsupported`` (a construct WGSL cannot express: the documented
error), ``not loadable`` (the kernel reads names of the test function around it, so it cannot
be lifted out alone), ``crash`` (any other exception: an emitter bug)."""

from __future__ import annotations

import ast
import importlib.util
import sys
import tempfile
import textwrap
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def _decorated_kernels(tree: ast.Module) -> list[ast.AsyncFunctionDef]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.AsyncFunctionDef) and any(
                "compute" in ast.unparse(d) or "fragment" in ast.unparse(d)
                for d in node.decorator_list):
            out.append(node)
    return out


def _import(path: Path) -> Any:
    name = f"census_{path.parent.name}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    for folder in (str(path.parent), str(ROOT / "tests"), str(ROOT / "examples")):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def census(files: list[Path], out_dir: Path, device: Any = None) -> tuple[Counter, list]:
    """(counts by category, [(file:line, category, detail)])."""
    import asyncshader as ash
    from asyncshader.emit import WGSLEmitError, to_wgsl

    counts: Counter = Counter()
    rows = []
    for path in files:
        source = path.read_text()
        tree = ast.parse(source)
        kernels = _decorated_kernels(tree)
        if not kernels:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                module = _import(path)
        except Exception as exc:  # a file that does not import alone
            for k in kernels:
                counts["not loadable"] += 1
                rows.append((f"{path.name}:{k.lineno}", "not loadable", repr(exc)[:80]))
            continue
        for k in kernels:
            first = k.decorator_list[0].lineno
            text = textwrap.dedent("\n".join(source.splitlines()[first - 1:k.end_lineno]))
            lifted = out_dir / f"{path.stem}_{k.lineno}.py"
            lifted.write_text(text + "\n")
            where = f"{path.relative_to(ROOT)}:{k.lineno}"
            namespace = dict(vars(module))
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    exec(compile(text, str(lifted), "exec"), namespace)
                kernel = namespace[k.name]
                if not isinstance(kernel, (ash.ComputeKernel, ash.FragmentShader)):
                    raise NameError("not a kernel after lifting")
            except Exception as exc:
                counts["not loadable"] += 1
                rows.append((where, "not loadable", f"{type(exc).__name__}: {exc}"[:100]))
                continue
            try:
                text = to_wgsl(kernel)
            except WGSLEmitError as exc:
                category = "needs bindings" if "cannot be inferred" in str(exc) else \
                    "not loadable" if "is not defined" in str(exc) else "unsupported"
                counts[category] += 1
                rows.append((where, category, str(exc).split(": ", 2)[-1][:140]))
                continue
            except Exception as exc:
                counts["crash"] += 1
                rows.append((where, "crash", f"{type(exc).__name__}: {exc}"[:140]))
                continue
            counts["emits"] += 1
            if device is not None:
                from asyncshader.extra.device import ShaderRejected, validate

                try:
                    validate(text, device)
                    counts["validates"] += 1
                except ShaderRejected as exc:
                    rows.append((where, "rejected", str(exc).split("\n")[2:8]))
                    continue
            rows.append((where, "emits", ""))
    return counts, rows


def project_files() -> list[Path]:
    files = sorted((ROOT / "examples").glob("*.py")) + sorted((ROOT / "tests").rglob("test_*.py"))
    return [f for f in files if "census" not in f.name]


def main() -> None:
    device = None
    if "--validate" in sys.argv:
        from asyncshader.extra.device import device as open_device

        device = open_device()
    with tempfile.TemporaryDirectory() as tmp:
        counts, rows = census(project_files(), Path(tmp), device)
    for row in rows:
        if row[1] != "emits" or "-v" in sys.argv:
            print(*row, sep="  |  ")
    total = sum(v for k, v in counts.items() if k != "validates")
    print(dict(counts), "of", total)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
