"""The values the emitter passes around: a translated expression (:class:`E`: WGSL text, type,
precedence) and a binding or workgroup variable (:class:`Memory`). Their own module so that
:mod:`asyncshader.emit.expressions` and the modules it calls (matrices, structs, buffers)
share them without importing each other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .wtypes import Array, Matrix

__all__ = ["E", "Memory", "copy_of"]

#: which levels may stand unparenthesised as an operand of each level (left, right)
_OPERAND = {"mul": ({"atom", "mul"}, {"atom"}), "add": ({"atom", "mul", "add"}, {"atom", "mul"}),
            "shift": ({"atom"}, {"atom"}), "rel": ({"atom", "mul", "add", "shift"},) * 2,
            "&": ({"atom", "&"}, {"atom"}), "|": ({"atom", "|"}, {"atom"}),
            "^": ({"atom", "^"}, {"atom"}), "&&": ({"atom", "rel", "&&"}, {"atom", "rel"}),
            "||": ({"atom", "rel", "||"}, {"atom", "rel"})}


@dataclass
class E:
    """A translated expression: WGSL text, type, precedence level, and what it refers to."""

    text: str
    type: Any
    level: str = "atom"
    const: Any = None          # the host value of a folded constant
    memory: Any = None         # a Memory for a buffer / workgroup variable name
    ref: Any = None            # a function, type or module named by the expression
    has_const: bool = False

    def operand(self, level: str, side: int) -> str:
        return self.text if self.level in _OPERAND[level][side] else f"({self.text})"


@dataclass
class Memory:
    """A binding or workgroup variable: its WGSL name, address space and type."""

    name: str
    space: str                  # "storage", "read" (read-only storage), "uniform", "workgroup"
    type: Any                   # Array / Scalar / Vector / Atomic / Unknown
    atomic_use: bool = False    # a storage array that atomics touch (elements become atomic)
    #: an (n, k) array bound without a declared vector element: the CPU indexes numpy rows
    #: (views of the buffer), where WGSL loads a vector (a copy)
    rows: bool = False

    def element(self, module: Any) -> Any:
        """What one index of it gives: an array's element, a matrix's column."""
        t = module.resolved(self.type)
        return t.element if isinstance(t, Array) else t.column if isinstance(t, Matrix) else t


def copy_of(t: Any, memory: str) -> str:
    """How a shader takes a private copy of a row of ``memory`` of type ``t`` on the CPU
    (where indexing an array bound without a vector element hands out a numpy row, a view
    whose stores reach memory)."""
    return f"{getattr(t, 'wgsl', 'vec4f')}({memory}[i])"
