"""Exceptions raised by asyncshader.

Every error that a dispatch raises derives from :class:`AsyncShaderError`; its message names the
invocation(s) involved, the source line(s) and, where there is one, the fix.
"""

from __future__ import annotations

from typing import Any


class AsyncShaderError(Exception):
    """Base class of every error asyncshader raises on purpose."""


class ShaderError(AsyncShaderError):
    """An exception escaped from a shader invocation.

    The message names the invocation (its WGSL builtin ids) and the line; the original exception is
    chained as ``__cause__`` (and kept in :attr:`original`), so its traceback is printed too.
    """

    def __init__(self, message: str, invocation: str, original: BaseException) -> None:
        super().__init__(message)
        self.invocation = invocation
        self.original = original


class DivergenceError(AsyncShaderError):
    """Members of a group did not all reach the same rendezvous (non-uniform control flow).

    :attr:`positions` lists ``(where, invocations)`` pairs: each place (``file:line (operation)``,
    or ``returned``) with the invocations that stand there.
    """

    def __init__(self, message: str, positions: list[tuple[str, list[str]]] | None = None) -> None:
        super().__init__(message)
        self.positions = positions or []


class BarrierDivergenceError(DivergenceError):
    """The invocations of a workgroup stopped at different barriers, or some returned while others
    wait at one. WGSL requires workgroupBarrier & co. to be called in uniform control flow."""


class DerivativeUniformityError(DivergenceError):
    """The members of a quad did not all reach the same derivative or quad operation (one
    returned, or waits at another line). WGSL calls this non-uniform control flow
    (``derivative_uniformity``)."""


class SubgroupUniformityError(DivergenceError):
    """A subgroup operation ran in non-uniform control flow, or read an inactive or
    out-of-range invocation, in a ``strict=True`` kernel (otherwise these are findings:
    ``NonUniformCollective``, ``IndeterminateValue``); or its members passed different values
    where WGSL requires one (``subgroup_broadcast``'s id). WGSL: ``subgroup_uniformity``."""


class DeadlockError(DivergenceError):
    """Nothing can run but some invocations are still blocked at a rendezvous."""


class ForeignAwaitError(AsyncShaderError, TypeError):
    """A shader awaited something that is not an asyncshader operation (e.g. ``asyncio.sleep``)."""


class BindingError(AsyncShaderError, TypeError):
    """The bindings given to a dispatch do not match the kernel's parameters."""


class DispatchError(AsyncShaderError, ValueError):
    """A dispatch was configured wrongly (sizes, options)."""


class ReplayMismatchError(AsyncShaderError):
    """A replayed trace no longer matches the program: names the first step that differs."""


class StepLimitError(AsyncShaderError):
    """An invocation took more scheduling steps than allowed (a spin loop that cannot finish)."""


class ShaderTypeError(AsyncShaderError, TypeError):
    """An expression WGSL's types refuse, met while a shader runs: two operands of different
    types (``u32`` with ``i32``, ``f32`` with ``i32``), a float literal with an integer, an
    ``i32`` shift count. A dispatch reports it as a :class:`ShaderError` naming the invocation
    and the line; the message says which conversion to write."""


class OptionError(DispatchError, TypeError):
    """An option given to asyncshader has a wrong type or value (a dispatch's ``workgroups``, a
    kernel's ``workgroup_size``, a strategy's seed, ``explore``'s ``runs`` ...). The message
    names the option, the value given and the form it takes. It is a :class:`DispatchError`,
    and both a ``ValueError`` and a ``TypeError``, so that either kind of handler catches it."""


class TraceError(AsyncShaderError, ValueError):
    """A trace cannot be read: a missing or unreadable file, a damaged trace string, JSON that
    is not a trace, a field of the wrong type. The message names the trace (its path, or the
    start of its text) and what is wrong with it."""


class ShaderCreationError(AsyncShaderError, TypeError):
    """The shader's code breaks a rule that WGSL checks when a shader module is created (a
    *shader-creation error*), such as a function that calls itself; raised at decoration or
    at dispatch, before any invocation runs, naming the file and line."""


class ShaderTimeoutError(AsyncShaderError):
    """An invocation ran longer than the dispatch's ``watchdog=`` limit without suspending (a loop
    with no ``await`` in it, e.g. a spin-wait on a plain memory location), or was still running
    that way when the host's deadline passed. The message names the invocation, the line it was
    running and the fix; :attr:`invocation` names the invocation."""

    def __init__(self, message: str, invocation: str = "") -> None:
        super().__init__(message)
        self.invocation = invocation


class ExplorationInterrupted(KeyboardInterrupt):
    """Ctrl-C (or another ``KeyboardInterrupt``) stopped :func:`~asyncshader.explore`.

    Still a ``KeyboardInterrupt``, so that it stops a program as Ctrl-C does. :attr:`report`
    is the :class:`~asyncshader.ExploreReport` of the runs that finished before it (their
    failures are already in the failure store); the message says how many, and how to go on
    from where it stopped."""

    def __init__(self, message: str, report: object) -> None:
        super().__init__(message)
        self.report = report


class ExplorationBrokenError(AsyncShaderError, RuntimeError):
    """:func:`~asyncshader.explore`'s workers died before finishing their runs (a run crashed
    a worker process, the system ran out of memory, a Dask worker was lost). :attr:`report`
    is the report of the runs that came back before (their failures are already in the
    failure store); the message says why it may have happened and how to go on."""

    def __init__(self, message: str, report: object = None) -> None:
        super().__init__(message)
        self.report = report


class CrosscheckError(AsyncShaderError, AssertionError):
    """:func:`asyncshader.crosscheck` found the GPU's results different from the CPU's (or the
    ``check=`` function said so); :attr:`report` (a ``CrosscheckReport``) has the details."""

    def __init__(self, report: Any) -> None:
        super().__init__(report.describe())
        self.report = report
