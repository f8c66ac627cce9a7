"""Generated fragment shaders: the random programs of test_lockstep_fuzz.py (integer and float
expressions with WGSL's edge cases, branches, loops, switch) as a fragment entry point on an
odd-sized grid (helpers at the edges), with derivatives and quad operations of random values
in the shader's uniform control flow and ``discard`` under random conditions anywhere, leave
the same storage bits, output and mask under Lockstep as under InOrder (a NaN's sign and
payload aside, as there)."""

import os

import numpy as np
import pytest
from test_lockstep_fuzz import Program, inputs

import asyncshader as ash
from asyncshader.front.wgsl import WGSLError

DERIVATIVES = [f"{base}{variant}" for base in ("dpdx", "dpdy", "fwidth")
               for variant in ("", "Fine", "Coarse")]
QUAD_OPS = ["quadSwapX({})", "quadSwapY({})", "quadSwapDiagonal({})", "quadBroadcast({}, 1u)",
            "quadBroadcast({}, 3u)"]
W, H = 7, 5


class FragmentProgram(Program):
    """A generated program whose top-level statements also take derivatives and quad
    operations (every lane of a quad is there: discard demotes, nothing returns), and whose
    statements at any depth may discard."""

    def statements(self, indent: int, depth: int, in_loop: bool) -> None:
        r = self.r
        if depth == 0 and not in_loop and r.random() < 0.8:
            t = r.choice(("i32", "u32", "f32", "f32", "f32"))
            if t == "f32" and r.random() < 0.6:
                value = f"{r.choice(DERIVATIVES)}({self.expr('f32')})"
            else:
                value = r.choice(QUAD_OPS).format(self.expr(t))
            self.count += 1
            name = f"v{self.count}"
            self.emit(f"var {name}: {t} = {value};", indent)
            self.locals[t].append(name)
            self.store(t, indent)
        if r.random() < 0.2:
            self.emit(f"if {self.cond()} {{ discard; }}", indent)
        super().statements(indent, depth, in_loop)

    def text(self) -> str:
        for _ in range(3):  # (three top-level runs: up to three derivatives or quad operations)
            self.statements(1, 0, False)
        body = "\n".join(self.lines)
        return f"""
enable subgroups;
diagnostic(off, derivative_uniformity);
const N = {max(self.outputs, 1)}u;
@group(0) @binding(0) var<storage, read> a: array<i32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read> c: array<f32>;
@group(0) @binding(3) var<storage, read_write> out_i: array<i32>;
@group(0) @binding(4) var<storage, read_write> out_u: array<u32>;
@group(0) @binding(5) var<storage, read_write> out_f: array<f32>;

@fragment
fn main(@builtin(position) pos: vec4f) -> @location(0) vec4f {{
  let i = u32(pos.y) * {W}u + u32(pos.x);
  var x = a[i];
  var y = b[i];
  var z = c[i];
{body}
  return vec4f(z, f32(x), f32(y), dpdxFine(z));
}}
"""


def _bits(v: np.ndarray) -> bytes:
    """The bits, every NaN made one (numpy's scalar and vector loops keep other operands')."""
    return (np.where(np.isnan(v), np.float32("nan"), v) if v.dtype.kind == "f" else v).tobytes()


@pytest.mark.filterwarnings("ignore::asyncshader.WGSLIndeterminateWarning")
@pytest.mark.parametrize("seed", range(int(os.environ.get("LOCKSTEP_FUZZ", "15"))))
def test_a_generated_fragment_shader_gives_inorder_bits_under_lockstep(seed):
    module = None
    for attempt in range(50):  # (the first program WGSL accepts: a const-expression may
        program = FragmentProgram(seed * 1000 + attempt)  # overflow or divide by zero)
        text = program.text()
        try:
            module = ash.load_wgsl(text)
            break
        except WGSLError:
            continue
    assert module is not None, "no generated program was valid WGSL"
    given = inputs(W * H, seed)
    runs = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        size = W * H * max(program.outputs, 1)
        out = {f"out_{k}": np.zeros(size, dtype) for k, dtype in
               (("i", np.int32), ("u", np.uint32), ("f", np.float32)) if f"out_{k}[" in text}
        with np.errstate(all="ignore"):
            r = ash.run_fragments(module["main"], W, H, schedule=schedule, sanitize="off",
                                  **out, **given)
        runs.append((b"".join(_bits(v) for v in (*out.values(), r.output)), r.mask.tolist()))
    assert runs[0] == runs[1], text
