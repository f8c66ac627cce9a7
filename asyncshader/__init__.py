"""asyncshader: GPU shaders as ``async def`` coroutines on the CPU, under a deterministic
cooperative scheduler that follows WGSL semantics.

Everything public is re-exported here; see the docs for the guide and the API reference.
"""

from .atomics import (
    AtomicCompareExchangeResult,
    atomic_add,
    atomic_and,
    atomic_compare_exchange_weak,
    atomic_exchange,
    atomic_load,
    atomic_max,
    atomic_min,
    atomic_or,
    atomic_store,
    atomic_sub,
    atomic_xor,
)
from .bindings import Input, Storage, Uniform
from .collectives import (
    storage_barrier,
    texture_barrier,
    workgroup_barrier,
    workgroup_uniform_load,
)
from .compute import ComputeKernel, compute, dispatch, run
from .derivatives import (
    dpdx,
    dpdx_coarse,
    dpdx_fine,
    dpdy,
    dpdy_coarse,
    dpdy_fine,
    fwidth,
    fwidth_coarse,
    fwidth_fine,
)
from .dispatch import Counters, DispatchResult
from .errors import (
    AsyncShaderError,
    BarrierDivergenceError,
    BindingError,
    DeadlockError,
    DerivativeUniformityError,
    DispatchError,
    DivergenceError,
    ForeignAwaitError,
    ReplayMismatchError,
    ShaderError,
    StepLimitError,
)
from .fragment import (
    FragmentResult,
    FragmentShader,
    discard,
    dispatch_fragments,
    fragment,
    run_fragments,
)
from .instruments import Instrument
from .memory import Ptr, WorkgroupVar, ptr, workgroup
from .quads import quad_broadcast, quad_swap_diagonal, quad_swap_x, quad_swap_y
from .schedule import InOrder, Random, Replay, Strategy, Trace
from .types import (
    all,
    any,
    array,
    atomic,
    bool_,
    f32,
    i32,
    select,
    u32,
    vec2,
    vec2b,
    vec2f,
    vec2i,
    vec2u,
    vec3,
    vec3b,
    vec3f,
    vec3i,
    vec3u,
    vec4,
    vec4b,
    vec4f,
    vec4i,
    vec4u,
)

__version__ = "0.1.0"

__all__ = [
    "AsyncShaderError", "AtomicCompareExchangeResult", "BarrierDivergenceError", "BindingError",
    "ComputeKernel", "Counters", "DeadlockError", "DerivativeUniformityError", "DispatchError",
    "DispatchResult", "dpdx", "dpdx_coarse", "dpdx_fine", "dpdy", "dpdy_coarse", "dpdy_fine",
    "fwidth", "fwidth_coarse", "fwidth_fine", "quad_broadcast", "quad_swap_diagonal",
    "quad_swap_x", "quad_swap_y",
    "DivergenceError", "ForeignAwaitError", "InOrder", "Instrument", "Ptr", "Random", "Replay",
    "FragmentResult", "FragmentShader", "Input", "discard", "dispatch_fragments", "fragment",
    "run_fragments", "ReplayMismatchError", "ShaderError", "StepLimitError", "Storage", "Strategy", "Trace",
    "Uniform", "WorkgroupVar", "all", "any", "array", "atomic", "atomic_add", "atomic_and",
    "atomic_compare_exchange_weak", "atomic_exchange", "atomic_load", "atomic_max", "atomic_min",
    "atomic_or", "atomic_store", "atomic_sub", "atomic_xor", "bool_", "compute", "dispatch",
    "f32", "i32", "ptr", "run", "select", "storage_barrier", "texture_barrier", "u32", "vec2",
    "vec2b", "vec2f", "vec2i", "vec2u", "vec3", "vec3b", "vec3f", "vec3i", "vec3u", "vec4",
    "vec4b", "vec4f", "vec4i", "vec4u", "workgroup", "workgroup_barrier",
    "workgroup_uniform_load",
]
