"""A kernel loaded from WGSL goes to explore's workers by its source text (generated code does
not pickle): each worker loads the text once and finds the same failures as the serial
exploration; the pytest plugin's marker explores a loaded kernel's dispatches."""

import pickle
import re

import numpy as np
import pytest

import asyncshader as ash
from asyncshader.exploration import parallel
from asyncshader.front.wgsl.load import KernelRecipe

pytest_plugins = ["pytester"]

#: four invocations add one each to counter[0] through a read and a store a step apart: an
#: update is lost when another invocation stores in between
LOST_UPDATE = """
@group(0) @binding(0) var<storage, read_write> counter: array<u32>;
@group(0) @binding(1) var<storage, read_write> tickets: array<atomic<u32>>;

@compute @workgroup_size(4)
fn main() {
    let seen = counter[0];
    atomicAdd(&tickets[0], 1u);
    counter[0] = seen + 1u;
}
"""

racy = ash.load_wgsl(LOST_UPDATE)["main"]


def setup():
    return {"counter": np.zeros(1, np.uint32), "tickets": np.zeros(1, np.uint32),
            "allow_races": "counter"}


def check(result):
    assert result["counter"].tolist() == [4], f"lost update: {result['counter'].tolist()}"


def summary(report):
    return (report.runs, list(report.outcomes.items()), sorted(report.failing_outcomes),
            [(f.run, f.error, f.trace_string) for f in report.failures])


def test_a_loaded_kernel_travels_as_its_source_text_and_entry_point():
    recipe = parallel.reference(racy, "kernel", "workers=2")
    assert isinstance(recipe, KernelRecipe)
    assert (recipe.text, recipe.entry) == (LOST_UPDATE, "main")
    assert recipe.name.startswith("<wgsl ") and recipe.name.endswith(">.wgsl")
    # unpickled, it rebuilds the kernel (here: the one already loaded, from the cache)
    assert pickle.loads(pickle.dumps(recipe)).resolve() is racy


def test_a_kernel_loaded_from_a_file_rebuilds_under_the_files_name(tmp_path):
    path = tmp_path / "lost.wgsl"
    path.write_text(LOST_UPDATE, encoding="utf-8")
    kernel = ash.load_wgsl(path)["main"]
    recipe = pickle.loads(pickle.dumps(parallel.reference(kernel, "kernel", "workers=2")))
    assert recipe.name == str(path)
    path.unlink()  # the recipe holds the text: the file is not read again
    assert recipe.resolve() is kernel


@pytest.mark.parametrize("stop_on_failure", [True, False])
def test_two_workers_find_the_failures_of_the_serial_exploration(stop_on_failure):
    kw = dict(runs=100, stop_on_failure=stop_on_failure, store=None, progress=False)
    serial = ash.explore(racy, setup, check, ash.Random(3), workers=1, **kw)
    assert serial.failures and "lost update" in serial.failures[0].error
    together = ash.explore(racy, setup, check, ash.Random(3), workers=2, **kw)
    assert summary(together) == summary(serial)
    # the workers' first failing schedule replays here to a lost update
    counter = np.zeros(1, np.uint32)
    ash.run(racy, 1, schedule=together.failures[0].trace, sanitize="off", counter=counter,
            tickets=np.zeros(1, np.uint32))
    assert counter[0] < 4


def test_the_schedules_marker_explores_a_loaded_kernel_and_replays_its_failure(pytester):
    pytester.makepyfile(test_loaded=f'''
import numpy as np
import pytest
import asyncshader as ash

racy = ash.load_wgsl("""{LOST_UPDATE}""")["main"]

def count():
    counter = np.zeros(1, np.uint32)
    ash.run(racy, 1, counter=counter, tickets=np.zeros(1, np.uint32))
    return int(counter[0])

@pytest.mark.schedules(runs=40, strategy="random", races=False)
def test_counts():
    assert count() == 4

@pytest.mark.schedules(runs=3)
def test_race_free():
    count()
''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    # the race detector's report names the WGSL line and shows its text
    assert "the sanitizer found" in out and ">.wgsl:9" in out
    assert "counter[0] = seen + 1u;" in out
    lost = re.search(r"assert (\d) == 4", out).group(1)
    line = next(line for line in out.splitlines() if "reproduce: pytest 'test_loaded.py::"
                "test_counts'" in line)
    trace = re.search(r"--asyncshader-replay=(\S+)", line).group(1)
    again = pytester.runpytest("-p", "no:cacheprovider",
                               "test_loaded.py::test_counts", f"--asyncshader-replay={trace}")
    again.assert_outcomes(failed=1)
    assert f"assert {lost} == 4" in again.stdout.str()


def test_a_kernel_loaded_with_constants_rebuilds_with_them():
    wgsl = """
override size: u32;
@id(3) override scale: f32 = 1.0;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(size)
fn main(@builtin(local_invocation_index) i: u32) { out[i] = f32(i) * scale; }
"""
    kernel = ash.load_wgsl(wgsl, constants={"size": 3, 3: 0.5})["main"]
    recipe = pickle.loads(pickle.dumps(parallel.reference(kernel, "kernel", "workers=2")))
    assert recipe.constants == (("size", 3), (3, 0.5))
    rebuilt = recipe.resolve()
    assert rebuilt is kernel and rebuilt.workgroup_size == (3, 1, 1)
