"""WebGPU's limits and features as this device grants them: a device gets WebGPU's default
limits (the ones every WebGPU implementation supports, so a program that fits them runs on
any GPU) unless ``required_limits`` asks for more, up to the adapter's limits."""

from __future__ import annotations

from typing import Any

from .errors import invalid

#: WebGPU's default limits (the spec's "Limits" table), by wgpu-py's kebab-case names
DEFAULT_LIMITS: dict[str, int] = {
    "max-texture-dimension-1d": 8192, "max-texture-dimension-2d": 8192,
    "max-texture-dimension-3d": 2048, "max-texture-array-layers": 256,
    "max-bind-groups": 4, "max-bind-groups-plus-vertex-buffers": 24,
    "max-bindings-per-bind-group": 1000,
    "max-dynamic-uniform-buffers-per-pipeline-layout": 8,
    "max-dynamic-storage-buffers-per-pipeline-layout": 4,
    "max-sampled-textures-per-shader-stage": 16, "max-samplers-per-shader-stage": 16,
    "max-storage-buffers-per-shader-stage": 8, "max-storage-textures-per-shader-stage": 4,
    "max-uniform-buffers-per-shader-stage": 12,
    "max-uniform-buffer-binding-size": 65536, "max-storage-buffer-binding-size": 134217728,
    "min-uniform-buffer-offset-alignment": 256, "min-storage-buffer-offset-alignment": 256,
    "max-vertex-buffers": 8, "max-buffer-size": 268435456, "max-vertex-attributes": 16,
    "max-vertex-buffer-array-stride": 2048, "max-inter-stage-shader-variables": 16,
    "max-color-attachments": 8, "max-color-attachment-bytes-per-sample": 32,
    "max-compute-workgroup-storage-size": 16384,
    "max-compute-invocations-per-workgroup": 256, "max-compute-workgroup-size-x": 256,
    "max-compute-workgroup-size-y": 256, "max-compute-workgroup-size-z": 64,
    "max-compute-workgroups-per-dimension": 65535,
}

#: what this CPU adapter can grant when asked (``required_limits``): more bind groups and
#: larger workgroups than the defaults, within what numpy buffers hold comfortably
ADAPTER_LIMITS: dict[str, int] = {
    **DEFAULT_LIMITS, "max-bind-groups": 8, "max-storage-buffer-binding-size": 1 << 30,
    "max-buffer-size": 1 << 30, "max-compute-workgroup-storage-size": 32768,
    "max-compute-invocations-per-workgroup": 1024, "max-compute-workgroup-size-x": 1024,
    "max-compute-workgroup-size-y": 1024, "max-compute-workgroup-size-z": 64,
    "min-uniform-buffer-offset-alignment": 32, "min-storage-buffer-offset-alignment": 32,
    "max-storage-buffers-per-shader-stage": 16,
}

#: the features this adapter has (WebGPU names)
ADAPTER_FEATURES = frozenset({"shader-f16", "subgroups"})


def device_limits(required: dict[str, Any] | None) -> dict[str, int]:
    """The limits of a device asked for ``required`` (by kebab or snake case names): the
    defaults, each raised (or for alignments lowered) to the value asked; asking beyond the
    adapter, or for a limit WebGPU does not have, is an error."""
    limits = dict(DEFAULT_LIMITS)
    for key, value in (required or {}).items():
        name = key.replace("_", "-")
        if name not in ADAPTER_LIMITS:
            raise KeyError(f"required_limits: WebGPU has no limit {key!r}; the limits: "
                           f"{', '.join(ADAPTER_LIMITS)}")
        if value is None:
            continue
        best = ADAPTER_LIMITS[name]
        worse = value < best if name.startswith("min-") else value > best
        if worse:
            raise invalid("wgpuAdapterRequestDevice",
                          f"Limit '{name}' value {value} is better than allowed {best}")
        limits[name] = int(value)
    return limits


#: wgpu-native's names for WebGPU's features (wgpu-py programs ask for "subgroup")
_ALIASES = {"subgroup": "subgroups"}


def device_features(required: Any) -> frozenset[str]:
    """The features of a device asked for ``required``; one the adapter lacks is an error."""
    wanted = frozenset(_ALIASES.get(str(f), str(f)) for f in (required or ()))
    missing = wanted - ADAPTER_FEATURES
    if missing:
        raise invalid("wgpuAdapterRequestDevice",
                      f"Unsupported features were requested: {sorted(missing)}; this adapter "
                      f"has {sorted(ADAPTER_FEATURES)}")
    return wanted
