"""Type syntax to the IR's types: what a name with its template list denotes as a type
(``vec3<f32>``, ``array<Light, N>``, ``ptr<storage, array<u32>, read_write>``, an alias, a
struct declaration with its members' ``@align``/``@size``), and the checks WGSL makes on it
(a vector of vectors, an array length that is not a positive constant, an atomic of f32 ...).
A mixin of the checker (:class:`.check.Checker`): it uses its expression typing for the
constant arguments of template lists."""

from __future__ import annotations

from typing import Any

from ...ir.layout import struct_layout
from ...ir.types import (
    ACCESS_MODES,
    BOOL,
    F16,
    F32,
    I32,
    SPACES,
    U32,
    Array,
    Atomic,
    Matrix,
    Opaque,
    OverrideSize,
    Pointer,
    Scalar,
    Struct,
    Vector,
    default_access,
    is_abstract,
)
from . import syntax as ast
from .consteval import UNKNOWN
from .conversions import describe, leaf
from .predeclared import GENERATOR, TYPE, Predeclared

_SCALARS = {"f32": F32, "f16": F16, "i32": I32, "u32": U32, "bool": BOOL}
_SHORT = {"f": F32, "h": F16, "i": I32, "u": U32}


def _alias(name: str) -> Any:
    """``vec3f``, ``mat4x4h`` ...: the predeclared aliases."""
    if name.startswith("vec") and len(name) == 5:
        return Vector(int(name[3]), _SHORT[name[4]])
    if name.startswith("mat") and len(name) == 7:
        return Matrix(int(name[3]), int(name[5]), _SHORT[name[6]])
    return None


class TypeNames:
    """Resolves type syntax; mixed into the checker."""

    def type_of(self, node: ast.Ident) -> Any:
        """The type ``node`` denotes (memoized on the node's identity)."""
        key = id(node)
        found = self.type_cache.get(key)
        if found is None:
            found = self._type_of(node)
            if leaf(found) == F16 and not isinstance(node.target, (ast.Struct, ast.Alias)):
                self.needs_f16(node.span)
            self.type_cache[key] = found
        return found

    def _type_of(self, node: ast.Ident) -> Any:
        target = node.target
        if isinstance(target, ast.Struct):
            return self.struct_type(target)
        if isinstance(target, ast.Alias):
            return self.type_of(target.type)
        if not isinstance(target, Predeclared) or target.kind not in (TYPE, GENERATOR):
            raise self.error(node.span, f"'{node.name}' is not a type")
        name = node.name
        if target.kind == TYPE:
            if node.template is not None:
                raise self.error(node.span, f"'{name}' takes no template list")
            if name in _SCALARS:
                return _SCALARS[name]
            return _alias(name) or Opaque(name)
        args = node.template or []
        if name.startswith("vec"):
            (element,) = self.type_args(node, 1)
            if not isinstance(element, Scalar):
                raise self.error(node.span, f"a vector's components are scalars, not "
                                 f"{describe(element)}")
            return Vector(int(name[3]), element)
        if name.startswith("mat"):
            (element,) = self.type_args(node, 1)
            if element not in (F32, F16):
                raise self.error(node.span, f"a matrix holds f32 or f16, not "
                                 f"{describe(element)}")
            return Matrix(int(name[3]), int(name[5]), element)
        if name == "atomic":
            (element,) = self.type_args(node, 1)
            if element not in (I32, U32):
                raise self.error(node.span, f"atomic<T> holds i32 or u32, not "
                                 f"{describe(element)}")
            return Atomic(element)
        if name == "array":
            return self.array_type(node, args)
        if name == "ptr":
            return self.pointer_type(node, args)
        if not args and name != "buffer":
            raise self.error(node.span, f"'{name}' needs a template list")
        element = self.type_arg(args[0]) if name == "binding_array" else None
        return Opaque(name, tuple(self.opaque_arg(a) for a in args), element)

    def type_args(self, node: ast.Ident, count: int) -> list[Any]:
        args = node.template or []
        if len(args) != count:
            raise self.error(node.span, f"'{node.name}' takes {count} template argument"
                             f"{'s' if count > 1 else ''}, not {len(args)}")
        return [self.type_arg(a) for a in args]

    def type_arg(self, arg: ast.Expr) -> Any:
        if not isinstance(arg, ast.Ident):
            raise self.error(arg.span, "a type is expected here")
        return self.type_of(arg)

    def opaque_arg(self, arg: ast.Expr) -> str:
        if isinstance(arg, ast.Ident) and isinstance(arg.target, Predeclared) and \
                arg.target.kind not in (TYPE, GENERATOR):
            return arg.name  # a texel format or an access mode
        if isinstance(arg, ast.Ident) and not isinstance(arg.target, ast.VarDecl):
            return self.type_arg(arg).wgsl
        self.value_type(arg)  # an element count (binding_array<T, 4>, buffer<64>)
        return self.source.text[arg.span.start:arg.span.end]

    def enumerant(self, arg: ast.Expr, allowed: tuple[str, ...], what: str) -> str:
        if not isinstance(arg, ast.Ident) or arg.name not in allowed or \
                not isinstance(arg.target, Predeclared):
            raise self.error(arg.span, f"expected {what} ({', '.join(allowed)})")
        return arg.name

    def array_type(self, node: ast.Ident, args: list[ast.Expr]) -> Array:
        if not 1 <= len(args) <= 2:
            raise self.error(node.span, "array takes an element type and, for a fixed-size "
                             "array, an element count: array<f32, 4>")
        element = self.type_arg(args[0])
        if isinstance(element, (Pointer, Opaque)) or (
                isinstance(element, Array) and element.length is None):
            raise self.error(args[0].span, f"an array cannot hold {describe(element)}")
        if len(args) == 1:
            return Array(element, None)
        count = args[1]
        t = self.value_type(count)
        if t not in (I32, U32) and not (isinstance(t, Scalar) and t.name == "abstract-int"):
            raise self.error(count.span, f"an array's element count is an integer, not "
                             f"{describe(t)}")
        if count.stage == "override":
            return Array(element, OverrideSize(self.source.text[count.span.start:
                                                                count.span.end], id(count)))
        if count.stage != "const":
            raise self.error(count.span, "an array's element count must be a constant or an "
                             "override (declare the array runtime-sized, array<T>, in a "
                             "storage buffer for a length known only at run time)")
        n = self.type_level_value(count)
        if n is UNKNOWN:  # (a built-in the evaluator does not compute: not a guess)
            raise self.error(count.span, "this array size is a const-expression the loader "
                             "cannot evaluate yet (it calls a built-in function other than "
                             "abs, min, max, clamp or select); write the number")
        if n <= 0:
            raise self.error(count.span, f"an array's element count must be positive, not "
                             f"{n}")
        return Array(element, n)

    def pointer_type(self, node: ast.Ident, args: list[ast.Expr]) -> Pointer:
        if not 2 <= len(args) <= 3:
            raise self.error(node.span, "ptr takes an address space, a type and an optional "
                             "access mode: ptr<function, f32>")
        space = self.enumerant(args[0], SPACES, "an address space")
        store = self.type_arg(args[1])
        access = self.enumerant(args[2], ACCESS_MODES, "an access mode") if len(args) == 3 \
            else default_access(space)
        if len(args) == 3 and space != "storage":
            raise self.error(args[2].span, f"only storage pointers name an access mode; a "
                             f"{space} pointer is {default_access(space)}")
        return Pointer(space, store, access)

    def struct_type(self, decl: ast.Struct) -> Struct:
        found = self.structs.get(decl.name)
        if found is not None:
            return found
        fields, attrs = [], []
        names: set[str] = set()
        for i, member in enumerate(decl.members):
            if member.name in names:
                raise self.error(member.span, f"struct {decl.name} has two members named "
                                 f"'{member.name}'")
            names.add(member.name)
            t = self.type_of(member.type)
            if isinstance(t, (Pointer, Opaque)) or \
                    is_abstract(t):
                raise self.error(member.type.span, f"a struct member cannot be "
                                 f"{describe(t)}")
            if isinstance(t, Array) and t.length is None and i != len(decl.members) - 1:
                raise self.error(member.span, "a runtime-sized array may only be the last "
                                 "member of a struct")
            fields.append((member.name, t))
            attrs.append(self.layout_attrs(member.attributes))
        struct = Struct(decl.name, tuple(fields), tuple(attrs))
        if any(attrs) and not any(isinstance(t, Array) and isinstance(t.length, OverrideSize)
                                  for t in fields):
            try:  # @size below the member's size (§ size attribute: whatever the use)
                struct_layout(struct)
            except TypeError as error:
                if "@size" in str(error):
                    raise self.error(decl.name_span, str(error)) from None
        self.structs[decl.name] = struct
        return struct

    def layout_attrs(self, attributes: list[ast.Attribute]) -> str:
        """A member's ``@align(n)``/``@size(n)`` as the IR's :class:`Struct` holds them."""
        text = ""
        for attribute in attributes:
            if attribute.name not in ("align", "size") or len(attribute.args) != 1:
                continue
            arg = attribute.args[0]
            self.value_type(arg)
            n = self.type_level_value(arg) if arg.stage == "const" else UNKNOWN
            if n is UNKNOWN or not isinstance(n, int) or isinstance(n, bool) or n <= 0:
                raise self.error(arg.span, f"@{attribute.name} takes a positive integer "
                                 "constant")
            if attribute.name == "align" and n & (n - 1):
                raise self.error(arg.span, f"@align takes a power of two, not {n}")
            text += f"@{attribute.name}({n}) "
        return text
