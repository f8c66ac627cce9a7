"""asyncshader: GPU shaders as ``async def`` coroutines on the CPU, under a deterministic
cooperative scheduler that follows WGSL semantics.

Everything public is re-exported here, grouped by layer (the folders, bottom layer first: see
docs/design.md); see the docs for the guide and the API reference.

Why this file is long: it is the one list of the public names, one per line as isort writes
them; splitting it would only move the list.
"""

from typing import Any

from ._compat import install as _install_moved_paths

# isort: split
# Errors: every exception asyncshader raises on purpose (errors.py)
from .errors import (
    AsyncShaderError,
    BarrierDivergenceError,
    BindingError,
    CrosscheckError,
    DeadlockError,
    DerivativeUniformityError,
    DispatchError,
    DivergenceError,
    ExplorationBrokenError,
    ExplorationInterrupted,
    ForeignAwaitError,
    OptionError,
    ReplayMismatchError,
    ShaderCreationError,
    ShaderError,
    ShaderTimeoutError,
    ShaderTypeError,
    StepLimitError,
    SubgroupUniformityError,
    TraceError,
)

# isort: split
# The scheduler's observer interface: an instrument sees every step of a run (_core/)
from ._core.instruments import Instrument

# isort: split
# Schedules: the strategies that pick the next invocation, and the trace of a run (schedules/)
from .schedules.strategies import PCT, InOrder, Random, Replay, Reverse, Strategy
from .schedules.trace import Trace

# isort: split
# WGSL types: scalars, vectors, matrices, arrays, atomics, structs and their layout (wgsl/)
from .wgsl.layout import align, align_of, runtime_array, size, size_of, stride_of
from .wgsl.matrices import (
    Matrix,
    mat2x2f,
    mat2x2h,
    mat2x3f,
    mat2x3h,
    mat2x4f,
    mat2x4h,
    mat3x2f,
    mat3x2h,
    mat3x3f,
    mat3x3h,
    mat3x4f,
    mat3x4h,
    mat4x2f,
    mat4x2h,
    mat4x3f,
    mat4x3h,
    mat4x4f,
    mat4x4h,
)
from .wgsl.structs import buffer, struct
from .wgsl.types import (
    all,
    any,
    array,
    atomic,
    bool_,
    f16,
    f32,
    i32,
    select,
    u32,
    vec2,
    vec2b,
    vec2f,
    vec2h,
    vec2i,
    vec2u,
    vec3,
    vec3b,
    vec3f,
    vec3h,
    vec3i,
    vec3u,
    vec4,
    vec4b,
    vec4f,
    vec4h,
    vec4i,
    vec4u,
)

# isort: split
# What a shader's memory is: resource bindings, workgroup variables, pointers (wgsl/)
from .wgsl.bindings import BindingPoint, Input, ReadOnly, Storage, Uniform, at
from .wgsl.memory import Ptr, WorkgroupVar, ptr, workgroup
from .wgsl.module_bindings import ModuleBinding, storage, uniform
from .wgsl.overrides import Override, override

# isort: split
# WGSL built-in functions, the atomic ones included (wgsl/builtins/, wgsl/atomics.py)
from .wgsl.atomics import (
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
from .wgsl.builtins import (
    FrexpResult,
    ModfResult,
    WGSLIndeterminateWarning,
    abs,
    acos,
    acosh,
    array_length,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    bitcast,
    ceil,
    clamp,
    cos,
    cosh,
    count_leading_zeros,
    count_one_bits,
    count_trailing_zeros,
    cross,
    degrees,
    distance,
    dot,
    dot4i8_packed,
    dot4u8_packed,
    exp,
    exp2,
    extract_bits,
    face_forward,
    first_leading_bit,
    first_trailing_bit,
    floor,
    fma,
    fract,
    frexp,
    insert_bits,
    inverse_sqrt,
    ldexp,
    length,
    log,
    log2,
    max,
    min,
    mix,
    modf,
    normalize,
    pack2x16float,
    pack2x16snorm,
    pack2x16unorm,
    pack4x8snorm,
    pack4x8unorm,
    pack4xi8,
    pack4xi8_clamp,
    pack4xu8,
    pack4xu8_clamp,
    pow,
    quantize_to_f16,
    radians,
    reflect,
    refract,
    reverse_bits,
    round,
    saturate,
    sign,
    sin,
    sinh,
    smoothstep,
    sqrt,
    step,
    tan,
    tanh,
    trunc,
    unpack2x16float,
    unpack2x16snorm,
    unpack2x16unorm,
    unpack4x8snorm,
    unpack4x8unorm,
    unpack4xi8,
    unpack4xu8,
)
from .wgsl.builtins.matrix import determinant, transpose

# isort: split
# The race detector and what it finds (sanitizers/)
from .sanitizers.findings import (
    DataRace,
    DataRaceError,
    DataRaceWarning,
    Finding,
    HelperSideEffect,
    IndeterminateValue,
    NonUniformCollective,
    OutOfBounds,
    assert_race_free,
    findings_json,
    render_findings,
)
from .sanitizers.races import RaceDetector

# isort: split
# Pictures of a run: its timeline and access diagram (views/)
from .views.access import access_diagram
from .views.timeline import Timeline

# isort: split
# Operations where invocations meet: barriers, derivatives, quads, subgroups (collectives/)
from .collectives.barriers import (
    storage_barrier,
    texture_barrier,
    workgroup_barrier,
    workgroup_uniform_load,
)
from .collectives.derivatives import (
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
from .collectives.quads import quad_broadcast, quad_swap_diagonal, quad_swap_x, quad_swap_y
from .collectives.subgroups import (
    subgroup_add,
    subgroup_all,
    subgroup_and,
    subgroup_any,
    subgroup_ballot,
    subgroup_broadcast,
    subgroup_broadcast_first,
    subgroup_elect,
    subgroup_exclusive_add,
    subgroup_exclusive_mul,
    subgroup_inclusive_add,
    subgroup_inclusive_mul,
    subgroup_max,
    subgroup_min,
    subgroup_mul,
    subgroup_or,
    subgroup_shuffle,
    subgroup_shuffle_down,
    subgroup_shuffle_up,
    subgroup_shuffle_xor,
    subgroup_xor,
)

# isort: split
# Kernels and dispatches: @compute, @fragment, run, dispatch and their results (stages/)
from .stages.compute import ComputeKernel, WebGPULimitWarning, compute, dispatch, run
from .stages.dispatch import Counters, DispatchResult
from .stages.fragment import (
    FragmentResult,
    FragmentShader,
    discard,
    dispatch_fragments,
    fragment,
    run_fragments,
)

# isort: split
# Exploring schedules: explore, shrink, the stepper, the failure store (exploration/)
from .exploration.explore import (
    DeterminismError,
    Exhaustive,
    ExploreReport,
    Failure,
    Footprints,
    explore,
)
from .exploration.shrink import ScheduleStats, ShrinkReport, schedule_stats, shrink
from .exploration.stepper import InvocationView, Stepper, StepperError, stepper
from .exploration.store import DirectoryStore, set_failure_store

# isort: split
# WGSL source run on the runtime: the WGSL front-end and its code generator (front/)
from .front.wgsl.load import load_wgsl
from .front.wgsl.uniformity import WGSLWarning

# isort: split
# The shader on a GPU: its WGSL (emit/); crosscheck(), below, runs it there (extra/gpu.py)
from .emit import WGSLEmitError, to_wgsl

# isort: split
# Lockstep: dispatches as numpy arrays over lanes, compiled from the typed IR (lockstep/)
from .lockstep import Lockstep


def crosscheck(*args: Any, **kwargs: Any) -> Any:
    """Runs a compute dispatch on the CPU and its WGSL on a WebGPU device (wgpu, the ``gpu``
    extra) and compares every storage buffer: :func:`asyncshader.extra.gpu.crosscheck`."""
    from .extra.gpu import crosscheck as run_both

    return run_both(*args, **kwargs)


def crosscheck_fragments(*args: Any, **kwargs: Any) -> Any:
    """The fragment twin of :func:`crosscheck`:
    :func:`asyncshader.extra.gpu.crosscheck_fragments`."""
    from .extra.gpu import crosscheck_fragments as run_both

    return run_both(*args, **kwargs)


_install_moved_paths()  # old module paths (asyncshader.schedule, ...) still import

__version__ = "0.2.0"

__all__ = [
    "PCT",
    "AsyncShaderError",
    "AtomicCompareExchangeResult",
    "BarrierDivergenceError",
    "BindingError",
    "BindingPoint",
    "ComputeKernel",
    "Counters",
    "CrosscheckError",
    "DataRace",
    "DataRaceError",
    "DataRaceWarning",
    "DeadlockError",
    "DerivativeUniformityError",
    "DeterminismError",
    "DirectoryStore",
    "DispatchError",
    "DispatchResult",
    "DivergenceError",
    "Exhaustive",
    "ExplorationBrokenError",
    "ExplorationInterrupted",
    "ExploreReport",
    "Failure",
    "Finding",
    "Footprints",
    "ForeignAwaitError",
    "FragmentResult",
    "FragmentShader",
    "FrexpResult",
    "HelperSideEffect",
    "InOrder",
    "IndeterminateValue",
    "Input",
    "Instrument",
    "InvocationView",
    "Lockstep",
    "Matrix",
    "ModfResult",
    "ModuleBinding",
    "NonUniformCollective",
    "OptionError",
    "OutOfBounds",
    "Override",
    "Ptr",
    "RaceDetector",
    "Random",
    "ReadOnly",
    "Replay",
    "ReplayMismatchError",
    "Reverse",
    "ScheduleStats",
    "ShaderCreationError",
    "ShaderError",
    "ShaderTimeoutError",
    "ShaderTypeError",
    "ShrinkReport",
    "StepLimitError",
    "Stepper",
    "StepperError",
    "Storage",
    "Strategy",
    "SubgroupUniformityError",
    "Timeline",
    "Trace",
    "TraceError",
    "Uniform",
    "WGSLEmitError",
    "WGSLIndeterminateWarning",
    "WGSLWarning",
    "WebGPULimitWarning",
    "WorkgroupVar",
    "abs",
    "access_diagram",
    "acos",
    "acosh",
    "align",
    "align_of",
    "all",
    "any",
    "array",
    "array_length",
    "asin",
    "asinh",
    "assert_race_free",
    "at",
    "atan",
    "atan2",
    "atanh",
    "atomic",
    "atomic_add",
    "atomic_and",
    "atomic_compare_exchange_weak",
    "atomic_exchange",
    "atomic_load",
    "atomic_max",
    "atomic_min",
    "atomic_or",
    "atomic_store",
    "atomic_sub",
    "atomic_xor",
    "bitcast",
    "bool_",
    "buffer",
    "ceil",
    "clamp",
    "compute",
    "cos",
    "cosh",
    "count_leading_zeros",
    "count_one_bits",
    "count_trailing_zeros",
    "cross",
    "crosscheck",
    "crosscheck_fragments",
    "degrees",
    "determinant",
    "discard",
    "dispatch",
    "dispatch_fragments",
    "distance",
    "dot",
    "dot4i8_packed",
    "dot4u8_packed",
    "dpdx",
    "dpdx_coarse",
    "dpdx_fine",
    "dpdy",
    "dpdy_coarse",
    "dpdy_fine",
    "exp",
    "exp2",
    "explore",
    "extract_bits",
    "f16",
    "f32",
    "face_forward",
    "findings_json",
    "first_leading_bit",
    "first_trailing_bit",
    "floor",
    "fma",
    "fract",
    "fragment",
    "frexp",
    "fwidth",
    "fwidth_coarse",
    "fwidth_fine",
    "i32",
    "insert_bits",
    "inverse_sqrt",
    "ldexp",
    "length",
    "load_wgsl",
    "log",
    "log2",
    "mat2x2f",
    "mat2x2h",
    "mat2x3f",
    "mat2x3h",
    "mat2x4f",
    "mat2x4h",
    "mat3x2f",
    "mat3x2h",
    "mat3x3f",
    "mat3x3h",
    "mat3x4f",
    "mat3x4h",
    "mat4x2f",
    "mat4x2h",
    "mat4x3f",
    "mat4x3h",
    "mat4x4f",
    "mat4x4h",
    "max",
    "min",
    "mix",
    "modf",
    "normalize",
    "override",
    "pack2x16float",
    "pack2x16snorm",
    "pack2x16unorm",
    "pack4x8snorm",
    "pack4x8unorm",
    "pack4xi8",
    "pack4xi8_clamp",
    "pack4xu8",
    "pack4xu8_clamp",
    "pow",
    "ptr",
    "quad_broadcast",
    "quad_swap_diagonal",
    "quad_swap_x",
    "quad_swap_y",
    "quantize_to_f16",
    "radians",
    "reflect",
    "refract",
    "render_findings",
    "reverse_bits",
    "round",
    "run",
    "run_fragments",
    "runtime_array",
    "saturate",
    "schedule_stats",
    "select",
    "set_failure_store",
    "shrink",
    "sign",
    "sin",
    "sinh",
    "size",
    "size_of",
    "smoothstep",
    "sqrt",
    "step",
    "stepper",
    "storage",
    "storage_barrier",
    "stride_of",
    "struct",
    "subgroup_add",
    "subgroup_all",
    "subgroup_and",
    "subgroup_any",
    "subgroup_ballot",
    "subgroup_broadcast",
    "subgroup_broadcast_first",
    "subgroup_elect",
    "subgroup_exclusive_add",
    "subgroup_exclusive_mul",
    "subgroup_inclusive_add",
    "subgroup_inclusive_mul",
    "subgroup_max",
    "subgroup_min",
    "subgroup_mul",
    "subgroup_or",
    "subgroup_shuffle",
    "subgroup_shuffle_down",
    "subgroup_shuffle_up",
    "subgroup_shuffle_xor",
    "subgroup_xor",
    "tan",
    "tanh",
    "texture_barrier",
    "to_wgsl",
    "transpose",
    "trunc",
    "u32",
    "uniform",
    "unpack2x16float",
    "unpack2x16snorm",
    "unpack2x16unorm",
    "unpack4x8snorm",
    "unpack4x8unorm",
    "unpack4xi8",
    "unpack4xu8",
    "vec2",
    "vec2b",
    "vec2f",
    "vec2h",
    "vec2i",
    "vec2u",
    "vec3",
    "vec3b",
    "vec3f",
    "vec3h",
    "vec3i",
    "vec3u",
    "vec4",
    "vec4b",
    "vec4f",
    "vec4h",
    "vec4i",
    "vec4u",
    "workgroup",
    "workgroup_barrier",
    "workgroup_uniform_load",
]

# isort: split
# Textures and samplers: resources, annotations, built-ins (wgsl/textures/), and the
# implicit-LOD samples, quad operations (collectives/textures.py); docs/textures.md
from .collectives.textures import (  # noqa: E402
    texture_sample,
    texture_sample_bias,
    texture_sample_compare,
)
from .wgsl import textures as _textures  # noqa: E402
from .wgsl.textures import *  # noqa: E402,F403

__all__ += [*_textures.__all__, "texture_sample", "texture_sample_bias", "texture_sample_compare"]
