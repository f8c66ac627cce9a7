"""The fragment stage: quads, helpers, discard, inputs, outputs, errors."""

import dataclasses
import itertools

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import vec2f, vec4f

SCHEDULES = [ash.InOrder(), ash.Random(0), ash.Random(1)]
#: the schedules above and Lockstep
WITH_LOCKSTEP = [*SCHEDULES, ash.Lockstep()]


def shade(shader, width, height, schedule, **given):
    """``run_fragments`` under ``schedule``, the race detector on by default under each."""
    return ash.run_fragments(shader, width, height, schedule=schedule, **given)


@ash.fragment
async def product_derivatives(*, position: vec4f):
    f = position.x * position.y
    return vec2f(await ash.dpdx_fine(f), await ash.dpdy_fine(f))


@pytest.mark.parametrize("schedule", WITH_LOCKSTEP, ids=repr)
@pytest.mark.parametrize("live", [1, 3])
def test_fine_derivatives_of_x_times_y_are_the_neighbour_differences(schedule, live):
    """f = x*y at pixel centres: dpdx on a row is the centre's y, dpdy on a column its x."""
    r = shade(product_derivatives, 6, 4, schedule, max_live_quads=live)
    ys, xs = np.mgrid[0:4, 0:6].astype(np.float32) + np.float32(0.5)
    np.testing.assert_array_equal(r.output[..., 0], ys)
    np.testing.assert_array_equal(r.output[..., 1], xs)
    assert r.mask.all() and r.output.shape == (4, 6, 2) and r.output.dtype == np.float32


@ash.fragment
async def coarse_and_plain(*, position: vec4f):
    f = position.x * position.x + 10 * position.y
    return ash.vec4f(await ash.dpdx_coarse(f), await ash.dpdy_coarse(f), await ash.dpdx(f),
                     await ash.fwidth(f))


@pytest.mark.parametrize("schedule", WITH_LOCKSTEP, ids=repr)
def test_coarse_derivatives_are_taken_from_quad_id_0_for_the_whole_quad(schedule):
    r = shade(coarse_and_plain, 4, 2, schedule)
    # quad x in {0,1}: f(1.5) - f(0.5) = 2; quad x in {2,3}: f(3.5) - f(2.5) = 6
    np.testing.assert_array_equal(r.output[..., 0], [[2, 2, 6, 6], [2, 2, 6, 6]])
    np.testing.assert_array_equal(r.output[..., 1], np.full((2, 4), 10))
    np.testing.assert_array_equal(r.output[..., 2], r.output[..., 0])  # default: coarse
    np.testing.assert_array_equal(r.output[..., 3], r.output[..., 0] + 10)


def test_the_derivatives_option_switches_plain_variants_to_fine_consistently():
    r = ash.run_fragments(coarse_and_plain, 4, 2, derivatives="fine")
    np.testing.assert_array_equal(r.output[..., 2], [[2, 2, 6, 6], [2, 2, 6, 6]])
    with pytest.raises(ash.DispatchError, match="'coarse' or 'fine'"):
        ash.run_fragments(coarse_and_plain, 4, 2, derivatives="medium")


@ash.fragment
async def ramp(v: ash.Input, *, position: vec4f):
    return vec2f(await ash.dpdx_fine(v), await ash.fwidth_fine(position.x + position.y))


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Lockstep()], ids=repr)
@pytest.mark.parametrize("size", [(5, 3), (1, 1), (3, 4), (7, 7)])
def test_odd_grids_are_padded_with_helpers_that_keep_ramps_exact(size, schedule):
    w, h = size
    v = np.tile(np.arange(w, dtype=np.float32) * 3, (h, 1))  # a ramp along x: dpdx = 3
    r = shade(ramp, w, h, schedule, v=v)
    assert r.output.shape == (h, w, 2) and r.mask.all()
    expected = 3 if w > 1 else 0  # a 1-pixel-wide array cannot say how it continues
    np.testing.assert_array_equal(r.output[..., 0], np.full((h, w), expected))
    np.testing.assert_array_equal(r.output[..., 1], np.full((h, w), 2))
    assert r.counters.invocations == 4 * ((w + 1) // 2) * ((h + 1) // 2)


@ash.fragment
async def marks(out: ash.Storage, counter: ash.Storage, *, position: vec4f):
    x, y = int(position.x), int(position.y)
    out[y * 3 + x] = 1
    await ash.atomic_add(ash.ptr(counter, 0), 1)
    return position.x


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Lockstep()], ids=repr)
def test_helpers_write_nothing_and_their_atomics_have_no_effect(schedule):
    out = np.zeros(3 * 4, np.uint32)  # room for helper pixels too: they must stay 0
    counter = np.zeros(1, np.uint32)
    r = shade(marks, 3, 3, schedule, out=out, counter=counter)
    assert counter[0] == 9  # 16 invocations ran, 9 covered
    assert out.reshape(4, 3)[:3].all() and not out.reshape(4, 3)[3:].any()
    assert r.output.shape == (3, 3) and r.mask.all()


@ash.fragment
async def discards_left_column(v: ash.Input, out: ash.Storage, *, position: vec4f):
    x, y = int(position.x), int(position.y)
    if x == 0:
        ash.discard()
    out[y * 4 + x] = 7
    return vec2f(await ash.dpdx_coarse(v), await ash.dpdy_coarse(v))


@pytest.mark.parametrize("schedule", WITH_LOCKSTEP, ids=repr)
def test_discard_demotes_to_a_helper_that_still_feeds_derivatives(schedule):
    """CTS discard.spec 'derivatives': quad values [4, 1, 7, 4]; dx = -3, dy = 3 survive."""
    v = np.array([[4, 1, 4, 1], [7, 4, 7, 4]], np.float32)
    out = np.zeros(8, np.uint32)
    r = shade(discards_left_column, 4, 2, schedule, v=v, out=out)
    assert r.mask.tolist() == [[False, True, True, True], [False, True, True, True]]
    assert out.reshape(2, 4)[:, 0].tolist() == [0, 0]  # the discarded column wrote nothing
    assert (out.reshape(2, 4)[:, 1:] == 7).all()
    np.testing.assert_array_equal(r.output[..., 0][r.mask], -3)
    np.testing.assert_array_equal(r.output[..., 1][r.mask], 3)
    np.testing.assert_array_equal(r.output[~r.mask], 0)


@dataclasses.dataclass
class GBuffer:
    color: vec4f
    depth: float
    id: np.uint32


@ash.fragment
async def gbuffer(tint: ash.vec4f, *, position: vec4f):
    return GBuffer(tint * position.x, position.y / 10, np.uint32(position.x))


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Lockstep()], ids=repr)
def test_struct_outputs_become_one_array_per_field_and_uniforms_convert(schedule):
    r = shade(gbuffer, 2, 2, schedule, tint=(1, 2, 3, 4))
    assert set(r.output) == {"color", "depth", "id"}
    assert r["color"].shape == (2, 2, 4) and r["color"].dtype == np.float32
    np.testing.assert_allclose(r["color"][1, 1], [1.5, 3, 4.5, 6])
    assert r["depth"].dtype == np.float32 and r["depth"][1, 0] == np.float32(0.15)
    assert r["id"].dtype == np.uint32 and r["id"].tolist() == [[0, 1], [0, 1]]


def test_inputs_from_callables_and_vector_arrays_and_builtins():
    seen = {}

    @ash.fragment
    async def probe(uv: ash.Input, c, *, position: vec4f, front_facing: bool,
                    sample_index, sample_mask):
        seen[int(position.x), int(position.y)] = (uv, c, front_facing, sample_index, sample_mask)

    uv = np.arange(2 * 2 * 2, dtype=np.float64).reshape(2, 2, 2)
    r = ash.run_fragments(probe, 2, 2, uv=uv, c=lambda x, y: x * 10 + y, front_facing=False)
    assert r.output is None and r.mask.all()
    uv11, c11, front, index, mask = seen[1, 1]
    assert isinstance(uv11, ash.vec2f) and list(uv11) == [6, 7]
    assert c11 == 11 and front is False and index == 0 and mask == 1


@ash.fragment
async def pos(*, position: vec4f):
    return position


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Lockstep()], ids=repr)
def test_position_has_pixel_centres_and_the_given_z_and_w(schedule):
    r = shade(pos, 3, 1, schedule, position_z=0.25, position_w=2)
    np.testing.assert_array_equal(r.output[0, 2], [2.5, 0.5, 0.25, 2])


@ash.fragment
async def early_return(*, position: vec4f):
    if int(position.x) == 1 and int(position.y) == 0:
        return 0.0
    return await ash.dpdx(position.x)


def test_a_quad_member_returning_before_a_derivative_is_a_uniformity_error():
    with pytest.raises(ash.DerivativeUniformityError) as info:
        ash.run_fragments(early_return, 2, 2)
    msg = str(info.value)
    assert "quad at (0,0)" in msg and "non-uniform control flow" in msg
    assert "quad id 1 (1 invocation): returned" in msg
    assert "quad id 0, 2-3 (3 invocations): waits at" in msg and "in dpdx()" in msg


_calls = itertools.count()


async def alternating_dpdx(v):
    if next(_calls) % 2 == 0:
        return await ash.dpdx(v)  # even calls
    return await ash.dpdx(v)  # odd calls


derivative = ash.dpdx  # what awaits_derivative awaited when it was decorated


@ash.fragment
async def awaits_derivative(*, position: vec4f):
    return await derivative(position.x)


def test_a_name_rebound_to_a_helper_after_decoration_is_checked_through_the_helper(monkeypatch):
    np.testing.assert_array_equal(ash.run_fragments(awaits_derivative, 2, 2).output, 1)
    monkeypatch.setitem(globals(), "derivative", alternating_dpdx)
    with pytest.raises(ash.DerivativeUniformityError, match="non-uniform control flow"):
        ash.run_fragments(awaits_derivative, 2, 2)


def test_bad_fragment_arguments_are_clear_errors():
    with pytest.raises(ash.DispatchError, match="width must be a non-negative int"):
        ash.run_fragments(ramp, -1, 2, v=np.zeros((2, 1), np.float32))
    with pytest.raises(ash.BindingError, match="must be an array shaped"):
        ash.run_fragments(ramp, 2, 2, v=np.zeros((3, 3, 7), np.float32))
    with pytest.raises(ValueError, match="id must be a constant int from 0 to 3"):
        ash.quad_broadcast(1.0, 4)
    with pytest.raises(RuntimeError, match="fragment shader statement"):
        ash.discard()
    with pytest.raises(TypeError, match="async def"):
        ash.fragment(lambda: None)


def test_fragment_runs_replay_and_the_trace_names_the_stage(tmp_path):
    r = ash.run_fragments(product_derivatives, 4, 4, schedule=ash.Random(5), max_live_quads=4)
    assert r.trace.dispatch["stage"] == "fragment" and r.trace.dispatch["size"] == [4, 4]
    r.trace.save(tmp_path / "t.json")
    again = ash.run_fragments(product_derivatives, 4, 4, schedule=ash.Replay(tmp_path / "t.json"),
                              max_live_quads=4)
    assert again.trace == r.trace
    np.testing.assert_array_equal(again.output, r.output)


def test_a_one_row_float_input_still_extends_linearly_along_x():
    @ash.fragment
    async def neighbour(t: ash.Input):
        return await ash.quad_swap_x(t)

    r = ash.run_fragments(neighbour, 3, 1, t=np.array([[0, 10, 20]], np.float32))
    np.testing.assert_array_equal(r.output, [[10, 0, 30]])  # the helper at x=3 sees 30


def test_a_discarded_fragment_cannot_write_storage_even_in_place():
    @ash.fragment
    async def writes_after_discard(buf: ash.Storage, *, position: vec4f):
        ash.discard()
        buf += 1
        buf[0] = 100
        return ash.f32(1)

    buf = np.zeros(2, np.float32)
    r = ash.run_fragments(writes_after_discard, 2, 2, buf=buf)
    assert buf.tolist() == [0, 0]
    assert not r.mask.any()
    assert r.output.shape == (2, 2) and not r.output.any()  # shaped, though nothing was covered


def test_in_place_storage_updates_by_covered_fragments_land():
    @ash.fragment
    async def bumps(buf: ash.Storage, *, position: vec4f):
        if int(position.x) == 0 and int(position.y) == 0:
            buf += 1

    buf = np.zeros(2, np.float32)
    ash.run_fragments(bumps, 3, 3, buf=buf)
    assert buf.tolist() == [1, 1]


def test_keeping_an_operation_to_await_it_later_is_not_a_forgotten_await():
    @ash.compute(workgroup_size=2)
    async def deferred(out: ash.Storage):
        pending = ash.atomic_add(ash.ptr(out, 0), 1)
        await pending

    out = np.zeros(1, np.uint32)
    ash.run(deferred, out=out)
    assert out[0] == 2


def test_a_workgroup_barrier_in_a_fragment_shader_says_it_is_compute_only():
    @ash.fragment
    async def barrier():
        await ash.workgroup_barrier()

    with pytest.raises(ash.AsyncShaderError, match="exist only in compute shaders"):
        ash.run_fragments(barrier, 2, 2)


class _Observer(ash.Instrument):
    """Any resume hook forces the general loop."""

    def invocation_resumed(self, inv):
        pass


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_fragment_fast_paths_and_the_general_loop_agree_on_values_and_traces(schedule):
    fast = ash.run_fragments(product_derivatives, 6, 4, schedule=schedule)
    general = ash.run_fragments(product_derivatives, 6, 4, schedule=schedule,
                                instruments=[_Observer()])
    np.testing.assert_array_equal(fast.output, general.output)
    assert fast.trace == general.trace and fast.counters == general.counters


def test_a_fragment_returning_another_type_than_the_first_is_an_error_not_a_cast():
    @ash.fragment
    async def mixed(*, position: vec4f):
        return position.x / 3 if position.x > 2 else 1  # a float after ints

    with pytest.raises(TypeError, match=r"fragment \(2,0\) returned float32.*first fragment "
                                        r"returned int32"):
        ash.run_fragments(mixed, 3, 1)


def test_a_misspelled_builtin_is_caught_at_decoration():
    with pytest.raises(TypeError, match="did you mean .*'local_invocation_index'"):
        @ash.compute(workgroup_size=1)
        async def k(out: ash.Storage, *, local_invocation_idx):
            pass


def test_a_uniformity_error_at_an_odd_edge_says_which_members_are_helpers():
    @ash.fragment
    async def returns_past_the_edge(*, position: vec4f):
        if position.x > 3:  # the padding column returns early
            return 0.0
        return await ash.dpdx(position.x)

    with pytest.raises(ash.DerivativeUniformityError) as info:
        ash.run_fragments(returns_past_the_edge, 3, 2)
    assert "quad id 1, 3 (2 invocations, helper invocations): returned" in str(info.value)


@ash.fragment
async def writes_by_row(buf: ash.Storage, *, position: vec4f):
    buf[int(position.y)][int(position.x)] = 1  # through a row view
    buf[0][0] = 7  # every fragment: a race


@pytest.mark.parametrize("sanitize", ["off", "report"])
def test_storage_row_views_in_fragments_keep_their_invocation(sanitize):
    buf = np.zeros((2, 4), np.uint32)
    r = ash.run_fragments(writes_by_row, 3, 2, buf=buf, sanitize=sanitize)
    assert buf.tolist() == [[7, 1, 1, 0], [1, 1, 1, 0]]  # the padding column wrote nothing
    found = {type(f).__name__ for f in r.findings}
    assert found == (set() if sanitize == "off" else {"DataRace", "HelperSideEffect"})


@ash.fragment
async def shades_vectors(colors: ash.Storage[vec4f], lut: ash.ReadOnly[vec2f], *,
                         position: vec4f):
    x, y = int(position.x), int(position.y)
    i = y * 4 + x  # (4 columns: the padding column of a 3-wide image is x = 3)
    colors[i].x = ash.f32(x) + lut[min(y, 2)].y  # a component store: helpers' are dropped
    colors[i].w += 1.0
    colors[15].y = ash.f32(x)  # every fragment: a race
    return colors[i] * 0.5 + vec4f(lut[0], 0.0, 0.0)


@pytest.mark.parametrize("sanitize", ["off", "report"])
def test_fragment_storage_declared_with_a_vector_element_loads_vectors(sanitize):
    colors = np.arange(64, dtype=np.float32).reshape(16, 4)
    lut = np.array([[0.5, 0.25], [1.0, 10.0], [2.0, 20.0]], np.float32)
    r = ash.run_fragments(shades_vectors, 3, 3, colors=colors, lut=lut, sanitize=sanitize)
    expected = np.arange(64, dtype=np.float32).reshape(16, 4)
    for y, x in itertools.product(range(3), range(3)):  # the covered pixels; helpers wrote none
        expected[y * 4 + x, 0] = x + lut[y, 1]
        expected[y * 4 + x, 3] += 1
    assert colors[:15].tolist() == expected[:15].tolist()
    assert colors[15, 1] in (0, 1, 2) and colors[15, [0, 2, 3]].tolist() == [60, 62, 63]
    shaded = expected[[y * 4 + x for y in range(3) for x in range(3)]] * 0.5 + [0.5, 0.25, 0, 0]
    assert r.output.reshape(9, 4).tolist() == shaded.tolist()
    races = [f for f in r.findings if isinstance(f, ash.DataRace)]
    assert bool(races) == (sanitize == "report")
    assert all(f.memory == "colors" and f.index[0] == 15 for f in races)


async def _maybe_discard(x):
    if x > 3:
        ash.discard()  # in a helper coroutine, between two derivatives of the quad
    return await ash.dpdx(x)


@ash.fragment
async def discards_in_a_helper(*, position: vec4f):
    d = await _maybe_discard(position.x)
    return d + await ash.dpdy(position.y)


@pytest.mark.parametrize("instruments", [(), (_Observer(),)], ids=["fast", "general"])
@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_discard_in_a_helper_demotes_the_invocation_that_called_it(schedule, instruments):
    # several live quads interleave under Random: discard() must hit the running invocation
    r = ash.run_fragments(discards_in_a_helper, 6, 2, schedule=schedule, max_live_quads=3,
                          instruments=list(instruments), sanitize="off")  # no instrument at all
    assert r.mask.tolist() == [[True, True, True, False, False, False]] * 2
    # the discarded fragments still fed their neighbours' derivatives: dpdx = 1, dpdy = 1
    assert r.output[:, :3].tolist() == [[2.0, 2.0, 2.0]] * 2


def test_discard_from_an_input_callable_is_outside_the_shader():
    def bad_input(x, y):
        ash.discard()
        return 0.0

    @ash.fragment
    async def reads(t: ash.Input):
        return t

    with pytest.raises(RuntimeError, match="outside the shader's own code"):
        ash.run_fragments(reads, 2, 2, t=bad_input)


def test_a_cancelled_fragment_dispatch_keeps_no_invocation_alive():
    import anyio

    @ash.fragment
    async def slow(*, position: vec4f):
        s = ash.f32(0)
        for i in range(20):
            s += await ash.dpdx(position.x * i)
        return s

    async def main():
        with anyio.move_on_after(0.02):
            await ash.dispatch_fragments(slow, 301, 301, sanitize="off")

    from asyncshader._core.scheduler import Scheduler

    seen = []
    original = Scheduler._close

    def spy(self):
        original(self)
        seen.append(self.current)

    Scheduler._close = spy
    try:
        anyio.run(main)
    finally:
        Scheduler._close = original
    assert seen == [None]
