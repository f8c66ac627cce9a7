"""to_wgsl for bindings beyond the entry point's parameters: a helper that takes a storage
buffer, a uniform or a workgroup array is emitted once per binding it is called with, naming
that module-scope variable (WGSL cannot pass a buffer by value, and a pointer parameter into
storage needs unrestricted_pointer_parameters, which is not in the baseline)."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32
from asyncshader.emit import WGSLEmitError, to_wgsl

tile = ash.workgroup(ash.array(f32, 8))


def doubled(buf, i: u32) -> f32:
    return buf[i] * 2.0


def scaled(buf, k, i: u32) -> f32:
    return doubled(buf, i) * k          # (passes the binding on to another helper)


async def publish(t, i: u32, v: f32):
    t[i] = v
    await ash.workgroup_barrier()


@ash.compute(workgroup_size=8)
async def mix(a: ash.Storage[f32], b: ash.ReadOnly[f32], k: f32, *,
              local_invocation_index: u32):
    i = local_invocation_index
    await publish(tile, i, doubled(a, i) + scaled(b, k, i))
    a[i] = tile[7 - i]


def test_a_helper_taking_a_binding_is_specialised_to_it_and_names_it():
    text = to_wgsl(mix)
    assert "fn doubled(i: u32) -> f32 {\n    return a[i] * 2.0;\n}" in text
    assert "fn doubled_2(i: u32) -> f32 {\n    return b[i] * 2.0;\n}" in text
    assert "fn scaled(i: u32) -> f32 {\n    return doubled_2(i) * k;\n}" in text
    assert "fn publish(i: u32, v: f32) {\n    tile[i] = v;" in text
    assert "publish(i, doubled(i) + scaled(i));" in text


def test_helpers_taking_bindings_agree_with_lavapipe(crosscheck):
    a, b = np.arange(8, dtype=np.float32), np.full(8, 0.5, np.float32)
    report = crosscheck(mix, 1, a=a, b=b, k=3.0)
    # a[i] = tile[7 - i] = 2 * a[7 - i] + 2 * b[7 - i] * 3
    assert report.gpu["a"].tolist() == (2 * a[::-1] + 3.0).tolist()


def doubled_plus_next(buf, i: u32) -> f32:
    a = buf[i] * 2.0                    # (a local named like the binding passed as buf)
    return a + buf[i + 1]


def at_index(buf, a: u32) -> f32:      # (a parameter named like it)
    return buf[a]


@ash.compute(workgroup_size=4)
async def shadowing(a: ash.Storage[f32], out: ash.Storage[f32], *,
                    local_invocation_index: u32):
    i = local_invocation_index
    out[i] = doubled_plus_next(a, i) + at_index(a, i)


def test_a_helpers_names_do_not_hide_the_binding_it_names(crosscheck):
    text = to_wgsl(shadowing)
    assert "    let a_ = a[i] * 2.0;\n    return a_ + a[i + 1];" in text
    assert "fn at_index(a_: u32) -> f32 {\n    return a[a_];" in text
    report = crosscheck(shadowing, a=np.arange(5, dtype=np.float32),
                        out=np.zeros(4, np.float32))
    # 2 a[i] + a[i + 1] + a[i] with a = 0 .. 4
    assert report.gpu["out"].tolist() == [1.0, 5.0, 9.0, 13.0]


def test_a_local_choosing_between_buffers_cannot_be_passed_to_a_helper():
    @ash.compute(workgroup_size=4)
    async def ping_pong(a: ash.Storage[f32], b: ash.Storage[f32], *,
                        local_invocation_index: u32):
        i = local_invocation_index
        src, dst = a, b
        for _ in range(2):
            dst[i] = doubled(src, i)
            src, dst = dst, src

    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_bindings.py:\d+: .*ping_pong: passing "
                       r"`src`, a local that names one of several buffers in turn, to doubled.*"
                       r"Fix: pass the buffer itself"):
        to_wgsl(ping_pong)


# ------------------------------------------------------------------------- @group / @binding
@ash.compute(workgroup_size=4)
async def placed(inp: ash.ReadOnly[f32, ash.at(group=1, binding=3)],
                 out: ash.Storage[f32, ash.at(2, 0)], scale: ash.Uniform[f32, ash.at(1, 0)],
                 bias: f32, *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = inp[i] * scale + bias


def test_a_binding_keeps_its_group_and_binding_and_the_others_their_position():
    text = to_wgsl(placed)
    assert "@group(1) @binding(3) var<storage, read> inp: array<f32>;" in text
    assert "@group(2) @binding(0) var<storage, read_write> out: array<f32>;" in text
    assert "@group(1) @binding(0) var<uniform> scale: f32;" in text
    assert "@group(0) @binding(3) var<uniform> bias: f32;" in text


def test_bindings_in_several_groups_agree_with_lavapipe(crosscheck):
    report = crosscheck(placed, inp=np.arange(4, dtype=np.float32),
                        out=np.zeros(4, np.float32), scale=2.0, bias=0.5)
    assert report.gpu["out"].tolist() == [0.5, 2.5, 4.5, 6.5]


@ash.compute(workgroup_size=4)
async def only_group_two(out: ash.Storage[u32, ash.at(2, 5)], *, local_invocation_index: u32):
    out[local_invocation_index] = local_invocation_index * 3


def test_groups_below_the_first_used_are_bound_empty_on_the_gpu(crosscheck):
    assert "@group(2) @binding(5) var<storage, read_write> out: array<u32>;" in \
        to_wgsl(only_group_two)
    assert crosscheck(only_group_two, out=np.zeros(4, np.uint32)).gpu["out"].tolist() == \
        [0, 3, 6, 9]


def test_two_resources_at_one_binding_point_are_an_error_naming_both():
    with pytest.raises(TypeError, match=r"k: 'a' and 'b' are both at @group\(0\) @binding\(1\)"):
        @ash.compute(workgroup_size=1)
        async def k(a: ash.Storage[f32, ash.at(0, 1)], b: ash.Storage[f32, ash.at(0, 1)]):
            pass

    @ash.compute(workgroup_size=1)
    async def by_position(a: ash.Storage[f32], b: ash.Storage[f32, ash.at(0, 0)]):
        a[0] = b[0]

    with pytest.raises(WGSLEmitError, match=r"by_position: 'a' and 'b' are both at @group\(0\) "
                       r"@binding\(0\) \(a resource without ash.at\(\.\.\.\) takes group 0 and its "
                       r"parameter's position\)"):
        to_wgsl(by_position)


def test_the_binding_point_is_part_of_the_annotation():
    assert repr(ash.Storage[f32, ash.at(1, 3)]) == "Storage[f32, at(group=1, binding=3)]"
    assert repr(ash.Storage[ash.at(0, 2)]) == "Storage[at(group=0, binding=2)]"
    assert ash.ReadOnly[f32, ash.at(1, 3)].element is f32
    assert ash.Uniform[f32, ash.at(1, 3)].point == ash.at(group=1, binding=3)
    with pytest.raises(TypeError, match="a fragment input has a @location, not a binding point"):
        ash.Input[f32, ash.at(0, 1)]
    with pytest.raises(TypeError, match="non-negative ints; group is -1"):
        ash.at(-1, 0)


# ------------------------------------------------------------------- module-scope bindings
@ash.struct
class Boid:
    pos: ash.vec2f
    vel: ash.vec2f


@ash.struct
class SimParams:
    dt: f32
    rule_scale: f32


params = ash.uniform(SimParams, group=0, binding=0)
boids_in = ash.storage(Boid, group=0, binding=1, access="read")
boids_out = ash.storage(Boid, group=0, binding=2)


def neighbour_pull(i: u32, n: u32) -> ash.vec2f:
    j = (i + 1) % n
    return (boids_in[j].pos - boids_in[i].pos) * params.rule_scale


@ash.compute(workgroup_size=8)
async def boids_step(*, global_invocation_id: ash.vec3u):
    i = global_invocation_id.x
    n = ash.array_length(boids_in)
    vel = boids_in[i].vel + neighbour_pull(i, n)
    boids_out[i].vel = vel
    boids_out[i].pos = boids_in[i].pos + vel * params.dt


def _boids() -> np.ndarray:
    b = Boid.zeros(8)
    b["pos"] = np.stack([np.arange(8), np.arange(8) ** 2], 1).astype(np.float32) * 0.125
    b["vel"][:, 0] = 0.5
    return b


def test_module_scope_bindings_are_declared_once_at_their_points_and_used_by_name():
    text = to_wgsl(boids_step)
    assert "@group(0) @binding(0) var<uniform> params: SimParams;" in text
    assert "@group(0) @binding(1) var<storage, read> boids_in: array<Boid>;" in text
    assert "@group(0) @binding(2) var<storage, read_write> boids_out: array<Boid>;" in text
    assert "fn neighbour_pull(i: u32, n: u32) -> vec2f {" in text
    assert "return (boids_in[j].pos - boids_in[i].pos) * params.rule_scale;" in text


def test_module_scope_bindings_agree_with_lavapipe(crosscheck):
    b = _boids()
    report = crosscheck(boids_step, boids_in=b, boids_out=Boid.zeros(8),
                        params=SimParams(dt=0.5, rule_scale=0.25))
    pull = (np.roll(b["pos"], -1, 0) - b["pos"]) * 0.25
    vel = b["vel"] + pull
    assert np.allclose(report.gpu["boids_out"]["vel"], vel, rtol=0, atol=1e-6)
    assert np.allclose(report.gpu["boids_out"]["pos"], b["pos"] + vel * 0.5, rtol=0, atol=1e-6)
