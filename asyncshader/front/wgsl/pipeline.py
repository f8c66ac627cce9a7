"""Pipeline creation for a loaded WGSL module: the values of its overrides, from the
pipeline constants a host gives (``load_wgsl(..., constants={name or @id: value})``) and
the overrides' defaults, and the override-expressions evaluated with them (WGSL § Expression
evaluation phases: override-expressions are evaluated at pipeline creation). The code
generator reads every override-expression it meets (a read of an override, an
``@workgroup_size``, the element count of a workgroup array) from here as a constant.

An override with neither a constant nor a default has no value: the module still loads, and
an entry point that uses it is refused when it is asked for (WebGPU requires the value only of
the pipelines whose entry point uses it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...ir.types import Array, OverrideSize
from . import syntax as ast
from .consteval import UNKNOWN, ConstError, fit
from .evaluate import Evaluation
from .source import WGSLError, error_at

__all__ = ["MISSING", "Pipeline", "pipeline_constants"]

#: what an override-expression is worth when an override it reads has no value
MISSING = object()


class _Missing(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def pipeline_constants(source_name: str, overrides: Mapping[str, Any],
                       constants: Mapping[Any, Any] | None) -> dict[str, Any]:
    """``constants`` keyed by override name: each key is a declared override's name or its
    ``@id`` (an int or its decimal string, as WebGPU keys them). A key no override declares,
    or one override given twice, is a :class:`WGSLError` listing the declared overrides."""
    by_id = {str(ov.id): name for name, ov in overrides.items() if ov.id is not None}
    out: dict[str, Any] = {}
    for key, value in (constants or {}).items():
        name = key if isinstance(key, str) and key in overrides else by_id.get(str(key))
        if name is None or isinstance(key, bool):
            declared = ", ".join(f"{n}" + (f" (@id({ov.id}))" if ov.id is not None else "")
                                 for n, ov in overrides.items()) or "none"
            raise WGSLError(f"{source_name}: constants= gives {key!r}, which is no override "
                            f"of the module (by name or @id); its overrides: {declared}",
                            source_name)
        if name in out:
            raise WGSLError(f"{source_name}: constants= gives the override {name} twice (by "
                            "name and by @id); give it once", source_name)
        out[name] = value
    return out


class Pipeline(Evaluation):
    """The override values of one pipeline of a type-checked module (``checker``), given
    ``constants`` by override name (:func:`pipeline_constants`): :meth:`value_of` evaluates an
    override-expression, :meth:`length` an override-sized array's element count."""

    phases = ("const", "override")

    def __init__(self, checker: Any, constants: Mapping[str, Any]) -> None:
        self.checker = checker
        self.memo: dict[int, Any] = {}
        self.unevaluated = 0
        self.constants = dict(constants)
        self.overrides: dict[str, Any] = {}  # name -> value (MISSING: none)
        self.counts: dict[int, ast.Expr] | None = None  # OverrideSize key -> count expression

    def __getattr__(self, name: str) -> Any:  # (the checker's types, const values, errors)
        return getattr(self.checker, name)

    def declared_value(self, decl: object) -> Any:
        if not (isinstance(decl, ast.VarDecl) and decl.kind == "override"):
            return UNKNOWN
        value = self.override(decl)
        if value is MISSING:
            raise _Missing(decl.name)
        return value

    def override(self, decl: ast.VarDecl) -> Any:
        """The override's value in this pipeline (MISSING where it has none, UNKNOWN where
        its default calls a built-in function the evaluator does not compute)."""
        if decl.name in self.overrides:
            return self.overrides[decl.name]
        t = self.checker.decl_type(decl)
        source = self.checker.resolved.source
        if decl.name in self.constants:
            value = self._converted(decl, t, self.constants[decl.name])
        elif decl.init is None:
            value = MISSING
        else:
            value = self.value_of(decl.init)  # (UNKNOWN: a use of it is refused)
            if value not in (MISSING, UNKNOWN):
                try:
                    value = fit(value, t)
                except ConstError as exc:
                    raise error_at(source, decl.init.span, f"the default of override "
                                   f"'{decl.name}': {exc}") from None
        self.overrides[decl.name] = value
        return value

    def _converted(self, decl: ast.VarDecl, t: Any, value: Any) -> Any:
        """A pipeline constant (WebGPU's are numbers) as the override's type."""
        source = self.checker.resolved.source
        try:
            if isinstance(value, bool) or t.name == "bool":
                return bool(value) if t.name == "bool" else fit(int(value), t)
            if t.name in ("i32", "u32") and float(value) != int(value):
                raise ConstError(f"{value!r} is not an integer")
            return fit(int(value) if t.name in ("i32", "u32") else float(value), t)
        except (ConstError, TypeError, ValueError, OverflowError) as exc:
            raise WGSLError(f"{source.where(decl.name_span)}: constants= gives override "
                            f"'{decl.name}' ({t.wgsl}) the value {value!r}: {exc}",
                            source.where(decl.name_span)) from None

    def value_of(self, e: ast.Expr) -> Any:
        """The value of the const- or override-expression ``e`` in this pipeline: MISSING
        when an override it reads has no value, UNKNOWN where the evaluator does not compute
        it (a built-in function other than abs, min, max, clamp, select, all, any)."""
        try:
            return self.value(e)
        except _Missing:
            return MISSING

    def length(self, size: OverrideSize) -> Any:
        """The element count of an override-sized array (MISSING, or a WGSLError at the
        count where it is not positive)."""
        if self.counts is None:
            self.counts = _counts(self.checker.resolved.module)
        count = self.counts[size.key]
        n = self.value_of(count)
        if n is MISSING:
            return MISSING
        if n is UNKNOWN or n <= 0:
            source = self.checker.resolved.source
            raise error_at(source, count.span, f"an array's element count must be positive, "
                           f"not {n}" if n is not UNKNOWN else "not supported yet by "
                           "load_wgsl: this element count (a built-in function the loader "
                           "does not evaluate)")
        return int(n)

    def sized(self, t: Any) -> bool:
        """Whether every override-sized array in ``t`` has its element count here."""
        while isinstance(t, Array):
            if isinstance(t.length, OverrideSize) and self.length(t.length) is MISSING:
                return False
            t = t.element
        return True


def _counts(module: Any) -> dict[int, ast.Expr]:
    """Every syntax expression of ``module``, by ``id`` (an override-sized array type keeps
    its count expression's id)."""
    return {id(n): n for n in ast.walk(module) if isinstance(n, ast.Expr)}


def workgroup_dimension(pipeline: Pipeline, e: ast.Expr) -> int | None:
    """One ``@workgroup_size`` argument (an override-expression) in ``pipeline``: None where
    an override it reads has no value; a WGSLError at it where it is not a positive
    integer."""
    n = pipeline.value_of(e)
    if n is MISSING:
        return None
    if n is UNKNOWN or n < 1:
        raise error_at(pipeline.checker.resolved.source, e.span,
                       f"@workgroup_size must be at least 1, not {n}" if n is not UNKNOWN
                       else "not supported yet by load_wgsl: this workgroup size (a built-in "
                       "function the loader does not evaluate)")
    return int(n)
