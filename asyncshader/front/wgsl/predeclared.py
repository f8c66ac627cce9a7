"""The names WGSL predeclares (§ Predeclared types and type-generators, § Predeclared
enumerants, § Built-in functions): what an identifier denotes when no declaration of the
module or the function gives it. A module may shadow any of them (``const min = 1;``)."""

from __future__ import annotations

from dataclasses import dataclass

#: the kinds of predeclared object
TYPE, GENERATOR, FUNCTION, ENUMERANT = "type", "type-generator", "built-in function", "enumerant"


@dataclass(frozen=True, slots=True)
class Predeclared:
    """A predeclared object: its name and :data:`kind` (a type, a type-generator, a built-in
    function or an enumerant: an address space, an access mode or a texel format)."""

    name: str
    kind: str


_TYPES = ("bool f16 f32 i32 u32 sampler sampler_comparison texture_depth_2d "
          "texture_depth_2d_array texture_depth_cube texture_depth_cube_array "
          "texture_depth_multisampled_2d texture_external")
_GENERATORS = ("array atomic ptr vec2 vec3 vec4 mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 "
               "mat4x2 mat4x3 mat4x4 texture_1d texture_2d texture_2d_array texture_3d "
               "texture_cube texture_cube_array texture_multisampled_2d texture_storage_1d "
               "texture_storage_2d texture_storage_2d_array texture_storage_3d binding_array "
               "buffer")
_ENUMERANTS = (
    "read write read_write function private workgroup uniform storage immediate "
    "rgba8unorm rgba8snorm rgba8uint rgba8sint rgba16unorm rgba16snorm rgba16uint rgba16sint "
    "rgba16float rg8unorm rg8snorm rg8uint rg8sint rg16unorm rg16snorm rg16uint rg16sint "
    "rg16float r32uint r32sint r32float rg32uint rg32sint rg32float rgba32uint rgba32sint "
    "rgba32float bgra8unorm r8unorm r8snorm r8uint r8sint r16unorm r16snorm r16uint r16sint "
    "r16float rgb10a2unorm rgb10a2uint rg11b10ufloat")
_FUNCTIONS = (
    # constructors are the types and generators above; these are the other built-ins
    "bitcast all any select arrayLength abs acos acosh asin asinh atan atanh atan2 ceil clamp "
    "cos cosh countLeadingZeros countOneBits countTrailingZeros cross degrees determinant "
    "distance dot dot4U8Packed dot4I8Packed exp exp2 extractBits faceForward firstLeadingBit "
    "firstTrailingBit floor fma fract frexp insertBits inverseSqrt ldexp length log log2 max "
    "min mix modf normalize pow quantizeToF16 radians reflect refract reverseBits round "
    "saturate sign sin sinh smoothstep sqrt step tan tanh transpose trunc "
    "dpdx dpdxCoarse dpdxFine dpdy dpdyCoarse dpdyFine fwidth fwidthCoarse fwidthFine "
    "textureDimensions textureGather textureGatherCompare textureLoad textureNumLayers "
    "textureNumLevels textureNumSamples textureSample textureSampleBias textureSampleCompare "
    "textureSampleCompareLevel textureSampleGrad textureSampleLevel "
    "textureSampleBaseClampToEdge textureStore atomicLoad atomicStore atomicAdd atomicSub "
    "atomicMax atomicMin atomicAnd atomicOr atomicXor atomicExchange atomicCompareExchangeWeak "
    "pack4x8snorm pack4x8unorm pack4xI8 pack4xU8 pack4xI8Clamp pack4xU8Clamp pack2x16snorm "
    "pack2x16unorm pack2x16float unpack4x8snorm unpack4x8unorm unpack4xI8 unpack4xU8 "
    "unpack2x16snorm unpack2x16unorm unpack2x16float storageBarrier textureBarrier "
    "workgroupBarrier workgroupUniformLoad subgroupAdd subgroupExclusiveAdd "
    "subgroupInclusiveAdd subgroupAll subgroupAnd subgroupAny subgroupBallot subgroupBroadcast "
    "subgroupBroadcastFirst subgroupElect subgroupMax subgroupMin subgroupMul "
    "subgroupExclusiveMul subgroupInclusiveMul subgroupOr subgroupShuffle subgroupShuffleDown "
    "subgroupShuffleUp subgroupShuffleXor subgroupXor quadBroadcast quadSwapDiagonal quadSwapX "
    "quadSwapY bufferView bufferArrayView bufferLength")


def _aliases() -> list[str]:
    names = [f"vec{n}{s}" for n in (2, 3, 4) for s in "ifuh"]
    names += [f"mat{c}x{r}{s}" for c in (2, 3, 4) for r in (2, 3, 4) for s in "fh"]
    return names


#: every predeclared name, to the object it denotes
PREDECLARED: dict[str, Predeclared] = {
    name: Predeclared(name, kind)
    for kind, names in ((TYPE, _TYPES.split() + _aliases()), (GENERATOR, _GENERATORS.split()),
                        (ENUMERANT, _ENUMERANTS.split()), (FUNCTION, _FUNCTIONS.split()))
    for name in names
}

#: the enable-extensions WGSL defines (§ Enable extensions)
ENABLE_EXTENSIONS = frozenset(
    "f16 clip_distances dual_source_blending subgroups primitive_index subgroup_size_control"
    .split())
#: the language extensions WGSL defines (§ Language extensions), for ``requires``
LANGUAGE_EXTENSIONS = frozenset(
    "readonly_and_readwrite_storage_textures packed_4x8_integer_dot_product "
    "unrestricted_pointer_parameters pointer_composite_access uniform_buffer_standard_layout "
    "subgroup_id subgroup_uniformity texture_and_sampler_let texture_formats_tier1 "
    "linear_indexing immediate_address_space fragment_depth buffer_view".split())
#: the built-in functions that take a template list (``bitcast<vec4u>(v)``)
TEMPLATED_FUNCTIONS = frozenset(("bitcast", "bufferView", "bufferArrayView"))
