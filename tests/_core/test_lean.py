"""Lean units (asyncshader/lean.py): a fragment quad without storage runs on its four coroutines
alone while every round is one derivative of the whole quad; anything else escapes to the
ordinary in-order rounds from the same state. The contract is the fast paths' one: the same
outputs, mask, trace and counters as the general loop, and for a program that fails, the same
error and message. Each case is a small generated program, given to the shader as a uniform:
per step and quad id, one of derivatives at three call sites (two of them of one kind), a quad
swap (a request the lean rounds do not take), a scheduling point that logs when it lands, an
early return, an exception, discard() and a foreign await.
"""

import asyncio
import gc
import importlib
import random
import types

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, vec4f
from asyncshader._core.traps import Point, trap_function
from asyncshader.collectives.derivatives import derivative_kinds
from asyncshader.sanitizers.source_checks import still_direct

DPDX, DPDY, SWAP, POINT, RETURN, RAISE, DISCARD, FOREIGN, NOTHING, NOTE, DPDX_AGAIN = range(11)
LOG: list = []


class Logged(Point):
    """A scheduling point that notes the fragment whose point lands, in landing order."""

    __slots__ = ("who",)

    def __init__(self, who):
        self.who = who

    def apply(self, invocation):
        LOG.append(("point", *self.who))
        return f32(1)


@types.coroutine
def _logged_point(who):
    return (yield Logged(who))


#: a trap function of the test's own (marked as asyncshader's are), so that ``program`` awaits
#: nothing but traps, called directly: its call sites are its frame's instruction alone
logged_point = trap_function(_logged_point)


@ash.fragment
async def program(prog: ash.Uniform, *, position: vec4f):
    x, y = int(position.x), int(position.y)
    lane = (x & 1) + 2 * (y & 1)
    acc = f32(x + 10 * y)
    for step in prog:
        op = step[lane]
        if op == DPDX:
            acc = acc + await ash.dpdx(acc)
        elif op == DPDY:  # another call site and another kind
            acc = acc + await ash.dpdy_fine(acc)
        elif op == DPDX_AGAIN:  # the same kind at another call site
            acc = acc - await ash.dpdx(acc)
        elif op == SWAP:
            acc = acc + await ash.quad_swap_x(acc)
        elif op == POINT:
            acc = acc + await logged_point((x, y))
        elif op == RETURN:
            return acc
        elif op == RAISE:
            raise ValueError(f"fragment ({x},{y}) gives up")
        elif op == DISCARD:
            ash.discard()
        elif op == NOTE:
            LOG.append(("code", x, y))
    return acc


async def _helper(v):  # an await through a coroutine of the shader's own
    return await ash.dpdx(v)


@ash.fragment
async def indirect(prog: ash.Uniform, *, position: vec4f):
    """The same ops where a derivative goes through a helper coroutine (call sites are then
    read along the await chain) and FOREIGN awaits asyncio."""
    x, y = int(position.x), int(position.y)
    lane = (x & 1) + 2 * (y & 1)
    acc = f32(x - y)
    for step in prog:
        op = step[lane]
        if op == DPDX:
            acc = acc + await _helper(acc)
        elif op == DPDY:
            acc = acc + await ash.dpdy(acc)
        elif op == DPDX_AGAIN:
            acc = acc - await ash.dpdx(acc)
        elif op == FOREIGN:
            await asyncio.sleep(0)
        elif op == RETURN:
            return acc
        elif op == DISCARD:
            ash.discard()
    return acc


def make_program(case: int) -> tuple[int, int, tuple]:
    """(width, height, program): mostly uniform steps, sometimes one quad id doing another
    thing (a divergence, an error, a point, a discard)."""
    rng = random.Random(case)
    steps = []
    for _ in range(rng.randint(1, 6)):
        op = rng.choice([DPDX, DPDX, DPDY, DPDX, SWAP, NOTHING])
        row = [op] * 4
        if rng.random() < 0.35:
            row[rng.randrange(4)] = rng.choice([POINT, POINT, RETURN, RAISE, DISCARD, DPDY,
                                               FOREIGN, DPDX, DPDX_AGAIN])
        steps.append(tuple(row))
    return rng.choice([2, 4, 6, 7]), rng.choice([2, 4, 5]), tuple(steps)


class Observer(ash.Instrument):
    """Watching resumes forces the general loop (no lean units)."""

    def invocation_resumed(self, inv):
        pass


def outcome(shader, width, height, prog, instruments=(), **options):
    LOG.clear()
    try:
        r = ash.run_fragments(shader, width, height, prog=prog, instruments=list(instruments),
                              **options)
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc), exc.asyncshader_trace.to_json(),
                list(LOG))
    return ("ok", r.trace.to_json(), r.counters, r.output.tolist(), r.mask.tolist(), list(LOG))


@pytest.mark.parametrize("shader", [program, indirect], ids=["direct", "indirect"])
@pytest.mark.parametrize("block", range(3))
def test_generated_programs_run_the_same_lean_and_on_the_general_loop(shader, block):
    """Blocks 0 and 1 run one quad at a time (a finished quad's successor starts inside the
    lean rounds), block 2 keeps two quads live (each quad's rounds are a call of their own)."""
    kinds = set()
    options = {"max_live_quads": 2} if block == 2 else {}
    for case in range(block * 60, block * 60 + 60):
        width, height, prog = make_program(case)
        lean = outcome(shader, width, height, prog, **options)
        general = outcome(shader, width, height, prog, [Observer()], **options)
        assert lean == general, case
        kinds.add(lean[0] if lean[0] == "ok" else lean[1])
    assert "ok" in kinds and len(kinds) >= 3, kinds  # successes and two kinds of error at least


def test_the_direct_program_reads_call_sites_from_its_frame_and_the_other_along_the_chain():
    """The fuzz below covers both ways a lean round reads call sites."""
    assert still_direct(program.fn, program.awaited)
    assert not still_direct(indirect.fn, indirect.awaited)


def test_a_point_lands_before_the_next_member_of_the_quad_is_resumed():
    """In order, quad id 0's scheduling point lands before quad ids 1 to 3 run at all: the lean
    rounds check each request as it comes, not at the end of the round."""
    prog = ((POINT, NOTE, NOTE, NOTE), (DPDX,) * 4)
    LOG.clear()
    r = ash.run_fragments(program, 2, 2, prog=prog)
    assert LOG == [("point", 0, 0), ("code", 1, 0), ("code", 0, 1), ("code", 1, 1)]
    # acc = x + 10 y, plus 1 from the point at (0,0); then coarse dpdx = f(1,0) - f(0,0) = 0
    assert r.output.tolist() == [[1, 1], [10, 11]]
    assert r.counters.points == 1


def test_lean_quads_make_no_invocation_objects_unless_something_escapes(monkeypatch):
    fragment = importlib.import_module("asyncshader.stages.fragment")  # (ash.fragment: a function)
    made = []
    original = fragment._Quad.materialize

    def counting(self):
        made.append(self.index)
        original(self)

    monkeypatch.setattr(fragment._Quad, "materialize", counting)
    plain = ((DPDX,) * 4, (DPDY,) * 4)
    r = ash.run_fragments(program, 8, 4, prog=plain)
    assert made == [] and r.mask.all()
    swap = ((DPDX,) * 4, (SWAP,) * 4)  # a quad operation is not a lean request
    ash.run_fragments(program, 8, 4, prog=swap)
    assert made == list(range(8))
    made.clear()
    ash.run_fragments(program, 8, 4, prog=plain, schedule=ash.Random(3))  # not in order
    assert made == list(range(8))


def test_discard_in_a_lean_quad_drops_that_fragment_s_output_only():
    prog = ((NOTHING, NOTHING, DISCARD, NOTHING), (DPDX,) * 4)
    r = ash.run_fragments(program, 4, 2, prog=prog)
    assert r.mask.tolist() == [[True] * 4, [False, True, False, True]]
    # the discarded fragments still fed dpdx: coarse dx = f(1,0) - f(0,0) = 1 everywhere
    assert r.output.tolist() == [[1, 2, 3, 4], [0, 12, 0, 14]]


@pytest.mark.anyio
async def test_a_checkpoint_inside_a_lean_quad_resumes_it_where_it_stopped():
    """A dispatch yields to its host every 4096 steps; a quad whose fragments take thousands of
    derivatives stops mid-quad and goes on with the values it had."""
    prog = ((DPDX,) * 4,) * 1500  # 4 x 1500 steps per quad: a checkpoint falls inside it
    lean = await ash.dispatch_fragments(program, 2, 2, prog=prog)
    general = await ash.dispatch_fragments(program, 2, 2, prog=prog, instruments=[Observer()])
    assert lean.counters.steps == general.counters.steps == 4 * 1501
    assert np.array_equal(lean.output, general.output)
    assert lean.output[0, 1] == 1 + 1500  # f(1,0) = 1, and every dpdx adds 1 (coarse)


@types.coroutine
def _yield(obj):
    return (yield obj)


_DPDX_KIND = derivative_kinds("coarse")["dpdx"]


@pytest.mark.parametrize("obj", [(_DPDX_KIND, f32(1), "extra"), (_DPDX_KIND,)],
                         ids=["three", "one"])
def test_a_tuple_that_only_looks_like_a_pair_is_a_foreign_await_on_both_paths(obj):
    """Only ``(kind, value)`` is a pair; a longer or shorter tuple starting with a kind is
    somebody else's yield, as the general loop says (the lean rounds once took the first and
    crashed on the second)."""

    @ash.fragment
    async def odd(*, position: vec4f):
        await ash.dpdx(position.x)  # (the kind is known to the lean rounds from here on)
        return await _yield(obj)

    with pytest.raises(ash.ForeignAwaitError) as lean:
        ash.run_fragments(odd, 2, 2)
    with pytest.raises(ash.ForeignAwaitError) as general:
        ash.run_fragments(odd, 2, 2, instruments=[Observer()])
    assert str(lean.value) == str(general.value)


def test_an_input_that_raises_while_a_quad_is_made_leaves_no_coroutine_behind(recwarn):
    def shade_input(x, y):
        if (x, y) == (1, 1):
            raise ZeroDivisionError("input fails")
        return f32(x)

    @ash.fragment
    async def s(value: ash.Input, *, position: vec4f):
        return value + await ash.dpdx(value)

    with pytest.raises(ZeroDivisionError):
        ash.run_fragments(s, 2, 2, value=shade_input)
    gc.collect()
    assert not [w for w in recwarn if "never awaited" in str(w.message)]


@ash.fragment
async def late(odd_quad: ash.Uniform, fails: ash.Uniform, *, position: vec4f):
    """Quad ``odd_quad`` (counted along the first row) does something the lean rounds do not
    take, after the quads before it ran lean one after another: a quad swap, or (``fails``)
    a dpdy at another call site on quad id 1, which WGSL calls non-uniform."""
    x = position.x
    v = await ash.dpdx(x)
    if int(x) // 2 == odd_quad:
        if not fails:
            v = v + await ash.quad_swap_x(x)
        elif int(x) % 2:
            return v + await ash.dpdy(x)
    return v + await ash.dpdy(position.y)


@pytest.mark.parametrize("odd_quad", [0, 1, 3])
@pytest.mark.parametrize("fails", [False, True])
def test_a_quad_that_escapes_after_lean_ones_runs_as_on_the_general_loop(odd_quad, fails):
    lean = _late_outcome(odd_quad=odd_quad, fails=fails)
    general = _late_outcome(odd_quad=odd_quad, fails=fails, instruments=[Observer()])
    assert lean == general
    if fails:
        assert lean[0] == "DerivativeUniformityError"
        assert f"quad at ({2 * odd_quad},0)" in lean[1]
    else:  # coarse dpdx of x is 1, dpdy of y is 1; the swap adds the neighbour's x
        swapped = [(x ^ 1) + 0.5 if x // 2 == odd_quad else 0 for x in range(8)]
        assert lean[2][0] == lean[2][1] == [2 + swapped[x] for x in range(8)]


def _late_outcome(**options):
    try:
        r = ash.run_fragments(late, 8, 2, **options)
    except ash.DerivativeUniformityError as exc:
        return (type(exc).__name__, str(exc), exc.asyncshader_trace.to_json())
    return ("ok", r.trace.to_json(), r.output.tolist(), r.counters)


@pytest.mark.anyio
async def test_a_checkpoint_between_lean_quads_resumes_in_the_quad_it_stopped_in():
    """Quads that run one after another in one lean call: the host's checkpoint (every 4096
    steps) falls in the middle of the grid, and the dispatch goes on from that quad."""
    prog = ((DPDX,) * 4, (DPDY,) * 4)  # 12 steps per quad: 4096 steps are 341 quads and a bit
    lean = await ash.dispatch_fragments(program, 64, 32, prog=prog)
    general = await ash.dispatch_fragments(program, 64, 32, prog=prog,
                                           instruments=[Observer()])
    assert lean.counters == general.counters and lean.counters.steps == 12 * 512
    assert lean.trace.to_json() == general.trace.to_json()
    x, y = np.meshgrid(np.arange(64), np.arange(32))
    # acc = x + 10 y; coarse dpdx adds 1; dpdy_fine of that adds 10
    assert np.array_equal(lean.output, x + 10 * y + 11)


def test_a_dispatch_leaves_no_garbage_that_grows_with_its_quads():
    """The lean rounds once kept their members' StopIterations: each one's traceback held the
    round's frame, whose locals held the exception, a cycle per quad that only the garbage
    collector freed (a quarter of a fragment's time went to collecting them). What a
    dispatch leaves for the collector must not depend on how many quads it ran."""
    prog = ((DPDX,) * 4, (DPDY,) * 4)

    def garbage(size, **options):
        gc.collect()
        gc.disable()
        try:
            ash.run_fragments(program, size, size, prog=prog, **options)
            return gc.collect()
        finally:
            gc.enable()

    for options in ({}, {"max_live_quads": 2}, {"schedule": ash.Random(1)}):
        small, large = garbage(4, **options), garbage(32, **options)  # 4 and 256 quads
        assert large - small < 252, options  # less than an object per quad more
