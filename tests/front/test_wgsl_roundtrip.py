"""The round trip: every examples/ kernel that ``ash.to_wgsl`` emits loads back through
``ash.load_wgsl`` and, run on the same inputs under the same schedule, leaves the same bytes
in every buffer as the Python kernel it came from (both run on asyncshader's runtime with
WGSL's semantics, so the comparison is exact). A kernel whose WGSL ``load_wgsl`` refuses today
is a strict xfail carrying the refusal: it runs when the code generator takes the construct;
so is one whose loaded run fails (the failure named). Fragment shaders run with
``run_fragments`` on both sides.
The bindings are those the emitter's own tests dispatch (tests/emit/test_examples_on_gpu.py)."""

import copy

import numpy as np
import pytest
from helpers import load_example

import asyncshader as ash
from asyncshader.emit import emit
from asyncshader.wgsl.struct_buffers import write_value
from asyncshader.wgsl.structs import is_struct


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
    ("particles.py", "step"): None,
    ("median_filter.py", "median3x3"): None,
    ("boids.py", "update"): None,
    ("speed_bins.py", "histogram"): None,
}
#: the examples' fragment shaders, run with run_fragments on both sides
FRAGMENTS = {
    ("fwidth_ring.py", "ring"): None,
    ("quad_downsample.py", "downsample"): None,
    ("mip_level.py", "mip_level"): None,
}
#: kernels whose two runs may round differently, and the bound: particles' ``u.spin * d``
#: (a mat2x2f times a vec2f) is one numpy product in the Python kernel and WGSL's sum of
#: column products in the loaded one; velocity + swirl * pull + gravity then cancels
#: (tests/emit/test_examples_on_gpu.py measured 9 ULP against lavapipe and allows 32)
ULPS = {("particles.py", "step"): 32}


def _close(a, b, ulps, name):
    """Every float of two arrays (of structs: field by field) within ``ulps`` ULP; the rest
    exact."""
    for field in a.dtype.names or [None]:
        x, y = (a, b) if field is None else (a[field], b[field])
        if x.dtype.kind != "f":
            assert x.tobytes() == y.tobytes(), (name, field)
            continue
        bound = ulps * np.spacing(np.maximum(np.abs(x), np.abs(y)))
        assert np.all(np.abs(x.astype(np.float64) - y) <= bound), (name, field)


def _param(key, refusal):
    reason = refusal if refusal and ":" in refusal else \
        f"not supported yet by load_wgsl: {refusal}"
    raises = ash.ShaderError if refusal and ":" in refusal else ash.ShaderCreationError
    marks = [pytest.mark.xfail(strict=True, raises=raises, reason=reason)] if refusal else []
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
    for kernel_run, values in ((shader, ours), (loaded, _as_bytes(back))):
        ash.run(kernel_run, workgroups, schedule=ash.InOrder(), sanitize="off",
                **_shader_args(shader, values))
    arrays = [k for k, v in arguments.items() if isinstance(v, np.ndarray)]
    assert arrays
    for name in arrays:
        if (example, kernel) in ULPS:
            _close(ours[name], back[name], ULPS[(example, kernel)], name)
        else:
            assert ours[name].tobytes() == back[name].tobytes(), name
    assert any(ours[k].tobytes() != arguments[k].tobytes() for k in arrays)  # (it ran)


@pytest.mark.parametrize("example, kernel", [_param(k, r) for k, r in FRAGMENTS.items()])
def test_a_fragment_shader_emitted_and_loaded_back_gives_the_python_shaders_outputs(
        example, kernel):
    shader = getattr(load_example(example), kernel)
    given = dict(_given()[(example, kernel)])
    code = emit(shader, **_shader_args(shader, given))
    loaded = ash.load_wgsl(code.source)[code.entry]
    width, height = given.pop("width"), given.pop("height")
    ours, back = copy.deepcopy(given), copy.deepcopy(given)
    want = ash.run_fragments(shader, width, height, **ours).output
    got = ash.run_fragments(loaded, width, height, **back).output
    assert sorted(got) == sorted(want)
    for name in want:  # (each output target, and every buffer the shader stores into)
        assert np.asarray(got[name]).tobytes() == np.asarray(want[name]).tobytes(), name
    for name, value in given.items():
        if isinstance(value, np.ndarray):
            assert ours[name].tobytes() == back[name].tobytes(), name


def test_every_example_kernel_is_listed():
    found = set()
    for path in sorted(load_example.__globals__["EXAMPLES"].glob("*.py")):
        module = load_example(path.name)
        found |= {(path.name, k) for k, v in vars(module).items()
                  if isinstance(v, (ash.ComputeKernel, ash.FragmentShader))}
    assert found - set(KERNELS) - set(FRAGMENTS) == {("textured_floor.py", "textured_floor")}


def _as_bytes(given):
    """The Python kernel's struct values (an example's ``Params(...)``) as the bytes of its
    uniform, in the example struct's layout: the loaded module has a struct class of its own,
    and takes a buffer's bytes, as a GPU does."""
    out = dict(given)
    for name, value in given.items():
        if is_struct(type(value)):
            one = type(value).zeros()
            write_value(one, value)
            out[name] = one.tobytes()
    return out


def _shader_args(shader, given):
    names = set(shader.params)
    names |= set(shader.scan()[3]) if shader.stage == "compute" else set()
    return {k: v for k, v in given.items() if k in names}
