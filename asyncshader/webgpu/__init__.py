"""``import asyncshader.webgpu as wgpu``: wgpu-py's API (0.32, its compute subset) on a device
whose dispatches run on asyncshader's deterministic runtime, with WebGPU's validation. A
wgpu-py compute program runs unchanged; ``device.asyncshader`` adds what a GPU cannot give:
the options of each dispatch (schedule, sanitizer, subgroup size, watchdog, strict) and the
findings (races, out-of-bounds accesses) of each, named by dispatch and WGSL line.
docs/webgpu.md: "Your wgpu program on the CPU"."""

from . import enums, errors, utils
from .adapter import GPU, GPUAdapter, GPUAdapterInfo
from .base import GPUObjectBase
from .buffer import GPUBuffer
from .commands import GPUCommandBuffer, GPUCommandEncoder, GPUComputePassEncoder
from .device import GPUDevice, GPUQueue
from .dispatch import AsyncShaderOptions, DispatchFinding, DispatchRecord
from .enums import (
    AutoLayoutMode,
    BufferBindingType,
    BufferMapState,
    BufferUsage,
    CompilationMessageType,
    DeviceLostReason,
    ErrorFilter,
    FeatureName,
    MapMode,
    PipelineErrorReason,
    PowerPreference,
    ShaderStage,
)
from .errors import (
    GPUError,
    GPUInternalError,
    GPUOutOfMemoryError,
    GPUPipelineError,
    GPUValidationError,
)
from .explore import HostExploreReport, HostFailure, explore
from .pipeline import (
    GPUBindGroup,
    GPUBindGroupLayout,
    GPUComputePipeline,
    GPUPipelineLayout,
    GPUShaderModule,
)
from .promise import GPUPromise
from .swap import as_wgpu, run_program

flags = enums

#: the API's entry point, as ``wgpu.gpu``
gpu = GPU()

__all__ = [
    "GPU",
    "AsyncShaderOptions",
    "AutoLayoutMode",
    "BufferBindingType",
    "BufferMapState",
    "BufferUsage",
    "CompilationMessageType",
    "DeviceLostReason",
    "DispatchFinding",
    "DispatchRecord",
    "ErrorFilter",
    "FeatureName",
    "GPUAdapter",
    "GPUAdapterInfo",
    "GPUBindGroup",
    "GPUBindGroupLayout",
    "GPUBuffer",
    "GPUCommandBuffer",
    "GPUCommandEncoder",
    "GPUComputePassEncoder",
    "GPUComputePipeline",
    "GPUDevice",
    "GPUError",
    "GPUInternalError",
    "GPUObjectBase",
    "GPUOutOfMemoryError",
    "GPUPipelineError",
    "GPUPipelineLayout",
    "GPUPromise",
    "GPUQueue",
    "GPUShaderModule",
    "GPUValidationError",
    "HostExploreReport",
    "HostFailure",
    "MapMode",
    "PipelineErrorReason",
    "PowerPreference",
    "ShaderStage",
    "as_wgpu",
    "enums",
    "errors",
    "explore",
    "flags",
    "gpu",
    "run_program",
    "utils",
]
