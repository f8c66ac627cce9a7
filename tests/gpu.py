"""The WebGPU oracle: evaluates WGSL expressions on a real WebGPU implementation (wgpu from PyPI on
Mesa's lavapipe, a CPU Vulkan driver), so that tests can compare asyncshader's values with a GPU's.
See docs/oracle.md.

    device = open_lavapipe(tmp_dir)                     # or the ``gpu_device`` fixture
    [out] = evaluate(device, [Expr("a / b", {"a": "i32", "b": "i32"}, "i32",
                                   {"a": [-7, 7], "b": [2, 0]})])
    # out == np.array([-3, 7], np.int32)

Every expression of a batch becomes one function of a compute shader; each invocation evaluates
row ``i`` of every expression, reading the inputs from storage buffers (one per scalar kind, so
that loads keep f32 subnormals, which a bitcast might flush) and writing each result to an output
buffer. Any number of rows costs one dispatch; a batch of expressions is split into shaders of 32
(compile time, not the dispatch, is what costs on lavapipe), all in one queue submission.

Types are WGSL's: ``f32``, ``i32``, ``u32``, ``bool`` and ``vecN<T>`` (also spelled ``vec3f``,
``vec3i``, ``vec3u``, ``vec3b``). Bools travel as u32 (0 or 1) and come back as numpy bools.
Inputs are arrays of shape ``(rows,)`` for a scalar and ``(rows, N)`` for a vecN; results too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

INSTALL_WGPU = "pip install -e '.[gpu]' (see docs/oracle.md)"
INSTALL_LAVAPIPE = ("apt-get install mesa-vulkan-drivers libvulkan1 (Mesa's lavapipe; "
                    ".ci/install-lavapipe does it; see docs/oracle.md)")
_KINDS = {"f32": "f", "i32": "i", "u32": "u", "bool": "b", "f": "f", "i": "i", "u": "u", "b": "b"}
_DTYPES = {"f": np.float32, "i": np.int32, "u": np.uint32, "b": np.uint32}
_SCALAR = {"f": "f32", "i": "i32", "u": "u32", "b": "bool"}
_BUFFER = {"f": "f", "i": "i", "u": "u", "b": "u"}  # bools are stored as u32
_WORKGROUP = 64
#: device features requested where the adapter has them (a test needing one checks
#: ``device.features`` and skips naming it): ``shader-f16`` for WGSL's ``enable f16;``
OPTIONAL_FEATURES = ("shader-f16", "subgroup")  # (as asyncshader.extra.device asks)


class OracleUnavailable(RuntimeError):
    """wgpu or a lavapipe adapter is missing; the message says what to install."""


@dataclass(frozen=True)
class WgslType:
    """A scalar (``size`` 0) or vector WGSL type of kind f/i/u/b."""

    kind: str
    size: int

    @classmethod
    def parse(cls, text: str) -> WgslType:
        text = text.replace(" ", "")
        if text in _KINDS and len(text) > 1:
            return cls(_KINDS[text], 0)
        m = re.fullmatch(r"vec([234])(?:<(f32|i32|u32|bool)>|([fiub]))", text)
        if not m:
            raise ValueError(f"unsupported WGSL type {text!r}: use f32, i32, u32, bool or vecN<T>")
        return cls(_KINDS[m.group(2) or m.group(3)], int(m.group(1)))

    @property
    def wgsl(self) -> str:
        return _SCALAR[self.kind] if not self.size else f"vec{self.size}<{_SCALAR[self.kind]}>"

    @property
    def width(self) -> int:
        return self.size or 1


@dataclass
class Expr:
    """One WGSL expression over named inputs, evaluated on every row of ``values``.

    ``inputs`` maps each name to its WGSL type, ``result`` is the expression's WGSL type (the
    shader declares it, so a wrong result type is a shader compilation error), ``values`` maps
    each name to its rows."""

    wgsl: str
    inputs: Mapping[str, str]
    result: str
    values: Mapping[str, Any]


def open_lavapipe(private_dir: str | os.PathLike, features: Sequence[str] = ()) -> Any:
    """A wgpu device on Mesa's lavapipe (the Vulkan CPU adapter). Mesa's runtime and shader-cache
    folders are pointed into ``private_dir`` (it would otherwise warn about XDG_RUNTIME_DIR and
    write its cache under ~/.cache); call it before anything else in the process touches wgpu.
    ``features`` are native features the device must have (``"subgroup"``). Raises
    :class:`OracleUnavailable` saying what to install (or which feature is missing)."""
    private = Path(private_dir)
    for var, sub in (("XDG_RUNTIME_DIR", "xdg-runtime"), ("MESA_SHADER_CACHE_DIR", "mesa-cache")):
        (private / sub).mkdir(mode=0o700, parents=True, exist_ok=True)
        os.environ[var] = str(private / sub)
    try:
        import wgpu
    except ImportError as e:
        raise OracleUnavailable(f"wgpu is not installed ({e}): {INSTALL_WGPU}") from e
    try:
        adapters = wgpu.gpu.enumerate_adapters_sync()
    except Exception as e:
        raise OracleUnavailable(f"wgpu found no adapter ({e}): {INSTALL_LAVAPIPE}") from e
    found = [dict(a.info) for a in adapters]
    lavapipe = [a for a, info in zip(adapters, found)
                if info.get("backend_type") == "Vulkan" and info.get("adapter_type") == "CPU"]
    if not lavapipe:
        seen = ", ".join(f"{i.get('device')} ({i.get('backend_type')})" for i in found) or "none"
        raise OracleUnavailable(f"no lavapipe adapter (Vulkan on the CPU) among wgpu's adapters "
                                f"[{seen}]: {INSTALL_LAVAPIPE}")
    missing = [f for f in features if f not in lavapipe[0].features]
    if missing:
        raise OracleUnavailable(f"lavapipe lacks the feature(s) {missing}")
    wanted = list(features) + [f for f in OPTIONAL_FEATURES
                               if f in lavapipe[0].features and f not in features]
    try:
        return lavapipe[0].request_device_sync(required_features=wanted)
    except Exception as e:
        raise OracleUnavailable(f"lavapipe refused a device ({e}): {INSTALL_LAVAPIPE}") from e


def _load(t: WgslType, buf: str, base: str) -> str:
    """The WGSL expression reading one row (starting at word ``base``) of type ``t``."""
    words = [f"in_{buf}[{base} + {c}u]" for c in range(t.width)]
    if t.kind == "b":
        words = [f"({w} != 0u)" for w in words]
    return words[0] if not t.size else f"{t.wgsl}({', '.join(words)})"


def _function(k: int, e: Expr, in_base: dict[str, int], out_base: int) -> str:
    result = WgslType.parse(e.result)
    lines = [f"fn e{k}(i: u32) {{"]
    for name, ty in e.inputs.items():
        t = WgslType.parse(ty)
        base = f"{in_base[name]}u + i * {t.width}u"
        lines.append(f"  let {name}: {t.wgsl} = {_load(t, _BUFFER[t.kind], base)};")
    lines.append(f"  let r: {result.wgsl} = {e.wgsl};")
    out = f"out_{_BUFFER[result.kind]}"
    value = "r"
    if result.kind == "b":
        zero = "0u" if not result.size else f"vec{result.size}<u32>(0u)"
        one = "1u" if not result.size else f"vec{result.size}<u32>(1u)"
        value = f"select({zero}, {one}, r)"
    lines.append(f"  let o = {value};")
    for c in range(result.width):
        lines.append(f"  {out}[{out_base}u + i * {result.width}u + {c}u] = "
                     f"o{'' if not result.size else f'[{c}]'};")
    lines.append("}")
    return "\n".join(lines)


def _rows(e: Expr) -> int:
    counts = {len(np.asarray(v)) for v in e.values.values()}
    if len(counts) != 1:
        raise ValueError(f"inputs of {e.wgsl!r} have different numbers of rows: {counts}")
    return counts.pop()


def build(exprs: Sequence[Expr], enables: Sequence[str] = ()
          ) -> tuple[str, dict[str, np.ndarray], list[tuple]]:
    """The shader source (starting with an ``enable`` directive per name in ``enables``, e.g.
    ``("f16",)``), the packed input arrays (by buffer kind) and, for each expression, where its
    results are (buffer kind, first word, rows, result type)."""
    inputs: dict[str, list[np.ndarray]] = {"f": [], "i": [], "u": []}
    sizes = {"f": 0, "i": 0, "u": 0}
    out_sizes = {"f": 0, "i": 0, "u": 0}
    functions, layout, calls = [], [], []
    for k, e in enumerate(exprs):
        n = _rows(e)
        if set(e.values) != set(e.inputs):
            raise ValueError(f"{e.wgsl!r}: values for {sorted(e.values)}, "
                             f"inputs {sorted(e.inputs)}")
        in_base = {}
        for name, ty in e.inputs.items():
            t = WgslType.parse(ty)
            data = np.asarray(e.values[name])
            data = data.astype(np.float64 if t.kind == "f" else object)
            if data.shape != ((n, t.size) if t.size else (n,)):
                raise ValueError(f"{e.wgsl!r}: input {name} ({t.wgsl}) has shape {data.shape}")
            if t.kind == "f":
                packed = data.astype(np.float32).ravel()
            else:
                packed = (np.array([int(v) for v in data.ravel()], dtype=object)
                          & 0xFFFFFFFF).astype(np.uint64).astype(np.uint32)
                packed = packed.view(np.int32) if t.kind == "i" else packed
            buf = _BUFFER[t.kind]
            in_base[name] = sizes[buf]
            inputs[buf].append(packed)
            sizes[buf] += packed.size
        result = WgslType.parse(e.result)
        buf = _BUFFER[result.kind]
        functions.append(_function(k, e, in_base, out_sizes[buf]))
        layout.append((buf, out_sizes[buf], n, result))
        out_sizes[buf] += n * result.width
        calls.append(f"  if (i < {n}u) {{ e{k}(i); }}")
    decls = []
    for b, kind in enumerate("fiu"):
        decls.append(f"@group(0) @binding({b}) var<storage, read> in_{kind}: "
                     f"array<{_SCALAR[kind]}>;")
        decls.append(f"@group(0) @binding({b + 3}) var<storage, read_write> out_{kind}: "
                     f"array<{_SCALAR[kind]}>;")
    source = "\n".join([*[f"enable {name};" for name in enables], *decls, *functions,
                        f"@compute @workgroup_size({_WORKGROUP})",
                        "fn main(@builtin(global_invocation_id) gid: vec3<u32>) {",
                        "  let i = gid.x + gid.y * 65535u * 64u;", *calls, "}"])
    arrays = {kind: np.concatenate(inputs[kind] or [np.zeros(1, _DTYPES[kind])])
              .astype(_DTYPES[kind]) for kind in "fiu"}
    arrays.update({f"out_{kind}": np.zeros(max(out_sizes[kind], 1), _DTYPES[kind])
                   for kind in "fiu"})
    return source, arrays, layout


def evaluate(device: Any, exprs: Sequence[Expr], per_shader: int = 32,
             enables: Sequence[str] = ()) -> list[np.ndarray]:
    """Evaluates every expression on every row of its values on ``device``; returns one array per
    expression: shape (rows,) or (rows, N), dtype float32, int32, uint32 or bool. The expressions
    are split into shaders of ``per_shader`` functions (lavapipe's compile time grows faster than
    the shader: 390 small functions in one shader took minutes, in shaders of 32 seconds), each
    one dispatch, all in one submission. A shader the implementation rejects raises its
    compilation error. ``enables``: WGSL extensions the shaders enable (``("f16",)`` needs a
    device with the ``shader-f16`` feature)."""
    import wgpu

    usage = wgpu.BufferUsage
    entries = [{"binding": b, "visibility": wgpu.ShaderStage.COMPUTE,
                "buffer": {"type": wgpu.BufferBindingType.read_only_storage if b < 3
                           else wgpu.BufferBindingType.storage}} for b in range(6)]
    bind_layout = device.create_bind_group_layout(entries=entries)
    pipeline_layout = device.create_pipeline_layout(bind_group_layouts=[bind_layout])
    encoder = device.create_command_encoder()
    pending = []
    for start in range(0, len(exprs), per_shader):
        source, arrays, layout = build(exprs[start:start + per_shader], enables)
        module = device.create_shader_module(code=source)
        pipeline = device.create_compute_pipeline(
            layout=pipeline_layout, compute={"module": module, "entry_point": "main"})
        buffers = [device.create_buffer_with_data(data=arrays[k], usage=usage.STORAGE)
                   for k in "fiu"]
        buffers += [device.create_buffer_with_data(data=arrays[f"out_{k}"],
                                                   usage=usage.STORAGE | usage.COPY_SRC)
                    for k in "fiu"]
        group = device.create_bind_group(layout=bind_layout, entries=[
            {"binding": b, "resource": {"buffer": buf, "offset": 0, "size": buf.size}}
            for b, buf in enumerate(buffers)])
        groups = -(-max((n for _, _, n, _ in layout), default=0) // _WORKGROUP)
        compute = encoder.begin_compute_pass()
        compute.set_pipeline(pipeline)
        compute.set_bind_group(0, group)
        compute.dispatch_workgroups(min(groups, 65535), -(-groups // 65535), 1)
        compute.end()
        pending.append((buffers[3:], layout))
    device.queue.submit([encoder.finish()])
    results = []
    for outs, layout in pending:
        # read_buffer maps a copy and waits for the queue (on_submitted_work_done_sync raises
        # TypeError in wgpu 0.32)
        words_of = {k: np.frombuffer(device.queue.read_buffer(buf), _DTYPES[k])
                    for k, buf in zip("fiu", outs)}
        for buf, base, n, t in layout:
            words = words_of[buf][base:base + n * t.width]
            words = words != 0 if t.kind == "b" else words.copy()
            results.append(words.reshape((n, t.size) if t.size else (n,)))
    return results


def report(bad: list[str], case: Any) -> str:
    """A differential test's failure message: how many of the case's rows differ from WGSL,
    and the first twelve of them."""
    return (f"{len(bad)} of {len(case.rows)} rows differ from WGSL ({case.id}):\n  "
            + "\n  ".join(bad[:12]))
