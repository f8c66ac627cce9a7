"""The entry point (``gpu``), the adapter and its info: one CPU adapter, asyncshader's."""

from __future__ import annotations

from typing import Any

from .device import GPUDevice
from .dispatch import AsyncShaderOptions
from .limits import ADAPTER_FEATURES, ADAPTER_LIMITS, device_features, device_limits
from .promise import GPUPromise


class GPUAdapterInfo(dict):
    """The adapter's description (a dict, with attribute access for WebGPU's fields)."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class GPUAdapter:
    """asyncshader's CPU adapter: :meth:`request_device_sync` takes WebGPU's arguments and
    asyncshader's options for the device's dispatches."""

    def __init__(self) -> None:
        self._info = GPUAdapterInfo(
            vendor="asyncshader", architecture="cpu", device="asyncshader deterministic runtime",
            description="WGSL run as Python coroutines under a deterministic scheduler",
            subgroup_min_size=4, subgroup_max_size=128, adapter_type="CPU",
            backend_type="asyncshader", is_fallback_adapter=False)

    @property
    def features(self) -> set:
        return set(ADAPTER_FEATURES)

    @property
    def limits(self) -> dict:
        return dict(ADAPTER_LIMITS)

    @property
    def info(self) -> GPUAdapterInfo:
        return self._info

    @property
    def summary(self) -> str:
        return f"{self._info['device']} (CPU) via asyncshader"

    def request_device_sync(self, *, label: str = "", required_features: Any = (),
                            required_limits: dict | None = None, default_queue: Any = None,
                            schedule: Any = None, sanitize: str | None = None,
                            subgroup_size: int | None = None, watchdog: float | None = 10.0,
                            strict: bool = False) -> GPUDevice:
        """A device with ``required_features`` and ``required_limits`` (WebGPU's default
        limits for the rest). asyncshader's options for its dispatches: ``schedule`` (a
        strategy, or traces to replay), ``sanitize`` (``"report"``, ``"error"``, ``"off"``),
        ``subgroup_size``, ``watchdog`` (seconds), ``strict`` (the first finding raises)."""
        options = AsyncShaderOptions(
            schedule=list(schedule) if isinstance(schedule, (list, tuple)) else schedule,
            sanitize=sanitize, subgroup_size=subgroup_size, watchdog=watchdog, strict=strict)
        return GPUDevice(label, self, device_features(required_features),
                         device_limits(required_limits), options)

    def request_device_async(self, **kwargs: Any) -> GPUPromise:
        """:meth:`request_device_sync` as a promise (settled at once)."""
        return GPUPromise.of("request_device", lambda: self.request_device_sync(**kwargs))


class GPU:
    """The API's entry point, ``wgpu.gpu``."""

    def request_adapter_sync(self, *, feature_level: str = "core",
                             power_preference: Any = None, force_fallback_adapter: bool = False,
                             canvas: Any = None) -> GPUAdapter:
        """The CPU adapter (there is one, whatever is asked)."""
        return GPUAdapter()

    def request_adapter_async(self, **kwargs: Any) -> GPUPromise:
        """:meth:`request_adapter_sync` as a promise (settled at once)."""
        return GPUPromise.of("request_adapter", lambda: self.request_adapter_sync(**kwargs))

    def enumerate_adapters_sync(self) -> list[GPUAdapter]:
        return [GPUAdapter()]

    def enumerate_adapters_async(self) -> GPUPromise:
        return GPUPromise("enumerate_adapters", self.enumerate_adapters_sync())

    @property
    def wgsl_language_features(self) -> set:
        return set()
