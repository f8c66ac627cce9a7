"""Storage buffers declared with a vector element (``Storage[vec3f]``, ``ReadOnly[vec4f]``): the
caller's (n, N) array, where ``buf[i]`` loads vector ``i`` as WGSL's ``array<vec3f>`` does, with
the race detector on (the default) and off. A component store through the loaded vector
(``buf[i].x = v``) reaches the caller's array and is a store to the race detector; an index
past the end is robust access (zeros and a finding); a read-only buffer refuses the store.
Arrays bound without a declared vector element keep numpy's rows."""

import copy

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f16, f32, i32, mat3x3f, u32, vec2u, vec3f, vec3i, vec4f, vec4h, vec4u
from asyncshader.sanitizers.findings import ImplicitConversion

MODES = ["report", "off"]  # the race detector on (TracedStorage views), and no instruments


def positions() -> np.ndarray:
    return np.array([[1.0, 2.0, 3.0], [-4.0, 5.5, 0.25], [0.0, -1.0, 8.0], [10.0, 20.0, 30.0]],
                    np.float32)


@pytest.mark.parametrize("sanitize", MODES)
def test_an_integer_index_loads_a_vector_of_the_declared_type(sanitize):
    seen = {}

    @ash.compute(workgroup_size=4)
    async def k(pos: ash.Storage[vec3f], *, local_invocation_index: u32):
        i = local_invocation_index
        seen[int(i)] = (pos[i], pos[i].x, pos[i].zyx, pos[i].xy)

    pos = positions()
    ash.run(k, pos=pos, sanitize=sanitize)
    for i, (v, x, zyx, xy) in seen.items():
        assert isinstance(v, vec3f) and not isinstance(v, np.ndarray)
        assert list(v) == pos[i].tolist() and all(type(c) is np.float32 for c in v)
        assert x == pos[i, 0] and type(x) is np.float32
        assert type(zyx).__name__ == "vec3f" and list(zyx) == pos[i, ::-1].tolist()
        assert type(xy).__name__ == "vec2f" and list(xy) == pos[i, :2].tolist()
    assert repr(seen[1][0]) == "vec3f(-4.0, 5.5, 0.25)"


@pytest.mark.parametrize("sanitize", MODES)
def test_vector_arithmetic_with_loaded_elements(sanitize):
    @ash.compute(workgroup_size=4)
    async def k(pos: ash.Storage[vec3f], out: ash.Storage[vec3f], d: ash.Storage[f32], *,
                local_invocation_index: u32):
        i = local_invocation_index
        out[i] = pos[i] * 2.0 + vec3f(1.0, 2.0, 3.0)
        d[i] = ash.dot(pos[i], pos[(i + 1) % 4]) + ash.length(pos[i] - pos[i])

    pos = positions()
    out, d = np.zeros((4, 3), np.float32), np.zeros(4, np.float32)
    ash.run(k, pos=pos, out=out, d=d, sanitize=sanitize)
    assert out.tolist() == (pos * 2 + np.array([1, 2, 3], np.float32)).tolist()
    assert d.tolist() == (pos * np.roll(pos, -1, axis=0)).sum(axis=1).tolist()


@pytest.mark.parametrize("sanitize", MODES)
def test_component_stores_through_the_loaded_vector_reach_the_callers_array(sanitize):
    @ash.compute(workgroup_size=4)
    async def k(pos: ash.Storage[vec3f], *, local_invocation_index: u32):
        i = local_invocation_index
        pos[i].x = f32(i)            # WGSL: pos[i].x = ...; a store into the buffer
        pos[i][1] = 7.0              # pos[i][1] = 7.0
        pos[i].z += 0.5              # a load and a store of one component
        pos[i, 2] *= 2.0             # one component, by two indices

    pos = positions()
    expected = positions()
    expected[:, 0], expected[:, 1] = [0, 1, 2, 3], 7.0
    expected[:, 2] = (expected[:, 2] + 0.5) * 2
    r = ash.run(k, pos=pos, sanitize=sanitize)
    assert pos.tolist() == expected.tolist() and r.findings == []
    assert r.outputs["pos"] is pos  # the caller's array, as for every storage buffer


@pytest.mark.parametrize("sanitize", MODES)
def test_whole_vector_stores_and_components_by_two_indices(sanitize):
    @ash.compute(workgroup_size=2)
    async def k(pos: ash.Storage[vec3f], out: ash.Storage[f32], *, local_invocation_index: u32):
        i = local_invocation_index
        out[i] = pos[i, 1] + pos[i][2]  # component j, two ways
        pos[i] = pos[i + 2] + vec3f(0.5)
        c = pos[i]                      # a local holding the element: a copy, as in WGSL
        c.y = -1.0                      # (memory keeps its value)

    pos, out = positions(), np.zeros(2, np.float32)
    ash.run(k, pos=pos, out=out, sanitize=sanitize)
    assert out.tolist() == [2.0 + 3.0, 5.5 + 0.25]
    assert pos[:2].tolist() == [[0.5, -0.5, 8.5], [10.5, 20.5, 30.5]]


@pytest.mark.parametrize("sanitize", MODES)
def test_half_and_integer_vector_buffers(sanitize):
    @ash.compute(workgroup_size=2)
    async def k(h: ash.Storage[vec4h], s: ash.Storage[vec3i], u: ash.ReadOnly[vec2u],
                out: ash.Storage[vec2u], *, local_invocation_index: u32):
        i = local_invocation_index
        h[i] = h[i] * f16(2.0) + vec4h(f16(0.5))
        h[i].w = h[i].x                    # f16 to f16
        s[i] = s[i] / vec3i(2) + s[i].zzx  # WGSL's i32 division truncates
        s[i].y = i32(-7)
        out[i] = u[i] + vec2u(u32(1))      # u32 wraps

    h = np.array([[1.5, -2.0, 0.125, 9.0], [3.0, 4.0, 5.0, 6.0]], np.float16)
    s = np.array([[-7, 5, 4], [9, -3, -8]], np.int32)
    u = np.array([[0xFFFFFFFF, 2], [5, 0]], np.uint32)
    out = np.zeros((2, 2), np.uint32)
    ash.run(k, h=h, s=s, u=u, out=out, sanitize=sanitize)
    doubled = np.array([[1.5, -2.0, 0.125, 9.0], [3.0, 4.0, 5.0, 6.0]]) * 2 + 0.5
    doubled[:, 3] = doubled[:, 0]
    assert h.tolist() == doubled.tolist()
    # by hand: trunc(-7 / 2) = -3, trunc(5 / 2) = 2, trunc(4 / 2) = 2; plus (z, z, x)
    assert s.tolist() == [[-3 + 4, -7, 2 - 7], [4 - 8, -7, -4 + 9]]
    assert out.tolist() == [[0, 3], [6, 1]]


def test_loaded_vectors_have_the_component_types():
    types = []

    @ash.compute(workgroup_size=1)
    async def k(h: ash.Storage[vec4h], s: ash.ReadOnly[vec3i], u: ash.Storage[vec2u]):
        types.extend([type(h[0]).__name__, type(h[0].x), type(s[0]).__name__, type(s[0].z),
                      type(u[0]).__name__, type(u[0].y)])

    ash.run(k, h=np.zeros((1, 4), np.float16), s=np.zeros((1, 3), np.int32),
            u=np.zeros((1, 2), np.uint32))
    assert types == ["vec4h", np.float16, "vec3i", np.int32, "vec2u", np.uint32]


@pytest.mark.parametrize("sanitize", MODES)
def test_read_only_vector_buffers_load_vectors_and_refuse_stores(sanitize):
    @ash.compute(workgroup_size=2)
    async def k(src: ash.ReadOnly[vec4f], out: ash.Storage[vec4f], *,
                local_invocation_index: u32):
        i = local_invocation_index
        out[i] = src[i].wzyx + src[1 - i] * 0.5

    @ash.compute(workgroup_size=1)
    async def component(src: ash.ReadOnly[vec4f]):
        src[1].x = 1.0  # the store

    @ash.compute(workgroup_size=1)
    async def whole(src: ash.ReadOnly[vec4f]):
        src[0] = vec4f(1.0)  # the store

    src = np.arange(8, dtype=np.float32).reshape(2, 4)
    out = np.zeros((2, 4), np.float32)
    ash.run(k, src=src, out=out, sanitize=sanitize)
    assert out.tolist() == [[3 + 2, 2 + 2.5, 1 + 3, 0 + 3.5], [7 + 0, 6 + 0.5, 5 + 1, 4 + 1.5]]
    with pytest.raises(ash.ShaderError, match=r"store refused: src\[1, 0\] = \.\.\..*'src' is "
                       "declared read-only"):
        ash.run(component, src=src, sanitize=sanitize)
    with pytest.raises(ash.ShaderError, match=r"store refused: src\[0\] = \.\.\."):
        ash.run(whole, src=src, sanitize=sanitize)
    assert src.tolist() == np.arange(8).reshape(2, 4).tolist()


@pytest.mark.parametrize("sanitize", MODES)
def test_built_ins_and_matrices_take_loaded_vectors_as_their_vector_type(sanitize):
    """A loaded vector is a subclass of its vector type (its component stores reach memory):
    the built-ins and matrix operations that look arguments up by type take it as the type."""
    @ash.compute(workgroup_size=1)
    async def k(f: ash.Storage[vec3f], u: ash.ReadOnly[vec4u], c: ash.ReadOnly[vec4f],
                out_f: ash.Storage[vec3f], out_u: ash.Storage[u32]):
        m = mat3x3f(f[0], f[1], f[2])            # columns
        out_f[0] = m * f[1]
        out_f[1] = f[1] * m
        out_f[2] = ash.normalize(f[2]) * ash.length(f[2])
        out_u[0] = ash.dot(ash.count_one_bits(u[0]), vec4u(1, 10, 100, 1000))
        out_u[1] = ash.insert_bits(u[0], u[1], 4, 4).x
        out_u[2] = ash.pack4x8unorm(c[0])

    f = np.array([[1, 2, 3], [4, 5, 6], [0, 3, 4]], np.float32)
    u = np.array([[0b1011, 0xFF, 0, 1], [0x5, 0, 0, 0]], np.uint32)
    c = np.array([[0, 1, 0.5, 1]], np.float32)
    out_f, out_u = np.zeros((3, 3), np.float32), np.zeros(3, np.uint32)
    ash.run(k, f=f, u=u, c=c, out_f=out_f, out_u=out_u, sanitize=sanitize)
    assert out_f[0].tolist() == (f.T @ f[1]).tolist()  # m * v: the columns, weighted by v
    assert out_f[1].tolist() == (f @ f[1]).tolist()    # v * m: dot(v, column c)
    assert out_f[2].tolist() == [0, 3, 4]
    assert out_u[0] == 3 * 1 + 8 * 10 + 0 * 100 + 1 * 1000
    assert out_u[1] == 0b1011 & ~0xF0 | 0x5 << 4
    assert out_u[2] == 0xFF << 24 | 128 << 16 | 0xFF << 8  # unorm: round(0.5 * 255) = 128


def test_values_made_from_a_loaded_vector_are_plain_vectors():
    made = []

    @ash.compute(workgroup_size=1)
    async def k(buf: ash.Storage[vec3f]):
        v = buf[0]
        made.extend([type(v)(1.0, 2.0, 3.0), vec3f(v), v * 1.0, copy.copy(v)])
        made[0].x = 9.0  # (not buf's)

    buf = positions()
    ash.run(k, buf=buf)
    assert all(type(w) is vec3f for w in made) and buf.tolist() == positions().tolist()
    assert [list(w) for w in made[1:]] == [[1.0, 2.0, 3.0]] * 3


# ------------------------------------------------------------------- the race detector
def test_two_invocations_storing_one_component_race():
    @ash.compute(workgroup_size=2)
    async def k(buf: ash.Storage[vec3f], *, local_invocation_index: u32):
        buf[3].x = f32(local_invocation_index)

    result = ash.run(k, buf=np.zeros((4, 3), np.float32), sanitize="report")
    races = {f.race: f for f in result.findings if isinstance(f, ash.DataRace)}
    ww = races["write-write"]
    assert ww.memory == "buf" and ww.index == (3, 0) and ww.address_space == "storage"
    assert ww.first.kind == ww.second.kind == "store"
    assert ww.first.source == ww.second.source == "buf[3].x = f32(local_invocation_index)"
    with pytest.raises(ash.DataRaceError):
        ash.run(k, buf=np.zeros((4, 3), np.float32), sanitize="error")


def test_whole_vector_stores_are_checked_per_component():
    @ash.compute(workgroup_size=2)
    async def k(buf: ash.Storage[vec3f], h: ash.Storage[vec4h], *,
                local_invocation_index: u32):
        buf[1] = vec3f(f32(local_invocation_index))  # both invocations: a race
        h[local_invocation_index] = vec4f(0.5)       # f32 into f16 memory: WGSL converts nothing

    buf, h = np.zeros((2, 3), np.float32), np.zeros((2, 4), np.float16)
    result = ash.run(k, buf=buf, h=h, sanitize="report")
    (race,) = [f for f in result.findings if isinstance(f, ash.DataRace)]
    assert race.race == "write-write" and race.memory == "buf" and race.index[0] == 1
    assert sorted(race.elements) == [(1, 0), (1, 1), (1, 2)]
    (conversion,) = [f for f in result.findings if isinstance(f, ImplicitConversion)]
    assert (conversion.memory, conversion.value_type, conversion.memory_type) == (
        "h", "vec4f", "vec4h")
    assert buf[1].tolist() == [1, 1, 1] and h.tolist() == [[0.5] * 4] * 2


def test_stores_to_different_components_of_one_vector_race_as_wgsl_says():
    """WGSL: a write to a component of a vector may access every component, so invocations
    touching different components of one vector must synchronize. The component store loads
    the vector first (the CPU's reference), which the detector sees."""
    @ash.compute(workgroup_size=2)
    async def k(buf: ash.Storage[vec3f], *, local_invocation_index: u32):
        if local_invocation_index == 0:
            buf[1].x = 1.0
        else:
            buf[1].y = 2.0

    buf = np.zeros((2, 3), np.float32)
    result = ash.run(k, buf=buf, sanitize="report")
    assert buf[1].tolist() == [1.0, 2.0, 0.0]
    assert any(isinstance(f, ash.DataRace) and f.memory == "buf" and f.index[0] == 1
               for f in result.findings)


def test_vector_loads_alone_never_race_and_are_recorded_as_loads():
    @ash.compute(workgroup_size=4)
    async def reads(buf: ash.Storage[vec3f], out: ash.Storage[f32], *,
                    local_invocation_index: u32):
        out[local_invocation_index] = buf[0].y + buf[1].z

    @ash.compute(workgroup_size=2)
    async def read_then_write(buf: ash.Storage[vec3f], *, local_invocation_index: u32):
        if local_invocation_index == 0:
            buf[0, 0] = 1.0  # one component, no load
        else:
            v = buf[0]  # loads every component: races with the store of component 0
            buf[1] = v

    result = ash.run(reads, buf=positions(), out=np.zeros(4, np.float32), sanitize="report")
    assert result.findings == []
    result = ash.run(read_then_write, buf=np.zeros((2, 3), np.float32), sanitize="report")
    (race,) = [f for f in result.findings if isinstance(f, ash.DataRace)]
    assert race.race == "read-write" and race.index == (0, 0)
    assert sorted(a.source.split("  #")[0] for a in (race.first, race.second)) == [
        "buf[0, 0] = 1.0", "v = buf[0]"]


def test_vector_loads_are_reported_to_access_instruments():
    seen = []

    class Accesses(ash.Instrument):
        wants_memory_access = True

        def memory_access(self, inv, memory, index, kind):
            flat = getattr(index, "flat", None)  # (a FlatIndex: flat positions in memory)
            seen.append((kind, flat.tolist() if flat is not None else index))

    @ash.compute(workgroup_size=1)
    async def k(buf: ash.Storage[vec3f]):
        v = buf[1]
        buf[0].z = v.x

    ash.run(k, buf=positions(), instruments=[Accesses()], sanitize="off")
    # the loads: every component of buf[1] (flat 3..5) and of buf[0]; the store: buf[0, 2]
    assert seen == [("load", [3, 4, 5]), ("load", [0, 1, 2]), ("store", (0, 2))]


# ------------------------------------------------------------------- out of bounds
def test_a_load_past_the_end_is_a_zero_vector_and_a_finding():
    got = []

    @ash.compute(workgroup_size=1)
    async def k(buf: ash.Storage[vec3f], src: ash.ReadOnly[vec4f]):
        got.append(buf[4])
        got.append(buf[-1])  # (WGSL has no negative indices)
        got.append(src[2])
        buf[5].x = 1.0  # a load and a store past the end: the store is dropped

    buf, src = positions(), np.ones((2, 4), np.float32)
    result = ash.run(k, buf=buf, src=src, sanitize="report")
    assert [type(v).__name__ for v in got] == ["vec3f", "vec3f", "vec4f"]
    assert [list(v) for v in got] == [[0, 0, 0], [0, 0, 0], [0, 0, 0, 0]]
    assert buf.tolist() == positions().tolist()
    oob = sorted((f.memory, f.access.kind, f.index) for f in result.findings
                 if isinstance(f, ash.OutOfBounds))
    assert oob == [("buf", "load", -1), ("buf", "load", 4), ("buf", "load", 5),
                   ("buf", "store", (5, 0)), ("src", "load", 2)]
    with pytest.raises(ash.ShaderError, match="IndexError"):  # sanitize="off": numpy's rules,
        ash.run(k, buf=buf, src=src, sanitize="off")       # as for every buffer


# ------------------------------------------------------------------- what stays numpy's
@pytest.mark.parametrize("sanitize", MODES)
def test_arrays_bound_without_a_vector_element_keep_numpy_rows(sanitize):
    rows = []

    @ash.compute(workgroup_size=1)
    async def k(a: ash.Storage, b, c: ash.Storage[f32]):
        rows.extend([a[0], b[1], c[1]])

    a = positions()
    ash.run(k, a=a, b=positions(), c=positions(), sanitize=sanitize)
    assert all(isinstance(r, np.ndarray) and r.shape == (3,) for r in rows)
    assert rows[2].tolist() == a[1].tolist()


@pytest.mark.parametrize("sanitize", MODES)
def test_slices_of_a_vector_buffer_are_still_vector_buffers(sanitize):
    got = []

    @ash.compute(workgroup_size=1)
    async def k(buf: ash.Storage[vec3f]):
        part = buf[1:3]
        got.append(part[1])
        part[0].y = 9.0

    buf = positions()
    ash.run(k, buf=buf, sanitize=sanitize)
    assert list(got[0]) == [0.0, -1.0, 8.0] and buf[1, 1] == 9.0
