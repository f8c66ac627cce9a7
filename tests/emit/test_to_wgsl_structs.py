"""to_wgsl for @ash.struct: declarations with @align/@size where the layout needs them, struct
buffers in storage (arrays of structs, and one struct ending in a runtime-sized array) and
uniform, member access and stores, the constructor (members not given are zero),
arrayLength of a member; the cross-check copies struct buffers as bytes and compares them
member by member."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, mat2x2f, u32, vec2f, vec3f
from asyncshader.emit import WGSLEmitError, to_wgsl
from asyncshader.extra.gpu import crosscheck as run_both


@ash.struct
class Body:
    position: vec3f                  # 0
    mass: f32                        # 12
    history: ash.array(vec2f, 4)     # 16
    spin: ash.align(32, mat2x2f)     # 64 (@align(32): natural 8)
    tag: ash.size(16, u32)           # 80 (@size(16)); size 96


@ash.struct
class Counted:
    count: u32
    data: ash.runtime_array(f32)


@ash.struct
class Knobs:
    scale: f32
    shift: vec2f


@ash.compute(workgroup_size=4)
async def fall(p, b, k: ash.Uniform[Knobs], *, global_invocation_id):
    i = global_invocation_id.x
    p[i].mass = p[i].mass * k.scale
    p[i].position.y += k.shift.x
    p[i].history[1] = p[i].position.xy
    p[i].spin[1] = vec2f(f32(i), k.shift.y)
    p[i + 4] = Body(mass=f32(i), tag=u32(7))
    if i < ash.array_length(b.data):
        b.data[i] = f32(i) * 2.0
    if i == 0:
        b.count = ash.array_length(b.data)


def _bodies():
    p = Body.zeros(8)
    p["position"] = np.arange(24, dtype=np.float32).reshape(8, 3)
    p["mass"] = 1.5
    return p


def test_struct_declarations_keep_the_layout_with_align_and_size():
    text = to_wgsl(fall, p=_bodies(), b=Counted.zeros(length=6))
    assert ("struct Body {\n    position: vec3f,\n    mass: f32,\n    history: array<vec2f, 4>,"
            "\n    @align(32) spin: mat2x2f,\n    @size(16) tag: u32,\n}") in text
    assert "struct Counted {\n    count: u32,\n    data: array<f32>,\n}" in text
    assert "struct Knobs {\n    scale: f32,\n    shift: vec2f,\n}" in text
    assert "var<storage, read_write> p: array<Body>;" in text
    assert "var<storage, read_write> b: Counted;" in text
    assert "var<uniform> k: Knobs;" in text
    assert "p[i].position.y += k.shift.x;" in text
    assert "p[i + 4] = Body(vec3f(), f32(i), array<vec2f, 4>(), mat2x2f(), 7u);" in text
    assert "if i < arrayLength(&b.data) {" in text


def test_struct_buffers_agree_with_lavapipe_member_by_member(crosscheck):
    p, b = _bodies(), Counted.zeros(length=6)
    report = crosscheck(fall, 1, p=p, b=b, k=Knobs(scale=2.0, shift=vec2f(0.5, -1.0)))
    assert sorted(report.counts) == ["b.count", "b.data", "p.history", "p.mass", "p.position",
                                     "p.spin", "p.tag"]
    gpu = report.gpu["p"]
    assert gpu["mass"].tolist() == [3.0] * 4 + [0.0, 1.0, 2.0, 3.0]
    assert gpu["position"][1].tolist() == [3.0, 4.5, 5.0]
    assert gpu["history"][1, 1].tolist() == [3.0, 4.5]
    assert gpu["spin"][2].tolist() == [[0.0, 0.0], [2.0, -1.0]]
    assert gpu["tag"].tolist() == [0] * 4 + [7] * 4
    assert report.gpu["b"]["count"].item() == 6
    assert report.gpu["b"]["data"].tolist() == [0.0, 2.0, 4.0, 6.0, 0.0, 0.0]


def test_a_struct_difference_names_the_member(gpu_device):
    report = run_both(fall, 1, p=_bodies(), b=Counted.zeros(length=6),
                      k=Knobs(scale=2.0, shift=vec2f(0.5, -1.0)), device=gpu_device)
    report.gpu["p"]["mass"][2] = 9.0  # (as if the GPU had computed it differently)
    from asyncshader.extra.gpu import _compare, _Writers
    again = _compare(type("Code", (), {"source": report.wgsl}), report.cpu, report.gpu,
                     _Writers({}), (4, 0.0), (), None, gpu_device, False, [])
    assert "p.mass: 1 of 8 elements differ" in again.describe()
    assert "p.mass[2]: CPU 3.0, GPU 9.0" in again.describe()


@ash.compute(workgroup_size=1)
async def whole(b):
    b.count = 1
    b.data[0] = 1.0
    c = Counted(count=u32(2))
    b.count = c.count


def test_a_value_of_a_struct_with_a_runtime_sized_member_is_an_error():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_structs.py:\d+: whole: a Counted "
                       r"value \(it ends in a runtime-sized array\)"):
        to_wgsl(whole, b=Counted.zeros(length=2))


@ash.struct
class Shaded:
    color: ash.vec4f
    weight: f32


@ash.fragment
async def shade(position):
    return Shaded(color=ash.vec4f(position.x, 0, 0, 1), weight=f32(2.0))


def test_a_struct_value_no_binding_holds_is_declared_as_a_fragment_output(wgsl_device):
    from asyncshader.extra.gpu import validate

    text = to_wgsl(shade)
    assert "struct Shaded {\n    @location(0) color: vec4f,\n    @location(1) weight: f32,\n}" \
        in text
    assert "-> Shaded {" in text
    validate(text, wgsl_device)


@ash.compute(workgroup_size=1)
async def sets_a_uniform_member(u: ash.Uniform[Knobs]):
    u.scale = 1.0


@ash.compute(workgroup_size=1)
async def bumps_a_read_only_member(r: ash.ReadOnly[Body]):
    r[0].position.y += 1.0


def test_a_store_through_a_member_of_a_uniform_or_read_only_struct_names_the_binding():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_structs.py:\d+: sets_a_uniform_member: "
                       r"a write to u \(a read-only binding: var<uniform>\).*Fix: bind it as "
                       r"ash.Storage"):
        to_wgsl(sets_a_uniform_member)
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_structs.py:\d+: "
                       r"bumps_a_read_only_member: a write to r \(a read-only binding: "
                       r"var<storage, read>\)"):
        to_wgsl(bumps_a_read_only_member, r=Body.zeros(2))


@ash.compute(workgroup_size=4)
async def weigh(p: ash.ReadOnly[Body], out: ash.Storage[f32], *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = p[i].position.y * p[i].mass + p[i].history[1].x


def test_a_struct_buffer_bound_read_only_is_var_storage_read_and_agrees(crosscheck):
    p = _bodies()
    p["history"][:, 1, 0] = np.arange(8) * 0.25
    text = to_wgsl(weigh, p=p)
    assert "@group(0) @binding(0) var<storage, read> p: array<Body>;" in text
    report = crosscheck(weigh, 1, p=p, out=np.zeros(4, np.float32))
    expected = p["position"][:4, 1] * p["mass"][:4] + p["history"][:4, 1, 0]
    assert report.gpu["out"].tolist() == expected.tolist() == [1.5, 6.25, 11.0, 15.75]


@ash.compute(workgroup_size=1)
async def copy_out(p: ash.Storage[Body], out: ash.Storage[f32]):
    q = p[1].load()                # asyncshader's copy of an element; WGSL's load is one
    out[0] = q.mass + q.position.y


def test_load_of_a_struct_element_is_the_element(crosscheck):
    """(The census found `.load()` refused as "the attribute `.load` of a Body".)"""
    text = to_wgsl(copy_out)
    assert "let q = p[1];" in text
    p = Body.zeros(2)
    p["mass"][1], p["position"][1] = 2.5, (1.0, 3.0, 5.0)
    report = crosscheck(copy_out, p=p, out=np.zeros(1, np.float32))
    assert report.gpu["out"].tolist() == [5.5]                      # 2.5 + 3.0


@ash.struct
class Pair:
    a: f32
    b: u32


@ash.struct
class AfterAStruct:
    pair: Pair
    c: f32                         # at 8: the uniform space wants 16 after a struct member


@ash.compute(workgroup_size=1)
async def reads_c(p: ash.Storage[f32], u: ash.Uniform[AfterAStruct]):
    p[0] = u.c


@ash.fragment
async def reads_second(position, p: ash.Uniform[Pair]):
    return p[1].a


def test_the_emitter_refuses_what_the_runtime_refuses_to_bind_as_uniform():
    """The census found these emitted and then refused by naga; the runtime refuses to bind
    them (tests/wgsl/test_structs.py). The emitter says so with the runtime's words."""
    with pytest.raises(WGSLEmitError, match=r"reads_c: uniform 'u': member AfterAStruct.c is "
                       r"at offset 8.*Fix: declare it c: ash.align\(16, f32\)"):
        to_wgsl(reads_c)
    with pytest.raises(WGSLEmitError, match=r"reads_second: uniform 'p': array\(Pair, 2\) has a "
                       r"stride of 8 bytes.*Fix: "):
        to_wgsl(reads_second, p=Pair.zeros(2))
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_structs.py:\d+: reads_second: "
                       r"indexing p, one struct \(not an array of them\).*Fix: read its members"):
        to_wgsl(reads_second)   # (the annotation alone: one Pair, which is not indexable)
