"""Overrides of a loaded WGSL module are pipeline constants: ``load_wgsl(..., constants=)`` or
``module.with_constants(...)`` gives them values (by name or ``@id``) and override-expressions,
``@workgroup_size`` and workgroup array sizes among them, are evaluated at load, as WebGPU
evaluates them at pipeline creation. Expected values are derived by hand or with numpy, and
lavapipe runs the same text with the same constants."""

import numpy as np
import pytest
from ports import wgsl_originals

import asyncshader as ash

PIPELINE = """\
override n: u32;
@id(7) override scale: f32 = 2.0;
override half = scale / 2.0;
override wg = n * 2u;
var<workgroup> tile: array<f32, wg>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(wg)
fn main(@builtin(local_invocation_index) i: u32) {
    tile[i] = f32(i) * half;
    workgroupBarrier();
    out[i] = tile[wg - 1u - i] + f32(n);
}

@compute @workgroup_size(1)
fn other() {
    out[0] = scale;
}
"""


def life(cells, width, height):
    """One step of the game of life on a torus, with numpy."""
    grid = cells.reshape(height, width)
    around = sum(np.roll(np.roll(grid, dy, 0), dx, 1)
                 for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
    return ((around == 3) | ((around == 2) & (grid == 1))).astype(np.uint32).ravel()


@pytest.mark.parametrize("block, constants", [(8, None), (4, {"blockSize": 4})])
def test_the_game_of_life_original_runs_with_its_override_workgroup_size(
        block, constants, gpu_device):
    wgsl = wgsl_originals.source("webgpu-samples_gameOfLife_compute.wgsl")
    assert "override blockSize = 8;" in wgsl  # (the original, unchanged)
    module = ash.load_wgsl(wgsl, constants=constants)
    assert module["main"].workgroup_size == (block, block, 1)
    assert module["blockSize"] == block
    width, height = 16, 8
    cells = (np.random.default_rng(2).random(width * height) < 0.4).astype(np.uint32)
    size = np.array([width, height], np.uint32)
    groups = (width // block, height // block)
    nxt = np.zeros(width * height, np.uint32)
    ash.run(module["main"], groups, size=size, current=cells, next=nxt)
    assert nxt.tolist() == life(cells, width, height).tolist()
    gpu = wgsl_originals.run(gpu_device, wgsl, "main", groups, constants=constants,
                             size=size, current=cells, next=np.zeros(width * height, np.uint32))
    assert gpu["next"].tolist() == nxt.tolist()


def test_override_expressions_size_the_workgroup_and_its_array(gpu_device):
    module = ash.load_wgsl(PIPELINE, constants={"n": 3, 7: 4.0})
    # wg = 2n = 6 invocations; half = 4.0 / 2 = 2.0; out[i] = tile[5 - i] + 3 = 2(5 - i) + 3
    assert module["main"].workgroup_size == (6, 1, 1)
    assert (module["wg"], module["half"], module.constants) == (6, 2.0, {"n": 3, "scale": 4.0})
    out = np.zeros(6, np.float32)
    ash.run(module["main"], 1, out=out)
    assert out.tolist() == [13.0, 11.0, 9.0, 7.0, 5.0, 3.0]
    gpu = wgsl_originals.run(gpu_device, PIPELINE, "main", 1, constants={"n": 3, "7": 4.0},
                             out=np.zeros(6, np.float32))
    assert gpu["out"].tolist() == out.tolist()


def test_an_override_without_default_is_required_only_by_the_entry_points_that_use_it():
    module = ash.load_wgsl(PIPELINE)  # (n has no value)
    assert module.entry_points == ["main", "other"]
    out = np.zeros(1, np.float32)
    ash.run(module["other"], 1, out=out)
    assert out.tolist() == [2.0]  # scale's default
    with pytest.raises(ash.ShaderCreationError, match=r"::main uses the override n, which has "
                       r"no default and no value.*constants=\{'n': \.\.\.\}"):
        module["main"]


def test_with_constants_makes_another_pipeline_of_the_same_text():
    module = ash.load_wgsl(PIPELINE, constants={"n": 1})
    bigger = module.with_constants(n=4)
    assert bigger is not module and bigger.source is module.source
    assert (module["main"].workgroup_size, bigger["main"].workgroup_size) == ((2, 1, 1),
                                                                              (8, 1, 1))
    assert bigger.with_constants({7: 8.0})["half"] == 4.0
    assert ash.load_wgsl(PIPELINE, constants={"n": 4}) is bigger  # (cached by constants)


def test_a_value_for_an_override_no_entry_point_uses_is_accepted():
    wgsl = ("override unused: u32;\n@group(0) @binding(0) var<storage, read_write> "
            "out: array<u32>;\n@compute @workgroup_size(1)\nfn main() { out[0] = 5u; }\n")
    out = np.zeros(1, np.uint32)
    ash.run(ash.load_wgsl(wgsl, constants={"unused": 9})["main"], 1, out=out)
    ash.run(ash.load_wgsl(wgsl)["main"], 1, out=out)  # (and none is needed)
    assert out.tolist() == [5]


def test_constants_for_undeclared_overrides_list_the_declared_ones():
    with pytest.raises(ash.ShaderCreationError, match=r"constants= gives 'N', which is no "
                       r"override.*its overrides: n, scale \(@id\(7\)\), half, wg"):
        ash.load_wgsl(PIPELINE, constants={"N": 3})
    with pytest.raises(ash.ShaderCreationError, match="gives 8, which is no override"):
        ash.load_wgsl(PIPELINE, constants={8: 1.0})
    with pytest.raises(ash.ShaderCreationError, match="override scale twice"):
        ash.load_wgsl(PIPELINE, constants={"scale": 1.0, "7": 2.0})


@pytest.mark.parametrize("value, reason", [
    (-3, "does not fit in u32"), (1.5, "1.5 is not an integer"), (2**32, "does not fit")])
def test_a_constant_the_override_type_cannot_hold_is_refused_at_its_declaration(value, reason):
    with pytest.raises(ash.ShaderCreationError, match=rf":1:10: constants= gives override 'n' "
                       rf"\(u32\) the value .*{reason}"):
        ash.load_wgsl(PIPELINE, constants={"n": value})


def test_an_override_expression_error_is_a_pipeline_creation_error_at_its_place():
    wgsl = ("override d: i32;\noverride q = 10 / d;\n@group(0) @binding(0) var<storage, "
            "read_write> out: array<i32>;\n@compute @workgroup_size(1)\n"
            "fn main() { out[0] = q; }\n")
    module = ash.load_wgsl(wgsl, constants={"d": 5})
    out = np.zeros(1, np.int32)
    ash.run(module["main"], 1, out=out)
    assert out.tolist() == [2]
    with pytest.raises(ash.ShaderCreationError, match=r":2:14:.*division by zero"):
        ash.load_wgsl(wgsl, constants={"d": 0})


def test_override_sizes_below_one_are_refused_at_their_place():
    with pytest.raises(ash.ShaderCreationError, match=r":5:33: error: an array's element "
                       "count must be positive, not 0"):
        ash.load_wgsl(PIPELINE, constants={"n": 0})
    wgsl = "override w = 2u;\n@compute @workgroup_size(w, 2)\nfn main() {}\n"
    assert ash.load_wgsl(wgsl)["main"].workgroup_size == (2, 2, 1)
    with pytest.raises(ash.ShaderCreationError, match=r":2:26: error: @workgroup_size must "
                       "be at least 1, not 0"):
        ash.load_wgsl(wgsl, constants={"w": 0})


def test_a_dispatch_s_overrides_are_refused_with_where_constants_go():
    module = ash.load_wgsl(PIPELINE, constants={"n": 1})
    with pytest.raises(ash.DispatchError, match=r"pipeline constants, fixed when the module "
                       r"is loaded.*with_constants\(\.\.\.\)\['main'\]"):
        ash.run(module["main"], 1, out=np.zeros(2, np.float32), overrides={"n": 2})


def test_an_override_default_the_loader_cannot_evaluate_is_refused_only_where_used():
    wgsl = ("override root = sqrt(2.0);\n@group(0) @binding(0) var<storage, read_write> "
            "out: array<f32>;\n@compute @workgroup_size(1)\nfn main() { out[0] = 3.0; }\n")
    out = np.zeros(1, np.float32)
    ash.run(ash.load_wgsl(wgsl)["main"], 1, out=out)  # (unused: loads)
    assert out.tolist() == [3.0]
    used = wgsl.replace("out[0] = 3.0", "out[0] = root")
    assert ash.load_wgsl(used, constants={"root": 1.5})["main"] is not None  # (given: fine)
    with pytest.raises(ash.ShaderCreationError, match=r":4:22:.*not supported yet by "
                       r"load_wgsl: the override 'root' here"):
        ash.load_wgsl(used)
