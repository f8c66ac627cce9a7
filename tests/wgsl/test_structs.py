"""Struct buffers in shaders: member loads and stores land at WGSL's byte offsets, the race
detector and robust access see members like elements, uniforms follow the uniform rules."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import array, f32, u32, vec2f, vec3f


@ash.struct
class Particle:
    position: vec3f                      # 0
    mass: f32                            # 12
    velocity: ash.align(16, vec3f)       # 16
    history: array(vec2f, 4)             # 32 (stride 8), size 64


def words(buf, element, byte, n=1):
    """f32 words of ``buf`` at byte offset ``byte`` of element ``element`` (64-byte stride)."""
    at = np.frombuffer(buf.tobytes(), np.float32)
    start = (element * 64 + byte) // 4
    return at[start:start + n].tolist()


@ash.compute(workgroup_size=4)
async def update(p, g: f32, global_invocation_id):
    i = global_invocation_id.x
    p[i].mass = 2.0 + i
    p[i].velocity.y += g * 0.5
    p[i].position = vec3f(1, 2, i)
    p[i].history[1].x = 7.0
    p[i].history[2] = vec2f(5, 6)


@pytest.mark.parametrize("sanitize", ["report", "off"])
def test_member_stores_land_at_the_offsets(sanitize):
    p = Particle.zeros(8)
    p["velocity"][:, 1] = 1.0
    result = ash.run(update, 2, p=p, g=4.0, sanitize=sanitize)
    assert result.findings == []
    for i in range(8):
        assert words(p, i, 0, 3) == [1, 2, i]        # position
        assert words(p, i, 12) == [2.0 + i]          # mass
        assert words(p, i, 16, 4) == [0, 3.0, 0, 0]  # velocity, then its padding
        assert words(p, i, 32, 8) == [0, 0, 7, 0, 5, 6, 0, 0]


def test_vector_member_is_a_value_snapshot_and_whole_struct_stores():
    @ash.compute(workgroup_size=1)
    async def k(p):
        v = p[0].velocity        # WGSL: let v = p[0].velocity;
        p[0].velocity = vec3f(9, 9, 9)
        p[1].position = v        # the value loaded before the store
        p[2] = Particle(mass=5.0, velocity=vec3f(1, 2, 3))
        p[3] = p[2]              # a copy, member by member
        q = p[2].load()
        q.mass = 6.0             # a value: memory keeps 5
        p[0].mass = q.mass
    p = Particle.zeros(4)
    p["velocity"][0] = [1, 2, 3]
    ash.run(k, 1, p=p, sanitize="report")
    assert words(p, 0, 16, 3) == [9, 9, 9] and words(p, 0, 12) == [6.0]
    assert words(p, 1, 0, 3) == [1, 2, 3]
    assert words(p, 2, 12, 4) == [5, 1, 2, 3] and words(p, 3, 12, 4) == [5, 1, 2, 3]


@ash.compute(workgroup_size=2)
async def same_member(p, local_invocation_index):
    p[3].mass = f32(local_invocation_index)


@ash.compute(workgroup_size=2)
async def different_members(p, local_invocation_index):
    if local_invocation_index == 0:
        p[3].mass = 1.0
    else:
        p[3].velocity = vec3f(1, 2, 3)
        p[3].history[0].y = 4.0


def test_races_are_per_member():
    result = ash.run(same_member, 1, p=Particle.zeros(4), sanitize="report")
    [race] = result.findings
    assert isinstance(race, ash.DataRace) and race.race == "write-write"
    assert race.index == (3, ".mass")
    assert "storage memory p[3].mass" in race.render()
    result = ash.run(different_members, 1, p=Particle.zeros(4), sanitize="report")
    assert result.findings == []


def test_component_stores_to_one_vector_race():
    # WGSL: a store to one component may access the whole vector's memory
    @ash.compute(workgroup_size=2)
    async def k(p, local_invocation_index):
        if local_invocation_index == 0:
            p[1].velocity.x = 1.0
        else:
            p[1].velocity.z = 2.0
    races = ash.run(k, 1, p=Particle.zeros(2), sanitize="report").findings
    assert {r.race for r in races} == {"write-write", "read-write"}
    assert all(r.index[0] == 1 and r.index[1].startswith(".velocity") for r in races)


def test_out_of_bounds_behaves_like_a_flat_buffer():
    @ash.compute(workgroup_size=1)
    async def k(p, out):
        p[4].mass = 3.0             # dropped
        out[0] = p[9].velocity.y    # zero
        out[1] = p[0].history[4].x  # past the array member: zero
        p[1].history[7] = vec2f(1, 1)
    p = Particle.zeros(4)
    p["mass"] = 1.0
    out = np.full(2, -1, np.float32)
    result = ash.run(k, 1, p=p, out=out, sanitize="report")
    assert out.tolist() == [0, 0] and p["mass"].tolist() == [1, 1, 1, 1]
    assert np.count_nonzero(p["history"]) == 0
    found = {(f.access.kind, str(f.index), f.length) for f in result.findings}
    assert found == {("store", "4", 4), ("load", "9", 4),
                     ("load", "(0, '.history[4]')", 4), ("store", "(1, '.history[7]')", 4)}
    text = ash.render_findings(result.findings)
    assert "Out-of-bounds store of p[4] (length 4)" in text
    assert "Out-of-bounds load of p[0].history[4] (length 4)" in text
    p, out = Particle.zeros(4), np.full(2, -1, np.float32)  # sanitize="off": the same
    p["mass"] = 1.0                                          # robust access, unreported
    assert ash.run(k, 1, p=p, out=out, sanitize="off").findings == []
    assert out.tolist() == [0, 0] and p["mass"].tolist() == [1, 1, 1, 1]
    assert np.count_nonzero(p["history"]) == 0


def test_uniform_struct_and_its_rules():
    @ash.struct
    class Params:
        gravity: vec3f
        dt: f32

    @ash.compute(workgroup_size=1)
    async def k(p, u: ash.Uniform[Params]):
        p[0].velocity = u.gravity * u.dt
    p = Particle.zeros(1)
    ash.run(k, 1, p=p, u=Params(gravity=vec3f(0, -10, 0), dt=0.5))
    assert words(p, 0, 16, 3) == [0, -5, 0]
    params = Params.zeros()
    params["dt"] = 2.0
    params["gravity"] = [1, 1, 1]
    ash.run(k, 1, p=p, u=params)
    assert words(p, 0, 16, 3) == [2, 2, 2]

    @ash.struct
    class Pair:
        a: f32
        b: f32

    @ash.struct
    class Bad:
        pair: Pair
        c: f32

    @ash.compute(workgroup_size=1)
    async def reads(p, u: ash.Uniform[Bad]):
        p[0].mass = u.c
    with pytest.raises(ash.BindingError, match=r"Bad\.c.*ash\.align\(16, f32\)"):
        ash.run(reads, 1, p=p, u=Bad())

    @ash.compute(workgroup_size=1)
    async def writes(u: ash.Uniform[Params]):
        u.dt = 1.0
    with pytest.raises(ash.ShaderError, match=r"uniform \(var<uniform>\), which is read-only"):
        ash.run(writes, 1, u=Params.zeros())
    value = Params(dt=0.5)  # a struct value: the shader reads a read-only copy of its bytes
    with pytest.raises(ash.ShaderError, match=r"uniform \(var<uniform>\), which is read-only"):
        ash.run(writes, 1, u=value)
    assert value.dt == 0.5


def test_runtime_sized_member_and_array_length():
    @ash.struct
    class Buf:
        count: u32
        data: ash.runtime_array(f32)

    @ash.compute(workgroup_size=4)
    async def k(b, global_invocation_id):
        i = global_invocation_id.x
        if i < ash.array_length(b.data):
            b.data[i] = f32(i) * 2.0
        if i == 0:
            b.count = ash.array_length(b.data)
    b = Buf.zeros(length=6)
    result = ash.run(k, 2, b=b, sanitize="report")
    assert result.findings == []
    at = np.frombuffer(b.tobytes(), np.uint32)
    assert at[0] == 6
    assert np.frombuffer(b.tobytes(), np.float32)[1:7].tolist() == [0, 2, 4, 6, 8, 10]


def test_nested_structs_and_matrix_member():
    class Mat:  # a class of the matrix protocol: (cols, rows) ndarray in and out
        cols, rows, scalar, column = 2, 3, f32, vec3f

        def __init__(self, a):
            self.a = np.array(a, np.float32)

        def __array__(self, dtype=None, copy=None):
            return self.a

    @ash.struct
    class Inner:
        m: Mat          # align 16, size 32
        w: f32          # 32

    @ash.struct
    class Outer:
        k: u32          # 0
        inner: Inner    # 16 (align 16), size 48

    @ash.compute(workgroup_size=1)
    async def k(o):
        o[1].inner.w = 3.0
        o[1].inner.m = Mat([[1, 2, 3], [4, 5, 6]])
        o[0].inner.m = o[1].inner.m
    o = Outer.zeros(2)
    assert (Outer.size, Outer.offsets["inner"]) == (64, 16)
    ash.run(k, 1, o=o, sanitize="report")
    at = np.frombuffer(o.tobytes(), np.float32)
    assert at[16 + 4:16 + 7].tolist() == [1, 2, 3] and at[16 + 8:16 + 11].tolist() == [4, 5, 6]
    assert at[16 + 12] == 3.0
    assert at[4:7].tolist() == [1, 2, 3] and at[8:11].tolist() == [4, 5, 6]


def test_bad_member_names_and_buffers():
    @ash.compute(workgroup_size=1)
    async def k(p):
        p[0].mass = p[0].mas
    with pytest.raises(ash.ShaderError, match="no member 'mas': did you mean 'mass'"):
        ash.run(k, 1, p=Particle.zeros(1))
    with pytest.raises(ash.BindingError, match="not an @ash.struct"):
        ash.run(k, 1, p=np.zeros(2, [("a", "<f4")]))
    with pytest.raises(ash.BindingError, match="contiguous"):
        ash.run(k, 1, p=Particle.zeros(4)[::2])


def test_struct_values_are_fragment_outputs():
    @ash.struct
    class Out:
        color: ash.vec4f
        weight: f32

    @ash.fragment
    async def shade(position):
        return Out(color=ash.vec4f(position.x, 0, 0, 1), weight=f32(2.0))
    result = ash.run_fragments(shade, 2, 1)
    assert result.output["color"][0, 1].tolist() == [1.5, 0, 0, 1]
    assert result.output["weight"].tolist() == [[2.0, 2.0]]


@ash.struct
class Pair:
    a: f32
    b: u32


pairs = ash.workgroup(array(Pair, 4))
single = ash.workgroup(Pair)


@ash.compute(workgroup_size=4)
async def workgroup_sums(out, local_invocation_index, workgroup_id):
    l = local_invocation_index
    pairs[l].a = f32(l) + f32(workgroup_id.x) * 10.0
    pairs[l].b = l * 2
    await ash.workgroup_barrier()
    if l == 0:
        for k in range(4):
            single.value.a += pairs[k].a
            single.value.b += pairs[k].b
        out[workgroup_id.x * 2] = single.value.a
        out[workgroup_id.x * 2 + 1] = f32(single.value.b)


@pytest.mark.parametrize("sanitize", ["report", "off"])
def test_workgroup_structs_are_per_workgroup_and_zeroed(sanitize):
    out = np.zeros(6, np.float32)
    result = ash.run(workgroup_sums, 3, out=out, sanitize=sanitize, max_live_workgroups=3,
                     schedule=ash.Random(3))
    assert result.findings == []
    # workgroup w: a = sum(l + 10 w) = 6 + 40 w, b = sum(2 l) = 12, from zero in every workgroup
    assert out.tolist() == [6, 12, 46, 12, 86, 12]


@ash.compute(workgroup_size=2)
async def workgroup_race(local_invocation_index):
    pairs[1].a = f32(local_invocation_index)  # no barrier, same member
    pairs[local_invocation_index + 2].b = 1    # own elements: no race


def test_workgroup_struct_races_name_the_member():
    [race] = ash.run(workgroup_race, 1, sanitize="report").findings
    assert race.address_space == "workgroup" and race.index == (1, ".a")
    assert "workgroup memory pairs[1].a" in race.render()


def test_struct_storage_in_fragment_shaders_helpers_stores_dropped():
    # 3 x 1 pixels: the quads pad to 4 x 2, so helpers run at x = 3 (past the buffer's end
    # too) and in row 1 (p[0..3]: their stores must be dropped)
    @ash.fragment
    async def row0(position, p):
        x = u32(position.x)
        if position.y < 1.0:
            p[x].mass = position.y + 1.0
        else:
            p[x].mass = 99.0           # only helpers (row 1 is padding)
        return f32(0)
    for sanitize in ("report", "off"):
        p = Particle.zeros(4)
        result = ash.run_fragments(row0, 3, 1, p=p, sanitize=sanitize)
        assert p["mass"].tolist() == [1.5, 1.5, 1.5, 0.0]  # helpers' stores dropped
        if sanitize == "report":
            assert all(f.severity == "note" for f in result.findings)
            assert any(isinstance(f, ash.HelperSideEffect) for f in result.findings)

    @ash.fragment
    async def racy(position, p):
        p[0].mass = position.x          # every fragment: a race on p[0].mass
        return f32(0)
    result = ash.run_fragments(racy, 2, 2, p=Particle.zeros(1), sanitize="report")
    [race] = [f for f in result.findings if isinstance(f, ash.DataRace)]
    assert race.index == (0, ".mass")

    @ash.fragment
    async def reads(position, p: ash.Uniform[Particle]):
        return p[1].mass
    p = Particle.zeros(2)
    p["mass"] = [1.0, 4.0]
    # history: array<vec2f, 4> has stride 8, which the uniform address space refuses
    with pytest.raises(ash.BindingError, match=r"member Particle\.history \(array\(vec2f, 4\)\) "
                       r"has a stride of 8"):
        ash.run_fragments(reads, 2, 2, p=p)

    @ash.fragment
    async def reads_pairs(position, p: ash.Uniform[Pair]):
        return p[1].a
    pairs = Pair.zeros(2)  # stride 8: an array of them is refused too
    with pytest.raises(ash.BindingError, match=r"array\(Pair, 2\) has a stride of 8"):
        ash.run_fragments(reads_pairs, 2, 2, p=pairs)

    @ash.fragment
    async def reads_one(position, p: ash.Uniform[Pair]):
        return p.a
    one = Pair.zeros()
    one["a"] = 4.0
    assert ash.run_fragments(reads_one, 2, 2, p=one).output.tolist() == [[4, 4], [4, 4]]


class Mat2x3:
    """A mat2x3f-like class of the matrix protocol: columns are vectors (``_c``), ``_of`` makes
    one from column vectors, ``m[c]`` is a column, ``m[c] = v`` replaces one."""

    __slots__ = ("_c",)
    cols, rows, scalar, column = 2, 3, f32, vec3f

    def __init__(self, a):
        self._c = [vec3f(*row) for row in np.asarray(a, np.float32)]

    @classmethod
    def _of(cls, columns):
        m = object.__new__(cls)
        m._c = columns
        return m

    def __getitem__(self, i):
        return self._c[i]

    def __setitem__(self, i, v):
        self._c[i] = vec3f(v)

    def __array__(self, dtype=None, copy=None):
        return np.array([list(c) for c in self._c], dtype=dtype or np.float32)


def test_matrix_member_column_and_component_stores_reach_memory():
    @ash.struct
    class M:
        k: f32
        m: Mat2x3      # at 16: columns at 16 and 32

    @ash.compute(workgroup_size=1)
    async def k(b):
        b[0].m[1] = vec3f(4, 5, 6)     # a column
        b[0].m[0].y = 2.0              # a component of a column
        m = b[0].m                     # a loaded matrix: a value with write-back
        b[1].m = m                     # copied as it is now
        b[1].k = m[1].z
    b = M.zeros(2)
    ash.run(k, 1, b=b, sanitize="report")
    at = np.frombuffer(b.tobytes(), np.float32)
    assert at[4:7].tolist() == [0, 2, 0] and at[8:11].tolist() == [4, 5, 6]
    assert at[12 + 4:12 + 7].tolist() == [0, 2, 0] and at[12 + 8:12 + 11].tolist() == [4, 5, 6]
    assert at[12] == 6.0


def test_float_into_an_integer_member_is_reported():
    @ash.struct
    class Counted:
        n: u32
        v: ash.vec2u

    @ash.compute(workgroup_size=1)
    async def k(c):
        c[0].n = 2.7                    # WGSL: no implicit f32 -> u32
        c[1].v = vec2f(1.5, 2.5)        # nor vec2f -> vec2u
        c[1].n = u32(3)                 # fine
    c = Counted.zeros(2)
    result = ash.run(k, 1, c=c, sanitize="report")
    found = sorted((f.index, f.value_type) for f in result.findings)
    assert found == [((0, ".n"), "f32 (a Python float)"), ((1, ".v.x"), "vec2f")]
    assert "c[0].n" in result.findings[0].render() or "c[0].n" in result.findings[1].render()
    assert c["n"].tolist() == [2, 3] and c["v"][1].tolist() == [1, 2]  # numpy truncated

    strict = ash.compute(workgroup_size=1, strict=True)(k.fn)
    with pytest.raises(ash.ShaderError, match="a float stored into c"):
        ash.run(strict, 1, c=Counted.zeros(2), sanitize="report")


def test_atomic_members_are_refused_not_accessed_plainly():
    @ash.struct
    class Counter:
        n: ash.atomic(u32)
        total: f32

    @ash.compute(workgroup_size=1)
    async def k(c):
        c[0].total = 1.0            # fine
        c[0].n = 1                  # WGSL: atomic<u32> takes atomic built-ins only

    c = Counter.zeros(1)
    with pytest.raises(ash.ShaderError, match=r"atomic\(u32\) is read and written only by "
                       r"the atomic built-ins"):
        ash.run(k, 1, c=c)
    assert c["total"][0] == 1.0 and Counter.offsets == {"n": 0, "total": 4}


def test_f16_members_in_a_shader_and_their_granules():
    @ash.struct
    class H:
        a: ash.vec3h    # 0
        b: ash.f16      # 6
        c: f32          # 8

    @ash.compute(workgroup_size=2)
    async def k(h, local_invocation_index):
        l = local_invocation_index
        if l == 0:
            h[0].a.y = ash.f16(1.5)
            h[0].c = 2.0
        else:
            h[0].b = ash.f16(3.0)     # 2 bytes after a: its own location, no race
            h[1].a = ash.vec3h(ash.f16(0.5), ash.f16(0.25), ash.f16(0.125))
    h = H.zeros(2)
    result = ash.run(k, 1, h=h, sanitize="report")
    assert result.findings == []
    halves = np.frombuffer(h.tobytes(), np.float16)
    assert halves[0:4].tolist() == [0, 1.5, 0, 3.0]
    assert np.frombuffer(h.tobytes(), np.float32)[2] == 2.0
    assert H.size == 16 and halves[8:11].tolist() == [0.5, 0.25, 0.125]  # element 1 at 16

    @ash.compute(workgroup_size=2)
    async def racy(h, local_invocation_index):
        h[0].b = ash.f16(local_invocation_index)
    [race] = ash.run(racy, 1, h=H.zeros(1), sanitize="report").findings
    assert race.index == (0, ".b")


def test_real_matrix_members():
    @ash.struct
    class T:
        s: f32
        m: ash.mat3x3f      # align 16, size 48 (columns at 16, 32, 48)
        n: ash.mat2x2f      # align 8, size 16: at 64

    assert (T.offsets, T.size) == ({"s": 0, "m": 16, "n": 64}, 80)

    @ash.compute(workgroup_size=1)
    async def k(t):
        t[0].m = ash.mat3x3f(np.arange(9, dtype=np.float32).reshape(3, 3))
        t[0].m[2].y = 40.0
        t[0].n[1] = ash.vec2f(7, 8)
        t[1].m = t[0].m * 2.0
        t[1].s = t[0].m[1].z
    t = T.zeros(2)
    ash.run(k, 1, t=t, sanitize="report")
    at = np.frombuffer(t.tobytes(), np.float32)
    assert at[4:7].tolist() == [0, 1, 2] and at[8:11].tolist() == [3, 4, 5]
    assert at[12:15].tolist() == [6, 40, 8] and at[7] == at[11] == at[15] == 0
    assert at[18:20].tolist() == [7, 8]
    assert at[20 + 12:20 + 15].tolist() == [12, 80, 16] and at[20] == 5.0


@ash.struct
class Segment:
    direction: vec3f
    frame: ash.mat2x2f


@ash.compute(workgroup_size=2)
async def builtins_of_members(s, out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    n = ash.normalize(s[i].direction)          # built-ins rebuild values of the member's class
    t = ash.transpose(s[i].frame)
    out[i] = n.x + ash.length(s[i].direction) + t[0].y


@pytest.mark.parametrize("sanitize", ["report", "off"])
def test_built_ins_take_vector_and_matrix_members(sanitize):
    """Built-ins take vector and matrix members loaded from memory: normalize(s[i].direction)
    is the normalized vector."""
    s = Segment.zeros(2)
    s["direction"] = [[3, 4, 0], [0, 0, 2]]
    frame = np.zeros((2, 2, 2), np.float32)
    frame[:, 1, 0] = [10, 20]                  # column 1, row 0: transpose puts it at [0].y
    for i in range(2):
        s[i]["frame"] = frame[i]
    out = np.zeros(2, np.float32)
    ash.run(builtins_of_members, s=s, out=out, sanitize=sanitize)
    f = np.float32   # the shader adds in f32, left to right: 0.6 + 5 + 10, and 0 + 2 + 20
    assert out.tolist() == [f(f(f(0.6) + f(5)) + f(10)), 22.0]
