"""The WebGPU device the cross-check runs on: one per process, opened at the first use and
shared (:func:`device`), and the WGSL front-end's verdict on a module (:func:`validate`)."""

from __future__ import annotations

import os
import tempfile
from typing import Any

from ..errors import AsyncShaderError

INSTALL = ("pip install 'asyncshader[gpu]' (wgpu), and a WebGPU adapter: on Linux without a GPU "
           "`apt-get install mesa-vulkan-drivers libvulkan1` (Mesa's lavapipe)")
_DEVICE: list[Any] = []


class GPUUnavailable(AsyncShaderError, RuntimeError):
    """wgpu or every adapter is missing; the message says what to install."""


class ShaderRejected(AsyncShaderError, RuntimeError):
    """The WebGPU implementation refused the emitted WGSL: a bug of the emitter (or of the
    implementation); the message holds the front-end's error and the module."""


def device() -> Any:
    """The process's shared wgpu device (opened at the first call)."""
    if _DEVICE:
        return _DEVICE[0]
    private_folders()
    try:
        import wgpu
    except ImportError as e:
        raise GPUUnavailable(f"wgpu is not installed ({e}): {INSTALL}") from e
    try:
        adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    except Exception as e:
        adapter = None
        reason = str(e)
    else:
        reason = "no adapter"
    if adapter is None:
        raise GPUUnavailable(f"wgpu found no adapter ({reason}): {INSTALL}")
    features = [f for f in ("subgroup", "shader-f16") if f in adapter.features]
    dev = adapter.request_device_sync(required_features=features)
    _DEVICE.append(dev)
    return dev


def private_folders() -> None:
    """Points Mesa's runtime and shader-cache folders into a private temporary folder where
    they are unset or empty (Mesa prints "XDG_RUNTIME_DIR is invalid or not set" otherwise):
    called before wgpu opens an adapter."""
    missing = [v for v in ("XDG_RUNTIME_DIR", "MESA_SHADER_CACHE_DIR") if not os.environ.get(v)]
    if missing:
        private = tempfile.mkdtemp(prefix="asyncshader-gpu-")
        for var in missing:
            os.environ[var] = private


def use(dev: Any) -> Any:
    """Makes ``dev`` the process's shared device, unless one is open already; returns the
    shared device. A session that opens its own device first (a test suite's lavapipe
    fixture) passes it here, so that the cross-check runs on it too: one device, not two."""
    if not _DEVICE:
        _DEVICE.append(dev)
    return _DEVICE[0]


def is_cpu_vulkan(dev: Any) -> bool:
    """``dev`` runs on a CPU Vulkan adapter (Mesa's lavapipe)."""
    info = dict(getattr(dev, "adapter_info", None) or getattr(dev.adapter, "info", {}) or {})
    return info.get("backend_type") == "Vulkan" and info.get("adapter_type") == "CPU"


def adapter_name(dev: Any) -> str:
    info = dict(getattr(dev, "adapter_info", None) or getattr(dev.adapter, "info", {}) or {})
    return f"{info.get('device', '?')} ({info.get('backend_type', '?')})"


def validate(source: str, dev: Any = None) -> Any:
    """Compiles WGSL with the device's front-end (naga in wgpu); returns the shader module or
    raises :class:`ShaderRejected` with the front-end's message."""
    try:
        return (dev or device()).create_shader_module(code=source)
    except Exception as exc:  # wgpu's GPUValidationError (its class moves between versions)
        numbered = "\n".join(f"{k + 1:4d}  {line}" for k, line in enumerate(source.splitlines()))
        raise ShaderRejected(f"the WebGPU front-end rejected the emitted WGSL (please report it "
                             f"as an asyncshader bug):\n{exc}\n{numbered}") from None


