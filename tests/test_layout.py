"""The package's layout is its layer diagram (docs/design.md, "Layers"): every import goes down
the layers or stays in its own, no two modules import each other (directly or round a longer
loop), and no module grows past about 600 lines without saying why at its top.

Imports are read from the source (every ``import`` and ``from ... import``, including those
inside functions and ``if TYPE_CHECKING:`` blocks: a lazy import is still a dependency)."""

import ast
from pathlib import Path

import pytest
from helpers import ROOT

PACKAGE = ROOT / "asyncshader"

#: the rule, bottom layer first: a module may import from its own layer and the layers below.
#: The public API (asyncshader/__init__.py) sits above everything it re-exports; the tools are
#: written against it, as a user's code would be.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("asyncshader.errors", "asyncshader._compat")),
    ("core", ("asyncshader._core",)),
    ("schedules", ("asyncshader.schedules",)),
    ("wgsl", ("asyncshader.wgsl",)),
    ("ir", ("asyncshader.ir",)),
    ("sanitizers", ("asyncshader.sanitizers",)),
    ("views", ("asyncshader.views",)),
    ("collectives", ("asyncshader.collectives",)),
    ("stages", ("asyncshader.stages",)),
    ("exploration", ("asyncshader.exploration",)),
    ("front", ("asyncshader.front",)),
    ("emit", ("asyncshader.emit",)),
    ("extra", ("asyncshader.extra",)),
    ("lockstep", ("asyncshader.lockstep",)),
    ("webgpu", ("asyncshader.webgpu",)),
    ("api", ("asyncshader",)),
    ("puzzles", ("asyncshader.puzzles",)),
    ("tools", ("asyncshader.tools",)),
    ("main", ("asyncshader.__main__",)),
]

#: modules allowed past MAX_LINES, each with its reason at the top of the file
MAX_LINES = 600
LONG_FILE_NOTE = "Why this file is long:"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path) -> set[str]:
    """The asyncshader modules that ``path`` imports, by full dotted name."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "asyncshader"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[:len(base_parts) - node.level + 1]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != "asyncshader":
                continue
            for alias in node.names:  # `from . import findings` names a module
                sub = f"{base}.{alias.name}"
                found.add(sub if is_module(sub) else base)
    return found


def layer_of(module: str) -> int:
    best, depth = None, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > depth:
                best, depth = index, len(prefix)
    assert best is not None, f"{module} belongs to no layer: add it to LAYERS"
    return best


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
GRAPH = {name: imports_of(path) - {name} for name, path in MODULES.items()}


def test_every_module_belongs_to_a_layer():
    for name in MODULES:
        layer_of(name)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_only_go_down_the_layers(module):
    mine = layer_of(module)
    climbs = sorted(f"{target} ({LAYERS[layer_of(target)][0]})" for target in GRAPH[module]
                    if layer_of(target) > mine)
    assert not climbs, (f"{module} ({LAYERS[mine][0]} layer) imports from a layer above it: "
                        f"{', '.join(climbs)}. Move the shared piece down, or pass it in.")


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of imports (as a list of modules, first repeated last), or None."""
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycles():
    cycle = find_cycle(GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_cycles():
    # (so that the test above can fail)
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_import_reader_resolves_relative_imports():
    # (so that the layer test above can fail: it sees where a relative import lands)
    assert imports_of(PACKAGE / "sanitizers" / "races.py") >= {
        "asyncshader.sanitizers.findings", "asyncshader._core.sources"}
    assert "asyncshader.schedules.trace" in imports_of(PACKAGE / "stages" / "dispatch.py")
    assert imports_of(PACKAGE / "_core" / "traps.py") == set()
    assert imports_of(PACKAGE / "collectives" / "__init__.py") == {"asyncshader._compat"}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_is_long_without_a_reason(module):
    text = MODULES[module].read_text()
    lines = text.count("\n")
    assert lines <= MAX_LINES or LONG_FILE_NOTE in text[:3000], (
        f"{MODULES[module].relative_to(ROOT)} has {lines} lines (more than {MAX_LINES}): split "
        f"it, or say at its top why it is one file ('{LONG_FILE_NOTE} ...')")


def test_tests_mirror_the_package():
    # every test folder is a folder of the package (tests/data and tests/oclgrind hold data;
    # tests/ports holds public shaders ported against the whole public API)
    folders = {p.name for p in (ROOT / "tests").iterdir()
               if p.is_dir() and not p.name.startswith((".", "__"))} - {"data", "oclgrind",
                                                                          "ports"}
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert folders <= packages, f"test folders with no package folder: {folders - packages}"
