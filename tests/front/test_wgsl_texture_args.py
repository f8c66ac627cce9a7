"""The optional arguments of texture built-ins (§ Texture Built-in Functions) are checked at
load: an offset is a const-expression ``vec2<i32>``/``vec3<i32>`` in -8..7 per component, an
array index, level or sample index an i32 or u32 (a float level only for textureSampleLevel of
a non-depth texture), the argument count one of the texture kind's overloads."""

import pytest
from tint import tint_diagnostics

from asyncshader import load_wgsl
from asyncshader.front.wgsl import WGSLError, check_wgsl

PRELUDE = """@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var ta: texture_2d_array<f32>;
@group(0) @binding(3) var t3: texture_3d<f32>;
@group(0) @binding(4) var tc: texture_cube<f32>;
@group(0) @binding(5) var td: texture_depth_2d;
@group(0) @binding(6) var sc: sampler_comparison;
@group(0) @binding(7) var tm: texture_multisampled_2d<f32>;
const O = vec2i(-8, 7);
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  let i = u32(p.x);
"""


def program(statement: str) -> str:
    return PRELUDE + f"  {statement}\n  return vec4f();\n}}"


def check(statement: str) -> None:
    check_wgsl(program(statement))


def error(statement: str) -> str:
    with pytest.raises(WGSLError) as caught:
        check(statement)
    return str(caught.value)


ALLOWED = [
    "_ = textureSample(t, s, p.xy, vec2i(1, -8));",
    "_ = textureSample(t, s, p.xy, O);",
    "_ = textureSample(ta, s, p.xy, i, vec2(7, 7));",
    "_ = textureSample(t3, s, p.xyz, vec3i(0, 1, 2));",
    "_ = textureSampleLevel(t, s, p.xy, 2, O);",
    "_ = textureSampleLevel(td, s, p.xy, i);",
    "_ = textureSampleBias(ta, s, p.xy, 1, 0.5, O);",
    "_ = textureSampleGrad(t, s, p.xy, vec2f(1.0), vec2f(0.0), O);",
    "_ = textureSampleCompare(td, sc, p.xy, 0.5, O);",
    "_ = textureGather(2, t, s, p.xy, O);",
    "_ = textureLoad(t, vec2i(1), i);",
    "_ = textureLoad(ta, vec2u(1), 0, 0u);",
    "_ = textureLoad(tm, vec2i(1), 3);",
    "_ = textureDimensions(t, 1);",
]


@pytest.mark.parametrize("statement", ALLOWED)
def test_what_wgsl_allows_type_checks(statement):
    check(statement)


REJECTED = [
    ("_ = textureSample(t, s, p.xy, vec2i(1, 8));",
     "each component of a texture offset is in -8..7 (a const-expression), not 8"),
    ("_ = textureSample(t3, s, p.xyz, vec3i(0, -9, 0));", "not -9"),
    ("let o = vec2i(1); _ = textureSample(t, s, p.xy, o);",
     "the offset of textureSample must be a const-expression"),
    ("_ = textureSample(t, s, p.xy, vec2u(1));",
     "textureSample of texture_2d<f32>: the offset is vec2i, not vec2u"),
    ("_ = textureSample(tc, s, p.xyz, vec3i(1));",
     "textureSample of texture_cube<f32> takes (t, sampler, coords), not 4 arguments"),
    ("_ = textureSample(ta, s, p.xy, 1.0);", "the array_index is an i32 or u32, not "
     "AbstractFloat"),
    ("_ = textureSample(ta, s, p.xy);", "takes (t, sampler, coords, array_index, offset "
     "(optional)), not 3 arguments"),
    ("_ = textureLoad(t, vec2i(0), 0.5);", "textureLoad: the level is an i32 or u32"),
    ("_ = textureLoad(t, vec2i(0));", "textureLoad of texture_2d<f32> takes (t, coords, "
     "level), not 2 arguments"),
    ("_ = textureLoad(tm, vec2i(1), 1.0);", "the sample_index is an i32 or u32"),
    ("_ = textureSampleLevel(td, s, p.xy, 0.5);", "the level is an i32 or u32, not "
     "AbstractFloat"),
    ("_ = textureSampleBias(t, s, p.xy, true);", "the bias is an f32, not bool"),
    ("_ = textureGather(i, t, s, p.xy);", "textureGather's component is a const-expression "
     "in 0..3"),
    ("_ = textureGather(4, t, s, p.xy);", "in 0..3"),
    ("_ = textureSample(td, sc, p.xy);", "textureSample takes a sampler after the texture"),
]


@pytest.mark.parametrize("statement, message", REJECTED)
def test_what_wgsl_rejects_is_a_diagnostic_at_the_call(statement, message):
    found = error(statement)
    assert message in found
    assert "<wgsl>:12:" in found.splitlines()[0]


def test_an_offset_out_of_range_is_refused_at_load_at_the_file_line_and_column_with_the_fix():
    source = PRELUDE.replace("const O = vec2i(-8, 7);", "const O = vec2i(-8, 7) * 2;") + \
        "  return textureSample(t, s, p.xy, vec2i(3, 0) + O);\n}"
    with pytest.raises(WGSLError) as caught:
        load_wgsl(source, name="blur.wgsl")  # (no run: the module is refused as it loads)
    first, *rest = str(caught.value).splitlines()
    assert first.startswith("blur.wgsl:12:36: error: each component of a texture offset is "
                            "in -8..7 (a const-expression), not -13")
    assert "Fix: an offset of at most 8 texels back and 7 forward" in first
    assert rest[-1].strip() == "^" * len("vec2i(3, 0) + O")


def test_tint_agrees(tmp_path):
    """Tint (Chromium's WebGPU) accepts the first list and rejects the second, at line 12."""
    statements = ALLOWED + [statement for statement, _ in REJECTED]
    found = tint_diagnostics({str(i): program(s) for i, s in enumerate(statements)}, tmp_path)
    if found is None:
        pytest.skip("no headless Chromium with WebGPU here (apt-get install chromium)")
    errors = [[m[1] for m in found[str(i)] if m[0] == "error"] for i in range(len(statements))]
    assert errors == [[]] * len(ALLOWED) + [[12]] * len(REJECTED)
