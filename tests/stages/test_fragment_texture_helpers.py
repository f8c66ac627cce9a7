"""A fragment helper invocation's ``textureStore`` has no effect (WGSL: helpers' writes to
storage, buffers and textures alike, have none): the uncovered pixels of a covered quad under
``coverage=``, the padding past an odd edge and a discarded pixel write no texel, under the
coroutine schedules as under Lockstep (the same bits), for a loaded WGSL shader and a Python
one, and the race detector notes each such store as a HelperSideEffect naming the texture
(tests/stages/test_fragment_coverage.py has the coverage and discard case with a float
texture)."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import i32, u32, vec2i, vec4f, vec4u

STORES = """\
@group(0) @binding(0) var img: texture_storage_2d<r32uint, write>;

@fragment
fn main(@builtin(position) p: vec4f) {
    let x = u32(p.x);
    let y = u32(p.y);
    if (x == 2u && y == 2u) {
        discard;
    }
    textureStore(img, vec2u(x, y), vec4u(1u + x + 10u * y, 0u, 0u, 1u));
}
"""


R32Out = ash.StorageTexture2D["r32uint", "write"]


@ash.fragment
async def stores(img: R32Out, *, position: vec4f):
    x, y = u32(position.x), u32(position.y)
    if x == 2 and y == 2:
        ash.discard()
    ash.texture_store(img, vec2i(i32(x), i32(y)), vec4u(1 + x + 10 * y, 0, 0, 1))


def expected(width, height, coverage=None):
    """By hand: each shaded pixel (covered, inside the grid, not (2,2), which discards) holds
    1 + x + 10 y; every other texel of the 4x4 texture stays 0."""
    want = np.zeros((4, 4), np.uint32)
    for y in range(height):
        for x in range(width):
            if (coverage is None or coverage[y, x]) and (x, y) != (2, 2):
                want[y, x] = 1 + x + 10 * y
    return want


CASES = {
    "odd edge": (3, 3, None),  # (the padding column x = 3 and row y = 3 are helpers)
    "coverage": (4, 4, np.array([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1]],
                                bool)),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("shader", ["wgsl", "python"])
def test_helpers_write_no_texel_under_inorder_and_lockstep_alike(case, shader):
    width, height, coverage = CASES[case]
    fn = ash.load_wgsl(STORES)["main"] if shader == "wgsl" else stores
    written = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        texels = np.zeros((4, 4, 1), np.uint32)
        ash.run_fragments(fn, width, height, img=ash.Texture([texels], "r32uint"),
                          coverage=coverage, schedule=schedule, sanitize="off")
        written.append(texels[..., 0])
    assert written[0].tolist() == expected(width, height, coverage).tolist()
    assert written[1].tobytes() == written[0].tobytes()


def test_a_helpers_texture_store_is_a_helper_side_effect_naming_the_texture():
    texels = np.zeros((4, 4, 1), np.uint32)
    r = ash.run_fragments(stores, 3, 3, img=ash.Texture([texels], "r32uint"),
                          sanitize="report")
    assert texels[..., 0].tolist() == expected(3, 3).tolist()
    found = [f for f in r.findings if isinstance(f, ash.HelperSideEffect)]
    # 7 padding helpers (x = 3 or y = 3) and the discarded (2,2): 8 dropped stores
    assert len(found) == 1 and found[0].memory == "img" and found[0].count == 8
    assert found[0].severity == "note" and found[0].access.kind == "store"

