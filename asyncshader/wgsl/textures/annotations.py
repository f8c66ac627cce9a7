"""The annotations that declare a shader parameter a texture or a sampler, and the checks that
bind a :class:`~.resources.Texture`, a :class:`~.resources.TextureView` or a
:class:`~.resources.Sampler` to one (WebGPU's bind group layout compatibility rules).

* ``Texture1D[f32]``, ``Texture2D``, ``Texture2DArray``, ``Texture3D``, ``TextureCube``,
  ``TextureCubeArray`` (``[f32]``, ``[i32]``, ``[u32]``): WGSL ``texture_1d<f32>`` ...
  ``texture_cube_array<u32>``;
* ``TextureDepth2D``, ``TextureDepth2DArray``, ``TextureDepthCube``, ``TextureDepthCubeArray``:
  ``texture_depth_2d`` ...;
* ``StorageTexture1D/2D/2DArray/3D["rgba8unorm", "write"]``: ``texture_storage_2d<rgba8unorm,
  write>`` (access "read", "write" or "read_write");
* ``Sampler`` (the resource class itself): ``sampler``; ``SamplerComparison``:
  ``sampler_comparison``.

A sampled texture's element defaults to ``f32``; a storage texture's access to ``"write"``.
"""

from __future__ import annotations

from typing import Any

from ...errors import BindingError
from .formats import STORAGE_FORMATS, texel_format
from .resources import Sampler, Texture, TextureView, as_view

_WGSL_DIM = {"1d": "1d", "2d": "2d", "2d-array": "2d_array", "3d": "3d", "cube": "cube",
             "cube-array": "cube_array"}
ACCESS_MODES = ("read", "write", "read_write")


class _TextureMarker(type):
    def __getitem__(cls, args: Any) -> Any:
        if cls.storage:
            fmt, access = (args, "write") if isinstance(args, str) else tuple(args)
            if fmt not in STORAGE_FORMATS:
                texel_format(fmt)  # an unknown name: its own error with close matches
                raise TypeError(f"{cls.__name__}[{fmt!r}]: {fmt!r} is not a WGSL storage "
                                f"texel format: {', '.join(STORAGE_FORMATS)}")
            if access not in ACCESS_MODES:
                raise TypeError(f"{cls.__name__}[{fmt!r}, {access!r}]: the access mode is "
                                f"one of {', '.join(ACCESS_MODES)}")
            return type(cls.__name__, (cls,), {"format": fmt, "access": access})
        if cls.depth:
            raise TypeError(f"{cls.__name__} has no element type (WGSL's depth textures "
                            "sample f32): annotate it without [...]")
        name = getattr(args, "__name__", str(args))
        if name not in ("f32", "i32", "u32"):
            raise TypeError(f"{cls.__name__}[{name}]: a sampled texture's element is f32, "
                            "i32 or u32")
        return type(cls.__name__, (cls,), {"sample_type": name})

    def __repr__(cls) -> str:
        return cls.wgsl()


class TextureType(metaclass=_TextureMarker):
    """Base of the texture annotations: ``dimension`` (a view dimension), ``sample_type``,
    ``depth``, ``storage`` with ``format`` and ``access``."""

    dimension = "2d"
    sample_type = "f32"
    depth = False
    storage = False
    multisampled = False
    format: str | None = None
    access = "write"

    @classmethod
    def wgsl(cls) -> str:
        """The WGSL type this annotation declares."""
        dim = ("multisampled_" if cls.multisampled else "") + _WGSL_DIM[cls.dimension]
        if cls.storage:
            return f"texture_storage_{dim}<{cls.format or '?'}, {cls.access}>"
        if cls.depth:
            return f"texture_depth_{dim}"
        return f"texture_{dim}<{cls.sample_type}>"


def _texture_type(name: str, dimension: str, depth: bool = False, storage: bool = False,
                  doc: str = "", multisampled: bool = False) -> type[TextureType]:
    return _TextureMarker(name, (TextureType,), {
        "dimension": dimension, "depth": depth, "storage": storage, "__doc__": doc,
        "multisampled": multisampled, "__module__": __name__})


def _sampled(name: str, dimension: str) -> type[TextureType]:
    wgsl = _WGSL_DIM[dimension]
    return _texture_type(name, dimension, doc=f"Annotation for WGSL ``texture_{wgsl}<T>``: "
                         f"``{name}[f32]`` (the default), ``[i32]`` or ``[u32]``.")


def _depth(name: str, dimension: str) -> type[TextureType]:
    return _texture_type(name, dimension, depth=True, doc="Annotation for WGSL "
                         f"``texture_depth_{_WGSL_DIM[dimension]}`` (a depth format).")


def _storage(name: str, dimension: str) -> type[TextureType]:
    return _texture_type(name, dimension, storage=True, doc="Annotation for WGSL "
                         f"``texture_storage_{_WGSL_DIM[dimension]}<format, access>``: "
                         f"``{name}['rgba8unorm', 'write']`` (access defaults to 'write').")


Texture1D = _sampled("Texture1D", "1d")
Texture2D = _sampled("Texture2D", "2d")
Texture2DArray = _sampled("Texture2DArray", "2d-array")
Texture3D = _sampled("Texture3D", "3d")
TextureCube = _sampled("TextureCube", "cube")
TextureCubeArray = _sampled("TextureCubeArray", "cube-array")
TextureDepth2D = _depth("TextureDepth2D", "2d")
TextureDepth2DArray = _depth("TextureDepth2DArray", "2d-array")
TextureDepthCube = _depth("TextureDepthCube", "cube")
TextureDepthCubeArray = _depth("TextureDepthCubeArray", "cube-array")
TextureMultisampled2D = _texture_type(
    "TextureMultisampled2D", "2d", multisampled=True, doc="Annotation for WGSL "
    "``texture_multisampled_2d<T>``: ``TextureMultisampled2D[f32]`` (``[i32]``, ``[u32]``): a "
    "Texture made with sample_count=4, read with texture_load(t, coords, sample_index).")
TextureDepthMultisampled2D = _texture_type(
    "TextureDepthMultisampled2D", "2d", depth=True, multisampled=True, doc="Annotation for "
    "WGSL ``texture_depth_multisampled_2d`` (a multisampled depth texture).")
StorageTexture1D = _storage("StorageTexture1D", "1d")
StorageTexture2D = _storage("StorageTexture2D", "2d")
StorageTexture2DArray = _storage("StorageTexture2DArray", "2d-array")
StorageTexture3D = _storage("StorageTexture3D", "3d")


class SamplerComparison:
    """Annotation for WGSL ``sampler_comparison``: bind a :class:`Sampler` made with
    ``compare=...``. (A plain ``sampler`` parameter is annotated with ``Sampler`` itself.)"""


class BoundTexture:
    """A texture as a shader sees it: the bound view, its WGSL type (``kind``, a
    :class:`TextureType`) and the binding's name for messages."""

    __slots__ = ("kind", "name", "prepared", "texture", "view")

    def __init__(self, view: TextureView, kind: type[TextureType], name: str) -> None:
        self.view, self.kind, self.name, self.texture = view, kind, name, view.texture
        view.texture.refresh()
        #: the prepared samplers of the view (:mod:`.prepared`), by sampler
        self.prepared: dict = view.texture.prepared_for(view)

    def __repr__(self) -> str:
        return f"<{self.kind.wgsl()} {self.name!r}: {self.view!r}>"


def storage_texture_outputs(bindings: dict[str, Any]) -> dict[str, Any]:
    """The storage textures a dispatch may write (access write or read_write), by binding
    name: the written level of each, as its (layers or depth, height, width, C) block (a
    dispatch's outputs, which explore's outcomes hash, include them)."""
    return {k: v.texture.block(v.view.base_mip_level) for k, v in bindings.items()
            if isinstance(v, BoundTexture) and v.kind.storage and v.kind.access != "read"}


def is_texture_binding(ann: Any, value: Any) -> bool:
    """Whether a parameter is a texture or sampler binding (by annotation or by value)."""
    if isinstance(ann, type) and issubclass(ann, (TextureType, Sampler, SamplerComparison)):
        return True
    return isinstance(value, (Texture, TextureView, Sampler, BoundTexture))


def _default_kind(view: TextureView) -> type[TextureType]:
    if view.texture.sample_count > 1:
        return TextureDepthMultisampled2D if view.format.is_depth else \
            TextureMultisampled2D[view.format.sample_type]
    base = {"1d": Texture1D, "2d": Texture2D, "2d-array": Texture2DArray, "3d": Texture3D,
            "cube": TextureCube, "cube-array": TextureCubeArray}[view.dimension]
    if view.format.is_depth:
        return {"2d": TextureDepth2D, "2d-array": TextureDepth2DArray,
                "cube": TextureDepthCube, "cube-array": TextureDepthCubeArray}.get(
            view.dimension, base)
    return base[view.format.sample_type]


def bind_texture(kernel: str, name: str, ann: Any, value: Any) -> Any:
    """The value a texture or sampler parameter gets: a :class:`BoundTexture` or the
    :class:`Sampler`; a :class:`BindingError` naming the binding, what it declares and what was
    given where they do not match (WebGPU's bind group compatibility)."""
    if isinstance(value, BoundTexture):
        value = value.view
    declared = ann.wgsl() if isinstance(ann, type) and issubclass(ann, TextureType) else (
        "sampler_comparison" if ann is SamplerComparison else "sampler"
        if ann is Sampler else None)
    if ann is Sampler or ann is SamplerComparison or isinstance(value, Sampler):
        return _bind_sampler(kernel, name, ann, value, declared)
    if not isinstance(value, (Texture, TextureView)):
        raise BindingError(f"{kernel}: binding {name!r} is a {declared}; pass an ash.Texture "
                           f"or a view of one (texture.view(...)), not {type(value).__name__}")
    view = as_view(value)
    if not (isinstance(ann, type) and issubclass(ann, TextureType)):
        return BoundTexture(view, _default_kind(view), name)
    given = f"a {view.dimension} view of a {view.format.name} texture"
    samples = view.texture.sample_count
    if (samples > 1) != ann.multisampled:
        fix = ("make the texture with sample_count=4 and (4, height, width, C) samples"
               if ann.multisampled else f"declare {_multisampled_name(ann)}")
        raise BindingError(f"{kernel}: binding {name!r} is a {declared} but got {given} with "
                           f"{samples} sample(s) per texel. Fix: {fix}")
    if view.dimension != ann.dimension:
        fix = (f"texture.view(dimension={ann.dimension!r})"
               if view.texture.dimension == "2d" and ann.dimension != "3d" else
               f"a {ann.dimension} texture")
        raise BindingError(f"{kernel}: binding {name!r} is a {declared} (view dimension "
                           f"{ann.dimension!r}) but got {given}. Fix: pass {fix}")
    fmt = view.format
    if ann.storage:
        if fmt.name != ann.format:
            raise BindingError(f"{kernel}: binding {name!r} is a {declared} but got {given}: "
                               f"a storage texture's format must match exactly. Fix: make the "
                               f"texture with format={ann.format!r}, or declare "
                               f"{fmt.name!r}")
    elif ann.depth and not fmt.is_depth:
        raise BindingError(f"{kernel}: binding {name!r} is a {declared} but got {given}. Fix: "
                           "a depth texture needs format 'depth32float' or 'depth16unorm'; "
                           "declare Texture... [f32] for a colour texture")
    elif not ann.depth and fmt.sample_type != ann.sample_type:
        raise BindingError(f"{kernel}: binding {name!r} is a {declared} but got {given}, whose "
                           f"texels read as {fmt.sample_type}. Fix: declare "
                           f"[{fmt.sample_type}], or use a {ann.sample_type} format")
    return BoundTexture(view, ann, name)


def _multisampled_name(ann: type[TextureType]) -> str:
    return "texture_depth_multisampled_2d" if ann.depth else \
        f"texture_multisampled_2d<{ann.sample_type}>"


def _bind_sampler(kernel: str, name: str, ann: Any, value: Any, declared: str | None) -> Any:
    if not isinstance(value, Sampler):
        raise BindingError(f"{kernel}: binding {name!r} is a {declared}; pass an "
                           f"ash.Sampler(...), not {type(value).__name__}")
    if ann is SamplerComparison and not value.is_comparison:
        raise BindingError(f"{kernel}: binding {name!r} is a sampler_comparison but got a "
                           "sampler without compare. Fix: ash.Sampler(compare='less', ...)")
    if ann is Sampler and value.is_comparison:
        raise BindingError(f"{kernel}: binding {name!r} is a sampler but got a comparison "
                           f"sampler (compare={value.compare!r}). Fix: annotate it "
                           "ash.SamplerComparison, or drop compare=")
    if isinstance(ann, type) and issubclass(ann, TextureType):
        raise BindingError(f"{kernel}: binding {name!r} is a {declared} but got a Sampler. "
                           "Fix: pass an ash.Texture (samplers bind to sampler parameters)")
    return value
