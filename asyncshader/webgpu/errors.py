"""WebGPU's error classes, as wgpu-py raises them: a validation error is a
:class:`GPUValidationError` raised by the call whose checks fail (for commands, by
``encoder.finish()``, as wgpu-native reports them), with WebGPU's reason in the message."""

from __future__ import annotations

__all__ = ["GPUError", "GPUInternalError", "GPUOutOfMemoryError", "GPUPipelineError",
           "GPUValidationError"]


class GPUError(Exception):
    """WebGPU's GPUError: the base of the errors a device reports."""

    def __init__(self, message: str) -> None:
        super().__init__(message)

    @property
    def message(self) -> str:
        """The error's text."""
        return self.args[0]


class GPUValidationError(GPUError):
    """A call broke one of WebGPU's validation rules (usage flags, sizes, alignment, mapping
    state, layouts, limits); also a WGSL module that does not compile."""


class GPUOutOfMemoryError(GPUError, MemoryError):
    """An allocation larger than the device can hold."""


class GPUInternalError(GPUError):
    """The device failed where the program broke no rule."""


class GPUPipelineError(Exception):
    """A pipeline could not be created (WebGPU's GPUPipelineError); ``reason`` is
    ``"validation"`` or ``"internal"``."""

    def __init__(self, message: str, options: dict | None = None) -> None:
        super().__init__(message)
        self.reason = (options or {}).get("reason", "validation")

    @property
    def message(self) -> str:
        return self.args[0]


def invalid(where: str, why: str) -> GPUValidationError:
    """A validation error in wgpu-native's words: the call (``wgpuDeviceCreateBuffer``) and
    the rule broken."""
    return GPUValidationError(f"Validation Error\n\nCaused by:\n  In {where}\n    {why}\n")
