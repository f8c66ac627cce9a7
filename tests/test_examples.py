"""The teaching examples: every ``examples/*.py`` runs as a script, and the four core examples'
``main()`` return values are checked against numpy (never against asyncshader's own output)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import load_example, numpy_tree_sum

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
ALL_EXAMPLES = sorted(p.name for p in EXAMPLES.glob("*.py") if not p.name.startswith("_"))

#: Lines (substrings) each core example must print when run as a script.
KEY_LINES = {
    "reduce.py": ["Tree reduction of 70,000 float32 values", "match: yes"],
    "prefix_sum.py": ["equal to np.cumsum: yes", "in 5 dispatches"],
    "matmul.py": ["Tiled matmul: (20x28) @ (28x12)", "match: yes"],
    "racy_counter.py": ["counter = 8  (correct, but only by luck)", "update(s) lost",
                        "The race detector is not fooled: 2 finding(s) in this very run",
                        "Race detector on the fixed kernel: no findings",
                        "replayed it with ash.Replay(path)", "identical",
                        "Random seeds [1, 2, 3, 4, 5, 6]: [8, 8, 8, 8, 8, 8]"],
    "particles.py": ["Particle: 48 bytes, align 16", "every particle aged 24 steps"],
    "subgroup_reduce.py": ["subgroup_size=  4: ", "subgroup_size=128: "],
    "stream_compaction.py": ["same values as numpy: yes", "a different order"],
    "subgroup_size_bug.py": ["subgroup_size=32: out[0] = 2080", "subgroup_size= 8: out[0] = 328",
                             "first failure: run 1: check failed", "(subgroup_size=4)"],
    "median_filter.py": ["3x3 median of a 24x16 image: same values as numpy: yes",
                         "the copy taken before the sort is the image: yes"],
    "boids.py": ["96 boids, 4 steps: same positions and velocities as numpy: yes"],
    "webgpu_reverse.py": ["without the barrier: same values as numpy: no",
                          "the device found 1 race(s)",
                          "submit 1, dispatch 0 of pass 0 'reverse': entry point 'main' of "
                          "reverse.wgsl",
                          "Read-write data race on workgroup memory tile",
                          "reverse.wgsl:10: reversed[id.x] = tile[15u - i];",
                          ".wgsl:8: tile[i] = values[id.x];",
                          "with the barrier: same values as numpy: yes, 0 finding(s)"],
    "quad_downsample.py": ["111x79 -> 56x40 (191 helper invocations", "same values as numpy: yes",
                           "box filter 0.500 (grey), point sampling (quadBroadcast id 0) 0.000"],
}
#: Output that signals a failed comparison inside an example.
BAD_MARKERS = ("match: NO", "np.cumsum: NO", "DIFFERENT", "as numpy: NO")




def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def test_core_examples_exist():
    for name in KEY_LINES:
        assert name in ALL_EXAMPLES, f"examples/{name} is missing"


# ------------------------------------------------------------------------- every example runs
def _run_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """Runs ``python *args`` with the working directory and TMPDIR both set to ``folder``, as a
    user who starts it there would (the package comes from ROOT, through PYTHONPATH)."""
    env = _env()
    env.update(TMPDIR=str(folder), TEMP=str(folder), TMP=str(folder))
    return subprocess.run([sys.executable, *args], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=120)


def _shadows(folder: Path) -> list[str]:
    """What in ``folder`` an ``import asyncshader`` started there would find instead of the
    package: a folder or module named asyncshader."""
    return sorted(p.name for p in folder.iterdir() if p.name.split(".")[0] == "asyncshader")


@pytest.mark.parametrize("name", ALL_EXAMPLES)
def test_example_runs_as_script(name, tmp_path):
    proc = _run_in(tmp_path, str(EXAMPLES / name))
    assert proc.returncode == 0, f"examples/{name} failed:\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr
    assert "DataRaceWarning" not in proc.stderr, "an example that races on purpose says so"
    assert proc.stdout.strip(), f"examples/{name} printed nothing"
    for line in KEY_LINES.get(name, []):
        assert line in proc.stdout, f"examples/{name}: expected {line!r} in:\n{proc.stdout}"
    for bad in BAD_MARKERS:
        assert bad not in proc.stdout, f"examples/{name} reported a mismatch:\n{proc.stdout}"
    # run by hand, an example writes where it is run (or where its argument says), and never
    # into a folder named asyncshader: started there, `import asyncshader` would find that
    # folder (an empty namespace package) instead of the package
    assert _shadows(tmp_path) == [], f"examples/{name} left {_shadows(tmp_path)} in {tmp_path}"
    written = {p.name for p in tmp_path.iterdir()}
    assert written <= {"fwidth_ring.png", "mip_level.png", "racy_counter_trace.json",
                       "particles.png", "quad_downsample.png", "textured_floor.png"}, written


def test_examples_and_demo_leave_nothing_that_shadows_the_package(tmp_path):
    """The example and demo paths the suite runs, started in a folder that is also TMPDIR:
    nothing named asyncshader appears there, and `import asyncshader` started there still finds
    the package."""
    for name in ALL_EXAMPLES:
        assert _run_in(tmp_path, str(EXAMPLES / name)).returncode == 0, name
    demo = _run_in(tmp_path, "-m", "asyncshader", "demo")
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert (tmp_path / "asyncshader-demo-trace.json").is_file()   # a file in TMPDIR, not a folder
    assert _shadows(tmp_path) == []
    # the package still imports from there when it is installed with `pip install -e` (whose
    # finder comes after the working directory's entry on sys.path: a folder named asyncshader
    # there wins, as an empty namespace package, and `dir(asyncshader) == []`)
    package = ROOT / "asyncshader"
    code = "\n".join([
        "import importlib.machinery, importlib.util, sys",
        "class Editable:",
        "    @staticmethod",
        "    def find_spec(name, path=None, target=None):",
        "        if name == 'asyncshader':",
        f"            init = {str(package / '__init__.py')!r}",
        "            return importlib.util.spec_from_file_location(name, init,",
        f"                submodule_search_locations=[{str(package)!r}])",
        "after = sys.meta_path.index(importlib.machinery.PathFinder) + 1",
        "sys.meta_path.insert(after, Editable)",
        "import asyncshader",
        "print(asyncshader.__file__, asyncshader.run.__name__)"])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(ROOT / "asyncshader" / "__init__.py"), "run"]


@pytest.mark.parametrize("name", ALL_EXAMPLES)
def test_example_has_docstring_and_main(name):
    source = (EXAMPLES / name).read_text(encoding="utf-8")
    assert 'if __name__ == "__main__":' in source
    assert "../shared" not in source and "/work/shared" not in source
    module = load_example(name)
    assert module.__doc__ and len(module.__doc__.strip().splitlines()) >= 3, \
        f"examples/{name} needs a module docstring that explains what it teaches"
    assert callable(getattr(module, "main", None)), f"examples/{name} needs a main()"


# ---------------------------------------------------------------- values, against numpy


def test_reduce_main_matches_numpy(capsys):
    out = load_example("reduce.py").main()
    values = out["values"]
    assert values.dtype == np.float32 and values.size == 70_000
    expected = values.sum(dtype=np.float64)
    assert out["numpy_sum"] == pytest.approx(expected)
    assert float(out["sum"]) == pytest.approx(expected, rel=1e-5)
    # f32 bit-exact: the same tree of float32 additions, done by numpy
    assert np.float32(out["sum"]).tobytes() == numpy_tree_sum(values, 256).tobytes()
    assert out["dispatches"] == 3            # 70,000 -> 274 -> 2 -> 1
    assert out["ok"] is True
    assert "match: yes" in capsys.readouterr().out


def test_speed_bins_main_matches_a_numpy_histogram(capsys):
    counts = load_example("speed_bins.py").main()
    speeds = np.random.default_rng(7).integers(0, 160, 256)
    edges = [0, 16, 32, 48, 64, 80, 96, 112, 10**9]          # 8 bins, the last open-ended
    assert counts == np.histogram(speeds, edges)[0].tolist()
    assert capsys.readouterr().out.count("same as numpy: yes") == 2


def test_prefix_sum_main_matches_cumsum(capsys):
    out = load_example("prefix_sum.py").main()
    block_in, multi_in = out["block_in"], out["multi_in"]
    assert block_in.size == 64 and multi_in.size == 5000
    # integer-valued float32 inputs: every prefix is exact, so equality is exact
    np.testing.assert_array_equal(out["block_out"], np.cumsum(block_in.astype(np.int64)))
    np.testing.assert_array_equal(out["multi_out"], np.cumsum(multi_in.astype(np.int64)))
    assert out["multi_out"].dtype == np.float32
    assert out["dispatches"] == 5            # scans of 5000, 79, 2 elements; 2 offset passes
    assert out["ok"] is True
    assert capsys.readouterr().out.count("equal to np.cumsum: yes") == 2


def test_matmul_main_matches_numpy(capsys):
    out = load_example("matmul.py").main()
    a, b, c = out["a"], out["b"], out["c"]
    assert a.shape == (20, 28) and b.shape == (28, 12) and c.shape == (20, 12)
    assert c.dtype == np.float32
    exact = a.astype(np.float64) @ b.astype(np.float64)
    # f32 accumulation error bound: k * eps * sum |a||b|
    bound = a.shape[1] * np.finfo(np.float32).eps * (np.abs(a) @ np.abs(b)).astype(np.float64)
    assert np.all(np.abs(c - exact) <= bound + 1e-30)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)
    assert out["max_abs_error"] == pytest.approx(float(np.max(np.abs(c - exact))))
    assert out["ok"] is True
    assert "match: yes" in capsys.readouterr().out


def test_racy_counter_main(tmp_path, capsys):
    example = load_example("racy_counter.py")
    trace_path = tmp_path / "failing.json"
    out = example.main(trace_path)
    n = out["n"]
    assert n == 8
    assert out["in_order"] == n                       # correct by luck
    src = (EXAMPLES / "racy_counter.py").read_text(encoding="utf-8").splitlines()
    load = next(i for i, ln in enumerate(src, 1) if "# 1. load" in ln)
    store = next(i for i, ln in enumerate(src, 1) if "# 3. store" in ln)
    # ... yet the race detector finds the race in that very run: load vs store, store vs store
    assert out["in_order_races"] == [("read-write", (load, store)), ("write-write", (store,))]
    assert out["fixed_race_free"] is True
    assert set(out["random_tickets"].values()) == {n}  # atomics never lose an update
    random = out["random"]
    assert sorted(random) == [1, 2, 3, 4, 5, 6]
    assert all(1 <= v <= n for v in random.values())
    assert min(random.values()) < n, "no Random seed exposed the lost update"
    assert len(set(random.values())) >= 2, "different seeds should give different results"
    # the explanation's invariant: the last store decides the counter (computed from the reads
    # and the store order, independently of the final counter value)
    for seed, run in out["random_runs"].items():
        order, seen = run["order"], run["seen"]
        assert sorted(order.tolist()) == list(range(n)), seed
        assert run["counter"] == int(seen[int(np.argmax(order))]) + 1, seed
    assert out["failing"] == min(random.values())
    assert out["failing"] == random[out["failing_seed"]]
    assert out["replayed"] == out["failing"]
    assert out["replay_identical"] is True
    doc = json.loads(trace_path.read_text(encoding="utf-8"))
    assert doc["format"] == "asyncshader.trace"
    assert doc["strategy"] == {"name": "random", "seed": out["failing_seed"]}
    assert out["fixed"] == {s: n for s in random}
    assert out["fixed_in_order"] == n
    assert "update(s) lost" in capsys.readouterr().out
