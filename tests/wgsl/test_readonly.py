"""Read-only storage (WGSL ``var<storage, read>``): ``ash.ReadOnly[T]``, or an unannotated
read-only array. The shader sees the caller's memory (never a copy); a store is refused at the
shader's line, naming the binding; read-only buffers may alias each other but not a writable
one; their loads never race; an out-of-bounds load is robust access (zero, and a finding);
``array_length`` works on them (builtins.md §5.1, §7.5)."""

import inspect
import re

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f16, f32, u32, vec4f


def _line_of(fn, text: str) -> int:
    """The file line of the first line of ``fn``'s source containing ``text``."""
    lines, start = inspect.getsourcelines(fn)
    return start + next(k for k, line in enumerate(lines) if text in line)


def test_read_only_storage_is_the_callers_memory_not_a_copy():
    seen = []

    @ash.compute(workgroup_size=4)
    async def k(src: ash.ReadOnly[f32], out: ash.Storage, *, global_invocation_index: u32):
        i = global_invocation_index
        out[i] = src[i] * 2
        if i == 0:
            seen.append(src)

    src = np.arange(4, dtype=np.float32)
    src.flags.writeable = False
    out = np.zeros(4, np.float32)
    ash.run(k, src=src, out=out)
    assert out.tolist() == [0, 2, 4, 6]
    assert np.shares_memory(seen[0], src) and seen[0].ctypes.data == src.ctypes.data

    big = np.arange(1 << 20, dtype=np.float32)  # a writeable array bound read-only: a view too
    seen.clear()
    ash.run(k, workgroups=1, src=big, out=out)
    assert np.shares_memory(seen[0], big) and not seen[0].flags.writeable
    assert big.flags.writeable  # the caller's array keeps its own flag
    assert "src" not in ash.run(k, src=big, out=out).outputs  # only read_write buffers are outputs


def _store_kernels():
    @ash.compute(workgroup_size=2)
    async def element(src: ash.ReadOnly[u32], *, local_invocation_index: u32):
        src[local_invocation_index] = 1  # the store

    @ash.compute(workgroup_size=1)
    async def in_place(src: ash.ReadOnly):
        src += 1  # the store

    @ash.compute(workgroup_size=1)
    async def row(src: ash.ReadOnly[u32]):
        r = src[0:2]
        r[1] = 5  # the store

    @ash.compute(workgroup_size=1)
    async def fill(src: ash.ReadOnly[u32]):
        src.fill(0)  # the store

    @ash.compute(workgroup_size=1)
    async def copyto(src: ash.ReadOnly[u32]):
        np.copyto(src, 3)  # the store

    return [element, in_place, row, fill, copyto]


@pytest.mark.parametrize("sanitize", [None, "off"])
@pytest.mark.parametrize("kernel", _store_kernels(), ids=lambda k: k.__name__)
def test_a_store_is_refused_at_the_line_naming_the_binding(kernel, sanitize):
    src = np.arange(4, dtype=np.uint32)
    line = _line_of(kernel.shader_fn, "# the store")
    with pytest.raises(ash.ShaderError) as err:
        ash.run(kernel, src=src, sanitize=sanitize)
    text = str(err.value)
    assert re.search(rf"test_readonly.py:{line}\b", text), text
    assert "'src' is declared read-only" in text and "var<storage, read>" in text
    assert "declare the parameter ash.Storage" in text  # the fix
    assert isinstance(err.value.original, ash.ShaderTypeError)
    assert src.tolist() == [0, 1, 2, 3]


def test_an_unannotated_read_only_array_is_read_only_storage():
    # an unannotated read-only array binds as var<storage, read> (declaring it Uniform would
    # copy it)
    seen = []

    @ash.compute(workgroup_size=1)
    async def k(table, out):
        seen.append(table)
        out[0] = table[2]
        table[0] = 1

    table = np.arange(3, dtype=np.int32)
    table.flags.writeable = False
    out = np.zeros(1, np.int32)
    with pytest.raises(ash.ShaderError, match="'table' is declared read-only"):
        ash.run(k, table=table, out=out)
    assert out[0] == 2 and np.shares_memory(seen[0], table)


def test_read_write_storage_refuses_a_read_only_array_and_says_how():
    @ash.compute(workgroup_size=1)
    async def k(buf: ash.Storage):
        buf[0] = 1

    buf = np.zeros(2, np.float32)
    buf.flags.writeable = False
    with pytest.raises(ash.BindingError, match=r"read-only.*declare the parameter ash.ReadOnly"):
        ash.run(k, buf=buf)


def test_read_only_bindings_check_the_element_type():
    @ash.compute(workgroup_size=1)
    async def k(buf: ash.ReadOnly[f32]):
        pass

    with pytest.raises(ash.BindingError, match=r"declared ReadOnly\[f32\].*int32"):
        ash.run(k, buf=np.zeros(2, np.int32))
    with pytest.raises(ash.BindingError, match="float64 array"):
        ash.run(k, buf=np.zeros(2))
    assert repr(ash.ReadOnly[f32]) == "ReadOnly[f32]" and repr(ash.ReadOnly) == "ReadOnly"


def test_read_only_buffers_may_alias_each_other_but_not_a_writable_one():
    @ash.compute(workgroup_size=4)
    async def k(a: ash.ReadOnly[f32], b: ash.ReadOnly[f32], out: ash.Storage,
                *, global_invocation_index: u32):
        i = global_invocation_index
        out[i] = a[i] + b[3 - i]

    data = np.arange(8, dtype=np.float32)
    out = np.zeros(4, np.float32)
    ash.run(k, a=data, b=data[:4], out=out)  # read-only aliasing: allowed
    assert out.tolist() == [3, 3, 3, 3]
    with pytest.raises(ash.BindingError, match=r"'a' and 'out' share memory.*'a' is read-only"):
        ash.run(k, a=data[:4], b=data, out=data[2:6])
    with pytest.raises(ash.BindingError, match="'b' and 'out' share memory"):
        ash.run(k, a=np.zeros(4, np.float32), b=out, out=out)


def test_loads_of_read_only_storage_never_race():
    @ash.compute(workgroup_size=8)
    async def k(lut: ash.ReadOnly[u32], out: ash.Storage, *, local_invocation_index: u32):
        i = local_invocation_index
        out[i] = lut[0] + lut[i % 2]
        await ash.workgroup_barrier()
        out[i] = out[i] + lut[1]

    lut = np.array([10, 20], np.uint32)
    for seed in range(4):
        out = np.zeros(8, np.uint32)
        result = ash.run(k, schedule=ash.Random(seed), sanitize="error", lut=lut, out=out)
        assert result.findings == []
        assert out.tolist() == [40, 50] * 4


def test_an_out_of_bounds_load_is_robust_access_with_a_finding():
    @ash.compute(workgroup_size=1)
    async def k(lut: ash.ReadOnly[f32], out: ash.Storage):
        out[0] = lut[2]  # past the end
        out[1] = lut[-1]  # WGSL has no negative indices
        out[2] = lut[1]

    lut = np.array([1.5, 2.5], np.float32)
    out = np.full(3, 9.0, np.float32)
    result = ash.run(k, sanitize="report", lut=lut, out=out)
    assert out.tolist() == [0.0, 0.0, 2.5]
    oob = [f for f in result.findings if isinstance(f, ash.OutOfBounds)]
    assert sorted(f.index for f in oob) == [-1, 2]
    assert all(f.memory == "lut" and f.length == 2 and f.access.kind == "load" for f in oob)
    with pytest.raises(ash.ShaderError, match="IndexError"):  # sanitize="off": numpy's rules,
        ash.run(k, sanitize="off", lut=lut, out=out)  # as for every buffer


def test_array_length_of_read_only_and_vector_buffers():
    lengths = []

    @ash.compute(workgroup_size=1)
    async def k(a: ash.ReadOnly[f32], v: ash.ReadOnly, w: ash.Storage,
                h: ash.ReadOnly[f16]):
        lengths.extend([ash.array_length(a), ash.array_length(ash.ptr(v)), ash.array_length(w),
                        ash.array_length(h)])
        w[0] = vec4f(v[1]) * 2

    v = np.arange(12, dtype=np.float32).reshape(3, 4)  # array<vec4<f32>> of 3
    w = np.zeros((5, 4), np.float32)
    ash.run(k, a=np.zeros(7, np.float32), v=v, w=w, h=np.zeros(9, np.float16))
    assert lengths == [7, 3, 5, 9] and all(isinstance(n, np.uint32) for n in lengths)
    assert w[0].tolist() == [8, 10, 12, 14]

    @ash.compute(workgroup_size=1)
    async def uniform(u: ash.Uniform):
        ash.array_length(u)

    with pytest.raises(ash.ShaderError, match="uniform binding"):
        ash.run(uniform, u=np.zeros(3, np.float32))


def test_read_only_storage_in_a_fragment_shader():
    @ash.fragment
    async def shade(lut: ash.ReadOnly[f32], *, position):
        return lut[int(position.x)]

    lut = np.array([0.25, 0.5, 0.75, 1.0], np.float32)
    image = ash.run_fragments(shade, 4, 2, lut=lut)
    assert np.asarray(image.output).tolist() == [[0.25, 0.5, 0.75, 1.0]] * 2


@ash.struct
class Particle:
    pos: ash.vec3f
    mass: f32


def _particles() -> np.ndarray:
    ps = Particle.zeros(4)
    ps["pos"][:, 1] = [1.0, 2.0, 3.0, 4.0]
    ps["mass"] = [0.5, 1.0, 2.0, 4.0]
    return ps


def test_a_struct_buffer_bound_read_only_is_the_callers_memory():
    seen = []

    @ash.compute(workgroup_size=4)
    async def weigh(ps: ash.ReadOnly[Particle], out: ash.Storage[f32], *,
                    local_invocation_index: u32):
        i = local_invocation_index
        out[i] = ps[i].pos.y * ps[i].mass
        seen.append(ps)

    ps, out = _particles(), np.zeros(4, np.float32)
    ash.run(weigh, ps=ps, out=out)
    assert out.tolist() == [0.5, 2.0, 6.0, 16.0]
    assert ps.flags.writeable  # (the caller's array keeps its own writeability)
    frozen = _particles()
    frozen.flags.writeable = False  # an unannotated read-only struct array binds the same way
    ash.run(weigh, ps=frozen, out=out)
    assert out.tolist() == [0.5, 2.0, 6.0, 16.0]


def test_a_store_into_a_read_only_struct_buffer_is_refused_naming_the_binding():
    @ash.compute(workgroup_size=4)
    async def heavier(ps: ash.ReadOnly[Particle], *, local_invocation_index: u32):
        ps[local_invocation_index].mass = 3.0  # the store

    ps = _particles()
    line = _line_of(heavier.shader_fn, "# the store")
    with pytest.raises(ash.ShaderError) as err:
        ash.run(heavier, ps=ps)
    text = str(err.value)
    assert re.search(rf"test_readonly.py:{line}\b", text), text
    assert "'ps' is declared read-only" in text and "var<storage, read>" in text
    assert ps["mass"].tolist() == [0.5, 1.0, 2.0, 4.0]


def test_a_read_only_struct_buffer_may_not_alias_a_writable_one():
    @ash.compute(workgroup_size=1)
    async def k(src: ash.ReadOnly[Particle], dst: ash.Storage[Particle]):
        dst[0].mass = src[0].mass

    ps = _particles()
    with pytest.raises(ash.BindingError, match="'src' and 'dst' share memory"):
        ash.run(k, src=ps, dst=ps)
