"""The benchmark scripts still run and check their own results (tiny sizes; no timing here)."""

import subprocess
import sys

import pytest
from helpers import ROOT

SMALL = {
    "reduce.py": ["--groups", "2", "--repeat", "1", "--no-oclgrind"],
    "fragments.py": ["--size", "8", "--repeat", "1"],
    "fragment_floor.py": ["--size", "8", "--repeat", "1"],
    "detector_rows.py": ["--rows", "64", "--repeat", "1"],
    "random_floor.py": ["--groups", "2", "--repeat", "1"],
    "memory.py": ["--groups", "2"],
    "builtins.py": ["--number", "10", "--repeat", "1"],
    "builtins_bits.py": ["--number", "20", "--repeat", "1"],
    "structs.py": ["--loads", "20", "--repeat", "1"],
    "stepper.py": ["--size", "4", "--repeat", "1"],
    "timeline.py": ["--groups", "1", "--repeat", "1"],
    "f16.py": ["--number", "10", "--repeat", "1", "--groups", "1"],
    "subgroups.py": ["--groups", "2", "--repeat", "1"],
    "matrices.py": ["--number", "10", "--repeat", "1"],
    "emit.py": ["--repeat", "1", "--kernels", "reduce,quad_downsample"],
    "fairness.py": ["--seeds", "1", "--cap", "3"],
    "reconvergence.py": ["--groups", "1", "--repeat", "1"],
    "value_stores.py": ["--n", "20", "--repeat", "1"],
    "module_bindings.py": ["--loads", "20", "--groups", "2", "--repeat", "1"],
    "live_workgroups.py": ["--groups", "2", "--repeat", "1"],
    "textures.py": ["--loads", "5", "--repeat", "1"],
    "wgsl_corpus.py": ["tests/data/tint/access"],
    "generated.py": ["--groups", "2", "--repeat", "1"],
    "wgsl_load.py": ["tests/data/tint/loops"],
    "wgsl_speed.py": ["--groups", "1", "--bodies", "64", "--repeat", "1"],
    "lockstep.py": ["--boids", "64", "--groups", "2", "--fragments", "8", "--rows", "4",
                    "--repeat", "1", "--no-gpu"],
    "lockstep_memory.py": ["--boids", "64", "--groups", "2", "--big-groups", "2"],
    "lockstep_suite.py": ["--files", "racy_counter"],
    "webgpu_submit.py": ["--n", "64", "--number", "2", "--repeat", "1"],
    "wgsl_values.py": ["--groups", "1", "--repeat", "1"],
}


@pytest.mark.parametrize("script", sorted(SMALL))
def test_benchmark_runs_and_its_checks_pass(script):
    proc = subprocess.run([sys.executable, f"benchmarks/{script}", *SMALL[script]], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "asyncshader" in proc.stdout or "sanitize=" in proc.stdout, proc.stdout
    assert "Warning" not in proc.stderr, proc.stderr
