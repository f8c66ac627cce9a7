"""The round trip: every examples/ kernel that ``ash.to_wgsl`` emits loads back through
``ash.load_wgsl`` and, run on the same inputs under the same schedule, leaves the same bytes
in every buffer as the Python kernel it came from (both run on asyncshader's runtime with
WGSL's semantics, so the comparison is exact). A kernel whose WGSL ``load_wgsl`` refuses today
is a strict xfail carrying the refusal: it runs when the code generator takes the construct.
The bindings are those the emitter's own tests dispatch (tests/emit/test_examples_on_gpu.py)."""

import copy

import numpy as np
import pytest
from helpers import load_example

import asyncshader as ash
from asyncshader.emit import emit


def _given():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "emit"))
    try:
        from test_examples_on_gpu import _bindings
    finally:
        sys.path.pop(0)
    given = _bindings()
    speed_bins = load_example("speed_bins.py").setup()
    speed_bins.pop("overrides")  # (BINS keeps its default, 4)
    given[("speed_bins.py", "histogram")] = speed_bins
    return given


#: compute kernels of examples/, with what load_wgsl refuses of their WGSL today
KERNELS = {
    ("reduce.py", "block_sum"): None,
    ("prefix_sum.py", "scan_blocks"): None,
    ("prefix_sum.py", "add_block_offsets"): None,
    ("matmul.py", "matmul_tiled"): None,
    ("racy_counter.py", "racy_increment"): None,
    ("racy_counter.py", "atomic_increment"): None,
    ("lost_update.py", "lost_update"): None,
    ("subgroup_reduce.py", "workgroup_sum"): None,
    ("stream_compaction.py", "compact"): None,
    ("subgroup_size_bug.py", "buggy_sum"): None,
    ("particles.py", "step"): "the type mat2x2f",
    ("median_filter.py", "median3x3"): "a 'var' of type array<f32, 9>",
    ("boids.py", "update"): "a comparison of vectors",
    ("speed_bins.py", "histogram"): "a var<storage> of type atomic<u32>",
}
#: the examples' fragment shaders (to_wgsl emits them; load_wgsl runs compute entry points)
FRAGMENTS = {
    ("fwidth_ring.py", "ring"): "struct members with attributes",
    ("mip_level.py", "mip_level"): "struct members with attributes",
    ("quad_downsample.py", "downsample"): "struct members with attributes",
}


def _param(key, refusal):
    marks = [pytest.mark.xfail(strict=True, raises=ash.ShaderCreationError,
                               reason=f"not supported yet by load_wgsl: {refusal}")
             ] if refusal else []
    return pytest.param(*key, id="::".join(key), marks=marks)


@pytest.mark.parametrize("example, kernel", [_param(k, r) for k, r in KERNELS.items()])
def test_a_kernel_emitted_and_loaded_back_gives_the_python_kernels_outputs(example, kernel):
    shader = getattr(load_example(example), kernel)
    given = _given()[(example, kernel)]
    workgroups = given.get("workgroups", 1)  # (subgroup_size_bug.py dispatches one)
    arguments = {k: v for k, v in given.items() if k != "workgroups"}
    code = emit(shader, **_shader_args(shader, arguments))
    loaded = ash.load_wgsl(code.source)[code.entry]  # (a refusal raises here: the xfail)
    ours, back = copy.deepcopy(arguments), copy.deepcopy(arguments)
    # (outputs only: racy_counter and lost_update race by design, and the emitted scan reads
    # both ping-pong arrays through select(), a read the Python kernel does not make)
    for kernel_run, values in ((shader, ours), (loaded, back)):
        ash.run(kernel_run, workgroups, schedule=ash.InOrder(), sanitize="off",
                **_shader_args(shader, values))
    arrays = [k for k, v in arguments.items() if isinstance(v, np.ndarray)]
    assert arrays
    for name in arrays:
        assert ours[name].tobytes() == back[name].tobytes(), name
    assert any(ours[k].tobytes() != arguments[k].tobytes() for k in arrays)  # (it ran)


@pytest.mark.parametrize("example, kernel", [_param(k, r) for k, r in FRAGMENTS.items()])
def test_a_fragment_shader_emitted_loads_back(example, kernel):
    shader = getattr(load_example(example), kernel)
    code = emit(shader, **_shader_args(shader, _given()[(example, kernel)]))
    module = ash.load_wgsl(code.source)
    assert code.entry in module.reflection.entry_points


def test_every_example_kernel_is_listed():
    found = set()
    for path in sorted(load_example.__globals__["EXAMPLES"].glob("*.py")):
        module = load_example(path.name)
        found |= {(path.name, k) for k, v in vars(module).items()
                  if isinstance(v, (ash.ComputeKernel, ash.FragmentShader))}
    assert found - set(KERNELS) - set(FRAGMENTS) == {("textured_floor.py", "textured_floor")}


def _shader_args(shader, given):
    names = set(shader.params)
    names |= set(shader.scan()[3]) if shader.stage == "compute" else set()
    return {k: v for k, v in given.items() if k in names}
