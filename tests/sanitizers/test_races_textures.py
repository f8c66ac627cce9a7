"""Storage textures are memory for the race detector: each texel a location of the handle
address space, which ``texture_barrier`` (WGSL textureBarrier) orders and the other barriers do
not; races are reported at the Python or WGSL lines of the textureStore/textureLoad calls,
whatever the schedule."""

import inspect

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec2i, vec4f

SCHEDULES = [ash.InOrder(), ash.Random(0), ash.Random(5)]
R32 = ash.StorageTexture2D["r32float", "read_write"]


def races(result):
    return [f for f in result.findings if isinstance(f, ash.DataRace)]


def image():
    return ash.Texture([np.zeros((1, 4, 1), np.float32)], "r32float")


@ash.compute(workgroup_size=4)
async def two_per_texel(img: R32, *, local_invocation_index: u32):
    i = local_invocation_index
    ash.texture_store(img, vec2i(i32(i // 2), 0), vec4f(f32(i), 0.0, 0.0, 1.0))


@ash.compute(workgroup_size=4)
async def reverse(img: R32, *, local_invocation_index: u32):
    i = local_invocation_index
    v = ash.texture_load(img, vec2i(i32(i), 0)).x
    await ash.texture_barrier()
    ash.texture_store(img, vec2i(3 - i32(i), 0), vec4f(v + 1.0, 0.0, 0.0, 1.0))


@ash.compute(workgroup_size=4)
async def reverse_storage_barrier(img: R32, *, local_invocation_index: u32):
    i = local_invocation_index
    v = ash.texture_load(img, vec2i(i32(i), 0)).x
    await ash.storage_barrier()  # orders storage buffers, not textures
    ash.texture_store(img, vec2i(3 - i32(i), 0), vec4f(v + 1.0, 0.0, 0.0, 1.0))


def line_of(fn, text):
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, s in enumerate(src) if text in s)


@pytest.mark.parametrize("schedule", SCHEDULES, ids=str)
def test_two_invocations_storing_one_texel_race_at_the_store_line(schedule):
    r = ash.run(two_per_texel, 1, img=image(), schedule=schedule, sanitize="report")
    found = races(r)
    assert len(found) == 1 and found[0].race == "write-write"
    assert found[0].memory == "img" and found[0].address_space == "handle"
    assert found[0].first.line == found[0].second.line == line_of(two_per_texel,
                                                                   "texture_store")
    assert sorted(e[2] for e in found[0].elements) == [0, 1]  # texels x = 0 and x = 1


@pytest.mark.parametrize("schedule", SCHEDULES, ids=str)
def test_texture_barrier_orders_a_load_before_another_invocations_store(schedule):
    img = image()
    img.levels[0][0, :, 0] = [1, 2, 3, 4]
    r = ash.run(reverse, 1, img=img, schedule=schedule, sanitize="report")
    assert races(r) == []
    assert img.levels[0][0, :, 0].tolist() == [5.0, 4.0, 3.0, 2.0]


def test_storage_barrier_does_not_order_textures_and_the_hint_names_texture_barrier():
    r = ash.run(reverse_storage_barrier, 1, img=image(), sanitize="report")
    (race,) = races(r)
    assert race.race == "read-write" and race.address_space == "handle"
    assert sorted({race.first.line, race.second.line}) == [
        line_of(reverse_storage_barrier, "texture_load"),
        line_of(reverse_storage_barrier, "texture_store")]
    assert "texture_barrier()" in race.hint


WGSL = """\
@group(0) @binding(0) var img: texture_storage_2d<r32float, read_write>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = textureLoad(img, vec2i(i32(i), 0)).x;
  storageBarrier();
  textureStore(img, vec2i(i32(3u - i), 0), vec4f(v + 1.0));
}
"""


def test_a_race_on_a_storage_texture_in_loaded_wgsl_is_at_the_wgsl_lines():
    module = ash.load_wgsl(WGSL)
    r = ash.run(module["main"], 1, img=image(), sanitize="report")
    (race,) = races(r)
    assert {race.first.line, race.second.line} == {4, 6}
    assert "textureStore(img" in race.render() and "textureLoad(img" in race.render()
    fixed = ash.load_wgsl(WGSL.replace("storageBarrier", "textureBarrier"))
    assert races(ash.run(fixed["main"], 1, img=image(), sanitize="report")) == []


def test_the_access_diagram_draws_a_storage_texture_race(tmp_path):
    from asyncshader.views.access import access_diagram
    from asyncshader.views.svg import RACE_COLOUR

    tl = ash.Timeline()
    ash.run(reverse_storage_barrier, 1, img=image(), sanitize="report", instruments=[tl])
    access_diagram(tl, tmp_path / "race.svg")
    svg = (tmp_path / "race.svg").read_text()
    assert "img (handle)" in svg
    assert "R img[(0, 0, 0)]" in svg and "W img[(0, 0, 3)]" in svg  # (layer, y, x)
    assert RACE_COLOUR in svg
    tl = ash.Timeline()
    ash.run(reverse, 1, img=image(), sanitize="report", instruments=[tl])
    access_diagram(tl, tmp_path / "ordered.svg")
    assert RACE_COLOUR not in (tmp_path / "ordered.svg").read_text()


def test_explore_tells_apart_the_outcomes_of_a_storage_texture_race():
    # invocations 0 and 1 both store texel x = 0 (and 2 and 3 texel x = 1): which store
    # lands last depends on the schedule, and a dispatch's outputs hold the texture's texels
    report = ash.explore(two_per_texel, lambda: {"img": image()}, runs=24)
    assert len(report.outcomes) > 1
    r = ash.run(two_per_texel, 1, img=image(), schedule=ash.InOrder(), sanitize="off")
    assert r.outputs["img"][0, 0, :2, 0].tolist() == [1.0, 3.0]  # the last writers in order


@ash.fragment
async def all_to_one_texel(img: R32, *, position: ash.vec4f):
    ash.texture_store(img, ash.vec2i(0, 0), ash.vec4f(position.x))
    return f32(1.0)


def test_fragments_storing_one_texel_race_without_any_storage_buffer():
    tex = ash.Texture([np.zeros((2, 2, 1), np.float32)], "r32float")
    r = ash.run_fragments(all_to_one_texel, 2, 2, img=tex, sanitize="report")
    found = races(r)
    assert len(found) == 1 and found[0].memory == "img"
