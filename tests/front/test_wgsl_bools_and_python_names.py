"""Valid WGSL that Python's names and asyncshader's structs once kept out of ``load_wgsl``:
a struct with bool members (WGSL allows it in function, private and workgroup memory, not in
a buffer: it is not host-shareable), struct members and module-scope variables named as
Python keywords (``in``, ``is``, ``lambda`` ...: renamed in the generated Python, bound by
their WGSL names), and module-scope variables named ``True``, ``False``, ``None``, ``ash``
or ``int``. Each kernel's values are derived by hand and checked on lavapipe too."""

import numpy as np
import pytest
from ports import wgsl_originals

import asyncshader as ash

SCHEDULES = pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Lockstep()],
                                    ids=["InOrder", "Lockstep"])

BOOL_MEMBERS = """\
struct Flags { a: u32, b: bool, f: vec3<bool>, arr: array<bool, 2> }
struct Shared { flags: Flags, n: u32 }
var<private> p: Flags;
var<workgroup> w: Shared;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;

fn flip(x: Flags) -> Flags {
    var y = x;
    y.b = !y.b;
    y.arr[1] = true;
    return y;
}

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    var s = Flags(1u, true, vec3(false, true, false), array(true, false));
    p = flip(s);
    if (i == 0u) {
        w.flags = p;
        w.n = 5u;
    }
    let t = workgroupUniformLoad(&w);
    o[i * 8u + 0u] = select(0u, 1u, s.b);
    o[i * 8u + 1u] = select(0u, 1u, p.b);
    o[i * 8u + 2u] = select(0u, 1u, p.f.y);
    o[i * 8u + 3u] = select(0u, 1u, p.arr[1]);
    o[i * 8u + 4u] = select(0u, 1u, t.flags.arr[0]);
    o[i * 8u + 5u] = t.n + t.flags.a;
    o[i * 8u + 6u] = select(0u, 1u, all(t.flags.f == vec3(false, true, false)));
    o[i * 8u + 7u] = select(0u, 1u, t.flags.b);
}
"""
#: s.b is true; flip negates it and sets arr[1]; the workgroup copy is p's (its arr[0] is
#: s's true, its f s's); t.n + t.flags.a = 5 + 1; both invocations read the same
BOOL_WANT = [1, 0, 1, 1, 1, 6, 1, 0] * 2


@SCHEDULES
def test_a_struct_with_bool_members_lives_in_function_private_and_workgroup_memory(schedule):
    o = np.zeros(16, np.uint32)
    ash.run(ash.load_wgsl(BOOL_MEMBERS)["main"], 1, o=o, schedule=schedule, sanitize="off")
    assert o.tolist() == BOOL_WANT


def test_the_race_detector_watches_a_workgroup_struct_s_bool_member():
    racy = BOOL_MEMBERS.replace("    if (i == 0u) {\n        w.flags = p;",
                                "    w.flags.b = i == 1u;\n    if (i == 0u) {\n"
                                "        w.flags = p;")
    result = ash.run(ash.load_wgsl(racy)["main"], 1, o=np.zeros(16, np.uint32),
                     sanitize="report")
    races = [f for f in result.findings if isinstance(f, ash.DataRace)]
    assert races and {(r.memory, r.index, r.race) for r in races} == {
        ("w", (None, ".flags.b"), "write-write")}


def test_lavapipe_agrees_on_the_bool_members(gpu_device):
    gpu = wgsl_originals.run(gpu_device, BOOL_MEMBERS, "main", 1, o=np.zeros(16, np.uint32))
    assert gpu["o"].tolist() == BOOL_WANT


def test_a_struct_with_a_bool_member_binds_no_buffer():
    """WGSL refuses it in a storage or uniform buffer at shader creation; so does the
    checker, and the Python API refuses Storage[...] and Uniform[...] of it."""
    with pytest.raises(ash.ShaderCreationError, match="not host-shareable"):
        ash.load_wgsl("struct S { b: bool }\n"
                      "@group(0) @binding(0) var<storage, read_write> s: array<S>;\n"
                      "@compute @workgroup_size(1)\nfn main() { s[0].b = true; }\n")

    @ash.struct
    class Flags:
        a: ash.u32
        b: ash.bool_

    assert Flags(a=1, b=True).b is True and Flags.offsets == {"a": 0, "b": 4}
    for marker in (ash.Storage, ash.Uniform):
        with pytest.raises(TypeError, match=r"\[Flags\]: struct Flags: member 'b' is bool, "
                                            r"which is not host-shareable"):
            marker[Flags]


PYTHON_NAMES = """\
struct S { in: u32, is: f32, in_: u32 }
@group(0) @binding(0) var<storage, read_write> in: array<u32>;
@group(0) @binding(1) var<storage, read_write> is: array<S>;
var<private> True: u32 = 3u;
var<private> ash: u32 = 1u;
var<workgroup> None: S;
const False = 4u;

fn lambda(p: ptr<function, S>) -> u32 {
    (*p).in += ash;
    return (*p).in + p.in_;
}

@compute @workgroup_size(1)
fn main() {
    var s = S(in[0], 2.0, 10u);
    s.in = s.in + True + False;
    let r = lambda(&s);
    None = s;
    None.is = 5.0;
    is[0] = None;
    is[1].in = r;
    in[1] = s.in;
    let q = &in[2];
    *q = 9u;
}
"""
#: s.in = 4 + 3 + 4 = 11, lambda adds 1 (12) and returns 12 + 10; is[0] is s with is = 5
PYTHON_NAMES_IN = [4, 12, 9]
PYTHON_NAMES_IS = [(12, 5.0, 10), (22, 0.0, 0)]


@SCHEDULES
def test_python_keywords_and_constants_name_wgsl_variables_and_members(schedule):
    module = ash.load_wgsl(PYTHON_NAMES)
    structs = module["S"].zeros(2)
    assert structs.dtype.names == ("in__", "is_", "in_")  # (a member's Python name)
    words = np.array([4, 0, 0], np.uint32)
    ash.run(module["main"], 1, schedule=schedule, sanitize="off",
            **{"in": words, "is": structs})   # (bound by their WGSL names)
    assert words.tolist() == PYTHON_NAMES_IN
    assert structs.tolist() == PYTHON_NAMES_IS


def test_lavapipe_agrees_on_the_python_names(gpu_device):
    dtype = np.dtype({"names": ["a", "b", "c"], "formats": ["<u4", "<f4", "<u4"]})
    gpu = wgsl_originals.run(gpu_device, PYTHON_NAMES, "main", 1,
                             **{"in": np.array([4, 0, 0], np.uint32),
                                "is": np.zeros(4, dtype)})  # (whole 16-byte rows)
    assert gpu["in"].tolist() == PYTHON_NAMES_IN
    assert gpu["is"][:2].tolist() == PYTHON_NAMES_IS


def test_a_fragment_binds_a_buffer_named_as_a_keyword_by_its_wgsl_name():
    module = ash.load_wgsl("""\
@group(0) @binding(0) var<storage, read_write> in: array<f32>;
fn twice() -> f32 { return in[0] * 2.0; }
@fragment
fn fs(@location(0) v: f32) -> @location(0) vec4f {
    return vec4f(v + twice(), 0.0, 0.0, 1.0);
}
""")
    out = ash.run_fragments(module["fs"], 2, 1, **{"in": np.array([1.5], np.float32),
                                                   "v": np.full((1, 2), 3.0, np.float32)})
    assert out.output[..., 0].tolist() == [[6.0, 6.0]]   # 3 + 2 * 1.5
