"""The operators whose Python (numpy) meaning differs from WGSL's give WGSL's value and type, in
shaders: ``/ // % << >>`` and their augmented forms (asyncshader/wgsl/operators.py, applied by
rewriting the shader's source: asyncshader/wgsl/rewrite.py).

Expected values are the WGSL spec's rules (§8.7 arithmetic, §8.9 bit expressions; the table of
integer edge cases in builtins.md §1.1a), computed here with Python integers: truncating
division written out, 32-bit masks, shift counts modulo 32."""

import itertools
import math
import random

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec2i, vec2u
from asyncshader.wgsl.operators import div, floordiv, mod, shl, shr

INT_MIN, INT_MAX, U_MAX = -(2**31), 2**31 - 1, 2**32 - 1


def wrap_i32(x: int) -> int:
    return (x + 2**31) % 2**32 - 2**31


def ref_div(a: int, b: int, signed: bool) -> int:
    """WGSL integer division: e / 0 is e; INT_MIN / -1 is INT_MIN; else truncate."""
    if b == 0 or (signed and a == INT_MIN and b == -1):
        return a
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def ref_rem(a: int, b: int, signed: bool) -> int:
    """WGSL integer remainder: e % 0 is 0; INT_MIN % -1 is 0; else the dividend's sign."""
    if b == 0 or (signed and a == INT_MIN and b == -1):
        return 0
    return a - ref_div(a, b, signed) * b


# ---------------------------------------------------------------------------------- the spec table
SPEC_TABLE = [  # builtins.md §1.1a, as (expression, WGSL result)
    (lambda: div(i32(-7), i32(2)), i32(-3)),
    (lambda: mod(i32(-7), i32(2)), i32(-1)),
    (lambda: mod(i32(7), i32(-2)), i32(1)),
    (lambda: div(i32(5), i32(0)), i32(5)),
    (lambda: mod(i32(5), i32(0)), i32(0)),
    (lambda: div(u32(5), u32(0)), u32(5)),
    (lambda: mod(u32(5), u32(0)), u32(0)),
    (lambda: div(i32(INT_MIN), i32(-1)), i32(INT_MIN)),
    (lambda: mod(i32(INT_MIN), i32(-1)), i32(0)),
    (lambda: shl(u32(1), u32(33)), u32(2)),
    (lambda: shl(i32(1), u32(31)), i32(INT_MIN)),
    (lambda: shr(i32(-8), u32(1)), i32(-4)),
    (lambda: shr(i32(-8), u32(33)), i32(-4)),
    (lambda: shr(u32(0x80000000), u32(1)), u32(0x40000000)),
    (lambda: shl(u32(0xFFFFFFFF), u32(36)), u32(0xFFFFFFF0)),  # the count is taken modulo 32
    (lambda: div(u32(7), u32(2)), u32(3)),
    (lambda: mod(f32(-1.0), f32(3.0)), f32(-1.0)),  # f32 % truncates too
    (lambda: floordiv(i32(-7), i32(2)), i32(-3)),  # // is WGSL's integer division
]


@pytest.mark.parametrize("case", range(len(SPEC_TABLE)))
def test_the_spec_table_of_edge_cases(case):
    compute, expected = SPEC_TABLE[case]
    got = compute()
    assert type(got) is type(expected) and got == expected


# ------------------------------------------------------------------- against the reference rules
EDGES = [0, 1, -1, 2, -2, 3, 7, -7, 31, 32, 33, 36, 255, -256, INT_MAX, INT_MIN, INT_MIN + 1,
         0x7FFF, -0x8000]
U_EDGES = [0, 1, 2, 3, 7, 31, 32, 33, 36, 255, 0x7FFFFFFF, 0x80000000, U_MAX, U_MAX - 1]


def pairs(values, n_random, signed):
    rng = random.Random(17)
    low, high = (INT_MIN, INT_MAX) if signed else (0, U_MAX)
    extra = [(rng.randint(low, high), rng.randint(low, high)) for _ in range(n_random)]
    return list(itertools.product(values, repeat=2)) + extra


@pytest.mark.parametrize(("a", "b"), pairs(EDGES, 200, True))
def test_i32_division_and_remainder(a, b):
    q, r = div(i32(a), i32(b)), mod(i32(a), i32(b))
    assert type(q) is np.int32 and int(q) == wrap_i32(ref_div(a, b, True))
    assert type(r) is np.int32 and int(r) == ref_rem(a, b, True)


@pytest.mark.parametrize(("a", "b"), pairs(U_EDGES, 200, False))
def test_u32_division_and_remainder(a, b):
    q, r = div(u32(a), u32(b)), mod(u32(a), u32(b))
    assert type(q) is np.uint32 and int(q) == ref_div(a, b, False)
    assert type(r) is np.uint32 and int(r) == ref_rem(a, b, False)


@pytest.mark.parametrize("a", EDGES)
@pytest.mark.parametrize("n", [0, 1, 5, 31, 32, 33, 36, 63, 64, 100])
def test_i32_shifts_take_the_count_modulo_32(a, n):
    left, right = shl(i32(a), u32(n)), shr(i32(a), u32(n))
    assert type(left) is np.int32 and int(left) == wrap_i32(a << (n % 32))
    assert type(right) is np.int32 and int(right) == a >> (n % 32)  # Python's >> is arithmetic


@pytest.mark.parametrize("a", U_EDGES)
@pytest.mark.parametrize("n", [0, 1, 5, 31, 32, 33, 36, 63])
def test_u32_shifts_take_the_count_modulo_32(a, n):
    left, right = shl(u32(a), u32(n)), shr(u32(a), u32(n))
    assert type(left) is np.uint32 and int(left) == (a << (n % 32)) & U_MAX
    assert type(right) is np.uint32 and int(right) == a >> (n % 32)


@pytest.mark.parametrize(("a", "b"), [(-1.0, 3.0), (1.0, -3.0), (-7.5, 2.0), (7.5, -2.0),
                                      (5.0, 0.5), (-0.0, 1.0), (1e30, 3.0)])
def test_f32_remainder_has_the_dividend_sign(a, b):
    got = mod(f32(a), f32(b))
    expected = np.float32(math.fmod(float(np.float32(a)), float(np.float32(b))))
    assert type(got) is np.float32 and got == expected
    assert math.copysign(1.0, got) == math.copysign(1.0, expected)


def test_f32_division_is_f32():
    got = div(f32(1.0), f32(3.0))
    assert type(got) is np.float32 and got == np.float32(1.0) / np.float32(3.0)


# ------------------------------------------------------------------------------ literals and types
def test_a_python_literal_takes_the_other_operands_type():
    assert type(div(u32(7), 2)) is np.uint32 and div(u32(7), 2) == 3
    assert type(mod(i32(-7), 2)) is np.int32 and mod(i32(-7), 2) == -1
    assert type(div(f32(1.0), 4)) is np.float32 and div(f32(1.0), 4) == 0.25
    assert type(shl(u32(1), 4)) is np.uint32 and shl(u32(1), 4) == 16
    assert type(div(20, i32(-3))) is np.int32 and div(20, i32(-3)) == -6


def test_two_python_numbers_keep_pythons_meaning():
    assert div(7, 2) == 3.5 and floordiv(-7, 2) == -4 and mod(-7, 2) == 1
    assert mod("%d items", 3) == "3 items"


@pytest.mark.parametrize(("fn", "a", "b", "words"), [
    (div, u32(1), i32(1), "`u32 / i32`"),
    (mod, f32(1.0), i32(1), "`f32 % i32`"),
    (div, i32(1), 0.5, "i32 / a Python float"),
    (div, u32(1), -1, "does not fit in u32"),
    (floordiv, np.int64(1), i32(1), "numpy int64 is not a WGSL type"),
])
def test_mixed_types_are_refused_naming_both_and_the_conversion(fn, a, b, words):
    with pytest.raises(ash.ShaderTypeError) as info:
        fn(a, b)
    assert words in str(info.value) and "Convert" in str(info.value)


@pytest.mark.parametrize("count", [i32(1), f32(1.0), -1])
def test_a_shift_count_is_a_u32(count):
    with pytest.raises(ash.ShaderTypeError, match="shift count"):
        shl(u32(1), count)


# ------------------------------------------------------------------------------ vectors and arrays
def test_vectors_follow_the_same_rules():
    assert div(vec2i(-7, 7), vec2i(2, 0)) == vec2i(-3, 7)
    assert floordiv(vec2i(-7, 7), vec2i(2, 2)) == vec2i(-3, 3)  # the alias, not floor
    assert mod(vec2i(-7, 7), 2) == vec2i(-1, 1)
    assert shl(vec2u(1, 1), vec2u(33, 4)) == vec2u(2, 16)


def test_integer_arrays_follow_the_same_rules_element_wise():
    a = np.array([-7, 7, 5, INT_MIN], np.int32)
    b = np.array([2, -2, 0, -1], np.int32)
    q, r = div(a, b), mod(a, b)
    assert q.dtype == np.int32 and q.tolist() == [ref_div(x, y, True) for x, y in
                                                  zip(a.tolist(), b.tolist())]
    assert r.dtype == np.int32 and r.tolist() == [ref_rem(x, y, True) for x, y in
                                                  zip(a.tolist(), b.tolist())]
    u = np.array([7, 5], np.uint32)
    assert div(u, np.uint32(0)).tolist() == [7, 5] and div(u, 2).dtype == np.uint32


# ------------------------------------------------------------------------------- inside a shader
def helper_division(a, b):
    """A plain helper: its operators are WGSL's inside a shader, Python's outside."""
    return a / b, a % b


async def async_helper(x):
    x >>= u32(33)
    return x


@ash.compute(workgroup_size=1)
async def operators_kernel(out: ash.Storage, fout: ash.Storage):
    a = i32(-7)
    q, r = helper_division(a, i32(2))
    out[0] = q
    out[1] = r
    out[2] = a / i32(0)
    out[3] = a % 0
    out[4] = i32(u32(0xFFFFFFFF) << 36)
    out[5] = await async_helper(i32(-8))
    s = i32(-9)
    s //= 2  # an augmented assignment with a literal: the fast test, then the rule
    out[6] = s
    out[7] = (lambda v: v / i32(2))(i32(-5))  # nested code is rewritten too
    fout[0] = f32(-1.0) % f32(3.0)
    fout[1] = u32(7) / u32(2)


def test_a_shader_and_its_helpers_use_wgsl_operators():
    out, fout = np.zeros(8, np.int32), np.zeros(2, np.float32)
    ash.run(operators_kernel, out=out, fout=fout)
    assert out.tolist() == [-3, -1, -7, 0, -16, -4, -4, -2]
    assert fout.tolist() == [-1.0, 3.0]


def test_the_helper_itself_keeps_pythons_meaning_outside_shaders():
    assert helper_division(7, 2) == (3.5, 1)
    assert type(helper_division(i32(-7), i32(2))[0]) is np.float64  # numpy's, untouched


def test_a_mixed_expression_in_a_shader_is_an_error_at_its_line():
    @ash.compute(workgroup_size=2)
    async def mixed(out: ash.Storage, *, local_invocation_index: u32):
        out[local_invocation_index] = local_invocation_index / i32(2)  # the line

    with pytest.raises(ash.ShaderError) as info:
        ash.run(mixed, out=np.zeros(2, np.int32))
    text = str(info.value)
    assert "ShaderTypeError" in text and "`u32 / i32`" in text
    assert "test_operators.py:" in text and "local_invocation_index / i32(2)  # the line" in text


def test_a_closure_shader_sees_its_variables_and_later_assignments():
    scale = i32(2)

    @ash.compute(workgroup_size=1)
    async def closure(out: ash.Storage):
        out[0] = i32(-9) / scale
        out[1] = late % i32(4)

    late = i32(-9)  # assigned after the decoration, before the dispatch
    out = np.zeros(2, np.int32)
    ash.run(closure, out=out)
    assert out.tolist() == [-4, -1]


def test_a_traceback_points_at_the_users_line_and_column():
    @ash.compute(workgroup_size=1)
    async def fails(out: ash.Storage):
        out[0] = u32(1) / i32(1)

    with pytest.raises(ash.ShaderError) as info:
        ash.run(fails, out=np.zeros(1, np.uint32))
    tb = info.value.original.__traceback__
    while tb.tb_next is not None and "test_operators" not in tb.tb_next.tb_frame.f_code.co_filename:
        tb = tb.tb_next
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    ours = [line for name, line in frames if name.endswith("test_operators.py")]
    source = open(__file__).read().splitlines()
    assert ours and "u32(1) / i32(1)" in source[ours[-1] - 1]


def test_fragment_shaders_use_wgsl_operators_too():
    @ash.fragment
    async def checker(position: ash.vec4f):
        x = i32(position.x) - i32(2)  # -2 .. 1
        return x % i32(2)  # WGSL: the dividend's sign (-0, -1, 0, 1), numpy: 0 1 0 1

    result = ash.run_fragments(checker, 4, 2)
    assert result.output.dtype == np.int32
    assert result.output[0].tolist() == [0, -1, 0, 1]


# ------------------------------------------------------------------- strict kernels: + - * & | ^
@ash.compute(workgroup_size=2, strict=True)
async def strict_mixed(out: ash.Storage, *, local_invocation_index: u32):
    out[local_invocation_index] = local_invocation_index + i32(1)  # u32 + i32: refused


@ash.compute(workgroup_size=2, strict=True)
async def strict_well_typed(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = (i + 1) * u32(3) - 1 ^ (i & 1) | u32(0)  # one type, literals adapt


def test_a_strict_kernel_refuses_mixed_types_in_every_arithmetic_operator():
    with pytest.raises(ash.ShaderError) as info:
        ash.run(strict_mixed, out=np.zeros(2, np.uint32))
    text = str(info.value)
    assert "ShaderTypeError" in text and "`u32 + i32`" in text
    assert "local_invocation_index + i32(1)  # u32 + i32: refused" in text
    out = np.zeros(2, np.uint32)
    ash.run(strict_well_typed, out=out)
    assert out.tolist() == [((i + 1) * 3 - 1 ^ (i & 1)) | 0 for i in range(2)]


def test_a_strict_kernel_refuses_a_float_literal_with_an_integer():
    @ash.compute(workgroup_size=1, strict=True)
    async def halves(out: ash.Storage, *, local_invocation_index: u32):
        out[0] = local_invocation_index * 0.5

    with pytest.raises(ash.ShaderError, match=r"u32 \* a Python float"):
        ash.run(halves, out=np.zeros(1, np.float32))


def test_without_strict_mixed_addition_keeps_numpys_meaning():
    # the documented departure: numpy widens u32 + i32 to int64 (the detector reports the
    # store when it wraps: tests/wgsl/test_conversions.py)
    @ash.compute(workgroup_size=2)
    async def mixed(out: ash.Storage, *, local_invocation_index: u32):
        out[local_invocation_index] = local_invocation_index + i32(1)

    out = np.zeros(2, np.uint32)
    ash.run(mixed, out=out, sanitize="off")
    assert out.tolist() == [1, 2]


# ------------------------------------------------------ augmented assignments and other corners
def test_an_augmented_assignment_on_a_view_updates_the_buffer_in_place():
    @ash.compute(workgroup_size=1)
    async def halve(out: ash.Storage):
        row = out[0:2]
        row //= 2  # WGSL's integer division, written back into the buffer
        other = out[2:4]
        other -= 1

    out = np.array([-7, 9, 5, 5], np.int32)
    ash.run(halve, out=out, sanitize="off")
    assert out.tolist() == [-3, 4, 4, 4]


def test_an_augmented_assignment_evaluates_its_target_once():
    calls = []

    def where():
        calls.append(1)
        return 0

    @ash.compute(workgroup_size=1)
    async def once(out: ash.Storage):
        out[where()] //= 2

    out = np.array([-7], np.int32)
    ash.run(once, out=out, sanitize="off")
    assert out.tolist() == [-3] and len(calls) == 1


def make_divider(k):
    def divide(x):
        return x // k
    return divide


by_two, by_three = make_divider(i32(2)), make_divider(i32(3))


def test_helpers_made_by_one_factory_keep_their_own_closures():
    @ash.compute(workgroup_size=1)
    async def both(out: ash.Storage):
        out[0] = by_two(i32(-7))
        out[1] = by_three(i32(-7))

    out = np.zeros(2, np.int32)
    ash.run(both, out=out)
    assert out.tolist() == [-3, -2]


def test_a_shader_with_a_multi_line_string_in_an_indented_block_is_rewritten():
    def make():
        @ash.compute(workgroup_size=1)
        async def k(out: ash.Storage):
            label = """two
lines"""
            out[0] = i32(-7) // i32(2) + i32(len(label) * 0)
        return k

    out = np.zeros(1, np.int32)
    ash.run(make(), out=out)
    assert out.tolist() == [-3]


def halve_it(x):
    return x // 2


def test_a_parameter_of_a_nested_function_does_not_hide_a_helper_of_the_same_name():
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage):
        def inner(halve_it):
            return halve_it
        out[0] = halve_it(i32(-7)) + inner(i32(0))

    out = np.zeros(1, np.int32)
    ash.run(k, out=out)
    assert out.tolist() == [-3]


@pytest.mark.parametrize(("expression", "words"), [
    ("np.array([10, 7], np.int32) / 2.5", "Python float"),
    ("np.array([10, 7], np.int32) // 2**40", "does not fit"),
    ("np.array([10, 7], np.uint32) / i32(2)", "u32"),
    ("np.array([1, 2], np.uint32) << i32(1)", "shift count"),
    ("f32(7.9) % vec2i(3, 3)", "f32"),
    ("f32(1) / 10**400", "does not fit in f32"),
])
def test_arrays_vectors_and_huge_literals_keep_wgsls_typing(expression, words):
    from asyncshader.wgsl.rewrite import wgsl_eval
    values = {"np": np, "i32": i32, "u32": u32, "f32": f32, "vec2i": vec2i}
    with pytest.raises(ash.ShaderTypeError, match=words):
        wgsl_eval(expression, values)


def test_strings_and_sequences_keep_pythons_operators():
    from asyncshader.wgsl.rewrite import wgsl_eval
    assert wgsl_eval('"%d items" % n', {"n": i32(5)}) == "5 items"
    assert OPS_STRICT_MUL("-", 3) == "---" and OPS_STRICT_MUL([0], 2) == [0, 0]
    with pytest.raises(ash.ShaderTypeError, match="bool"):
        OPS_STRICT_ADD(np.bool_(True), np.bool_(True))


from asyncshader.wgsl.operators import OPERATORS as _OPS_TABLE  # noqa: E402

OPS_STRICT_MUL, OPS_STRICT_ADD = _OPS_TABLE["mul"], _OPS_TABLE["add"]
