"""What ``@ash.struct`` refuses, at decoration, naming the struct, the member and WGSL's rule
(and a struct holding a bool, which WGSL keeps out of buffers, at Storage[...]/Uniform[...]);
and the errors of a value of the wrong type or a store into a name that is no member, which
name the struct (not an internal class) and the member."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, vec2b, vec2f, vec3b, vec4b


@pytest.mark.parametrize("member, held, instead", [
    (vec3b, "vec3<bool>", "vec3u"),
    (vec2b, "vec2<bool>", "vec2u"),
    (ash.array(vec4b, 3), "vec4<bool>", "vec4u"),
])
def test_a_bool_vector_member_keeps_the_struct_out_of_buffers(member, held, instead):
    flags = ash.struct(type("Flags", (), {"__annotations__": {"x": f32, "flags": member}}))
    with pytest.raises(TypeError) as err:
        ash.Storage[flags]
    msg = str(err.value)
    assert msg.startswith("Storage[Flags]: struct Flags: member 'flags' ")
    assert f"holds {held}: WGSL's bool is not host-shareable" in msg
    assert f"use {instead} (0 or 1)" in msg


def test_a_recursive_struct_is_refused_naming_the_member_and_the_rule():
    with pytest.raises(TypeError, match=r"^struct Node: member 'next' refers to Node itself: "
                                        r"WGSL structs cannot be recursive"):
        @ash.struct
        class Node:
            value: f32
            next: "Node"


def test_a_member_of_a_struct_declared_later_is_refused_naming_it():
    with pytest.raises(TypeError, match=r"^struct Outer: member 'inner' has type 'Later', but "
                                        r"'Later' is not defined where Outer is: declare Later "
                                        r"before Outer"):
        @ash.struct
        class Outer:
            inner: "Later"  # noqa: F821


def test_an_array_member_past_numpys_limit_is_refused_at_decoration():
    with pytest.raises(TypeError) as err:
        ash.struct(type("Huge", (), {"__annotations__": {"a": ash.array(f32, 2**40)}}))
    msg = str(err.value)
    assert msg.startswith("struct Huge: member 'a' (array(f32, 1099511627776)) makes the struct "
                          f"{4 * 2**40} bytes: a struct holds at most {2**31 - 1} bytes")


@ash.struct
class P:
    a: f32
    v: vec2f


@pytest.mark.parametrize("kwargs, where, name", [
    ({"a": "x"}, "P.a", "f32"),
    ({"a": [1.0, 2.0]}, "P.a", "f32"),
    ({"v": "xy"}, "P.v", "vec2f"),
])
def test_a_value_of_the_wrong_type_names_the_member_and_its_type(kwargs, where, name):
    with pytest.raises(TypeError, match=rf"^{where} is {name}: got .* which is no {name} value"):
        P(**kwargs)


def test_a_value_of_the_members_type_is_kept():
    assert P(a=2.5, v=vec2f(1.0, 2.0)) == P(a=f32(2.5), v=vec2f(1.0, 2.0))
    assert P(a=2).a == 2.0 and type(P(a=2).a) is np.float32


@ash.compute(workgroup_size=1)
async def store_into_no_member(p):
    p[0].b = 1.0


@ash.compute(workgroup_size=1)
async def store_into_no_member_of_a_value(p):
    q = p[0].load()
    q.b = 1.0


@pytest.mark.parametrize("kernel", [store_into_no_member, store_into_no_member_of_a_value])
def test_a_store_into_no_member_names_the_struct_and_the_member(kernel):
    with pytest.raises(ash.ShaderError) as err:
        ash.run(kernel, p=P.zeros(2))
    assert "AttributeError: 'P' object has no attribute 'b' at " in str(err.value)
    assert "q.b = 1.0" in str(err.value) or "p[0].b = 1.0" in str(err.value)


def test_a_struct_value_takes_no_attribute_but_its_members():
    with pytest.raises(AttributeError, match="'P' object has no attribute 'b'"):
        P().b = 1.0
    assert not hasattr(P(), "__dict__")
    assert np.array_equal(P.zeros(2)["v"], np.zeros((2, 2), np.float32))
