"""Public WGSL shaders ported to asyncshader as a user following the docs would write them
(tests/ports/port_*.py; the originals, with source and license, in tests/data/ports/, listed in
tests/data/README.md). For each entry point of each:

* the original runs on lavapipe with wgpu directly (tests/ports/wgsl_originals.py): the oracle;
* the port runs on the CPU, in order and under random schedules, with the race detector on,
  and its outputs equal the original's: exactly, except where the original calls a built-in
  that lavapipe computes a few ulp away from the correctly rounded result (sqrt, exp, tanh),
  within the port's measured TOLERANCE (rtol, atol) for that entry point;
* the port's own WGSL (``to_wgsl``) runs on lavapipe through ``ash.crosscheck``, equals the
  port's CPU run (within crosscheck's 4 ulp or the port's atol), and equals the original's
  outputs bit for bit;
* the port's emitted module declares the original's bindings: each at the original's
  @group/@binding, in the same address space and access mode."""

import importlib

import numpy as np
import pytest
import wgsl_originals

import asyncshader as ash

PORTS = ["port_hello_workgroups", "port_game_of_life", "port_boids", "port_layer_norm",
         "port_attn_softmax", "port_mlp", "port_bitonic_sort"]
SCHEDULES = [ash.InOrder(), ash.Random(1), ash.Random(20)]


def _cases():
    """(port, entry point, setup's keyword arguments): a port with STEPS (one dispatch of a
    multi-pass algorithm each) gives one case per step."""
    for name in PORTS:
        port = importlib.import_module(name)
        for entry in port.KERNELS:
            for step in getattr(port, "STEPS", [None]):
                yield name, entry, ({} if step is None else {"step": step})


CASES = [pytest.param(n, e, kw, id="-".join([n, e, *map(str, kw.values())]))
         for n, e, kw in _cases()]


def _original(port, entry, bindings, device):
    wgsl = (port.original_source() if hasattr(port, "original_source")
            else wgsl_originals.source(port.ORIGINAL))
    return wgsl_originals.run(device, wgsl, entry, port.WORKGROUPS,
                              **port.original_bindings(bindings))


def _tolerance(port, entry) -> tuple[float, float]:
    return getattr(port, "TOLERANCE", {}).get(entry, (0.0, 0.0))


def _members(a: np.ndarray, label: str):
    """(label, array) of each scalar, vector or matrix member of ``a``, nested structs (a
    struct ending in a runtime-sized array of structs) opened down to their members."""
    if a.dtype.names is None:
        yield label, a
        return
    for member in a.dtype.names:
        yield from _members(a[member], f"{label}.{member}")


def _assert_equal(port, got: dict, want: dict, what: str, tolerance=(0.0, 0.0)):
    rtol, atol = tolerance
    for original_name, name in port.OUTPUTS.items():
        a = np.asarray(got[name])
        b = want[original_name].view(a.dtype).reshape(a.shape)
        for (label, x), (_, y) in zip(_members(a, f"{what}: {name}"), _members(b, ""),
                                      strict=True):
            if x.dtype.kind == "f" and (rtol or atol):
                np.testing.assert_allclose(x, y, rtol=rtol, atol=atol, err_msg=label)
            else:
                np.testing.assert_array_equal(x, y, err_msg=label)


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
@pytest.mark.parametrize(("name", "entry", "kw"), CASES)
def test_the_port_on_the_cpu_equals_the_original_on_lavapipe(name, entry, kw, schedule,
                                                              gpu_device):
    port = importlib.import_module(name)
    bindings = port.setup(**kw)
    want = _original(port, entry, bindings, gpu_device)
    result = ash.run(port.KERNELS[entry], port.WORKGROUPS, schedule=schedule, **bindings)
    assert result.findings == []
    _assert_equal(port, bindings, want, f"CPU under {schedule!r}", _tolerance(port, entry))


def _emit_cases():
    for case in CASES:
        blocked = getattr(importlib.import_module(case.values[0]), "EMIT_BLOCKED", None)
        marks = [pytest.mark.xfail(reason=blocked, strict=True)] if blocked else []
        yield pytest.param(*case.values, marks=marks, id=case.id)


@pytest.mark.parametrize(("name", "entry", "kw"), list(_emit_cases()))
def test_the_ports_emitted_wgsl_equals_the_original_on_lavapipe(name, entry, kw, gpu_device):
    port = importlib.import_module(name)
    bindings = port.setup(seed=5, **kw)
    want = _original(port, entry, bindings, gpu_device)
    report = ash.crosscheck(port.KERNELS[entry], port.WORKGROUPS, device=gpu_device,
                            atol=_tolerance(port, entry)[1], **bindings)
    assert report.ok, report.describe()
    _assert_equal(port, report.gpu, want, "the emitted WGSL")


@pytest.mark.parametrize(("name", "entry"), sorted({(n, e) for n, e, _ in _cases()}))
def test_the_port_declares_the_originals_bindings_at_their_group_and_binding(name, entry):
    """Each binding of the emitted module sits at the original's @group/@binding, in the same
    address space and access mode (by position: the port's names are snake_case)."""
    port = importlib.import_module(name)
    wgsl = (port.original_source() if hasattr(port, "original_source")
            else wgsl_originals.source(port.ORIGINAL))
    ours = wgsl_originals.declarations(ash.to_wgsl(port.KERNELS[entry]))
    assert sorted(ours.values()) == sorted(wgsl_originals.declarations(wgsl).values())


# ------------------------------------------------------------------ the comparison can fail
def test_the_comparison_finds_one_ulp_in_an_exact_port_and_a_struct_member():
    import port_boids
    import port_layer_norm

    want = {"output": np.array([1.0, 2.0], np.float32)}
    got = {"output": np.nextafter(want["output"], np.float32(3))}
    with pytest.raises(AssertionError, match="output"):
        _assert_equal(port_layer_norm, got, want, "wrong on purpose")
    particles = port_boids.Particles.zeros(length=2)
    wrong = particles.copy()
    wrong["particles"]["vel"][1, 0] = 0.5
    with pytest.raises(AssertionError, match=r"particles_b\.particles\.vel"):
        _assert_equal(port_boids, {"particles_b": wrong}, {"particlesB": particles},
                      "wrong on purpose", _tolerance(port_boids, "main"))
