"""Textures and samplers: texel formats (``formats``), the resources (``resources``), the
annotations that declare them in a shader (``annotations``), filtering (``sampling``) and the
WGSL texture built-ins that need no quad (``builtins``)."""

from .annotations import (
    SamplerComparison,
    StorageTexture1D,
    StorageTexture2D,
    StorageTexture2DArray,
    StorageTexture3D,
    Texture1D,
    Texture2D,
    Texture2DArray,
    Texture3D,
    TextureCube,
    TextureCubeArray,
    TextureDepth2D,
    TextureDepth2DArray,
    TextureDepthCube,
    TextureDepthCubeArray,
    TextureDepthMultisampled2D,
    TextureMultisampled2D,
)
from .builtins import (
    texture_dimensions,
    texture_gather,
    texture_gather_compare,
    texture_load,
    texture_num_layers,
    texture_num_levels,
    texture_num_samples,
    texture_sample_base_clamp_to_edge,
    texture_sample_compare_level,
    texture_sample_grad,
    texture_sample_level,
    texture_store,
)
from .resources import Sampler, Texture, TextureView

#: the names asyncshader re-exports
__all__ = [
    "Sampler", "SamplerComparison", "StorageTexture1D", "StorageTexture2D",
    "StorageTexture2DArray", "StorageTexture3D", "Texture", "Texture1D", "Texture2D",
    "Texture2DArray", "Texture3D", "TextureCube", "TextureCubeArray", "TextureDepth2D",
    "TextureDepth2DArray", "TextureDepthCube", "TextureDepthCubeArray",
    "TextureDepthMultisampled2D", "TextureMultisampled2D", "TextureView",
    "texture_dimensions", "texture_gather", "texture_gather_compare", "texture_load",
    "texture_num_layers", "texture_num_levels", "texture_num_samples",
    "texture_sample_base_clamp_to_edge",
    "texture_sample_compare_level", "texture_sample_grad", "texture_sample_level",
    "texture_store",
]
