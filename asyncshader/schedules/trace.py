"""The trace of a run: its scheduling decisions, with what is needed to replay them.

A :class:`Trace` holds pairs (number of position-0 picks before, invocation chosen), so an
in-order run records nothing but a count. It saves to versioned JSON with the kernel's identity
(qualified name and source hash) and the dispatch configuration, and to a one-line string that
is safe to paste into a shell; :class:`~asyncshader.Replay` reproduces the run from either.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import zlib
from array import array
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.validation import is_int
from ..errors import TraceError

TRACE_FORMAT = "asyncshader.trace"
TRACE_VERSION = 1
#: prefix of the one-line text form of a trace (the digit is the format version)
TRACE_STRING_PREFIX = "ash1"
_STRING_RE = re.compile(r"^ash(\d+):([A-Za-z0-9_.-]*):([0-9a-f]*):([A-Za-z0-9_-]+)$")


@dataclass
class Trace:
    """The scheduling decisions of one run, with what is needed to replay them.

    ``decisions`` holds pairs (position-0 picks before, key of the invocation picked);
    ``canonical_tail`` counts the position-0 picks after the last pair. ``kernel`` and
    ``dispatch`` identify the program and its configuration; ``steps`` and ``decision_count``
    are totals of the run.
    """

    kernel: dict[str, Any]
    dispatch: dict[str, Any]
    strategy: dict[str, Any]
    decisions: array = field(default_factory=lambda: array("I"))
    canonical_tail: int = 0
    steps: int = 0
    decision_count: int = 0
    #: where the kernel lives, for tools that replay a trace on their own (the CLI):
    #: ``{"file": path, "kernel": attribute name}``; optional
    origin: dict[str, Any] | None = None
    #: where the trace was read from, as messages name it (``trace file 'x.json'``, the start of
    #: a trace string); not part of the trace: never saved, not compared
    source: str = field(default="", repr=False, compare=False)

    # ---- views
    def choices(self) -> list[tuple[int, int]]:
        """The (position-0 picks before, invocation key) pairs."""
        d = self.decisions
        return [(d[i], d[i + 1]) for i in range(0, len(d), 2)]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Trace) and self.to_dict() == other.to_dict())

    def __repr__(self) -> str:
        """One short line whatever the run's length: the kernel, the strategy and the counts;
        the decisions themselves are in :meth:`to_string`, :meth:`save` and :attr:`decisions`."""
        strategy = ", ".join(f"{k}={v!r}" for k, v in self.strategy.items() if k != "name")
        return (f"<Trace of {self.kernel.get('name', '?')}: {self.strategy.get('name', '?')}"
                f"({strategy}), {self.steps:,} steps, {self.decision_count:,} decisions>")

    # ---- JSON
    def to_dict(self) -> dict[str, Any]:
        """The versioned JSON document (decisions packed as base64 zlib little-endian int64)."""
        raw = np.asarray(self.decisions, dtype="<i8").tobytes()
        return {
            "format": TRACE_FORMAT, "version": TRACE_VERSION,
            "kernel": self.kernel, "dispatch": self.dispatch, "strategy": self.strategy,
            "steps": self.steps, "decision_count": self.decision_count,
            "canonical_tail": self.canonical_tail,
            "decisions": base64.b64encode(zlib.compress(raw, 6)).decode("ascii"),
        } | ({"origin": self.origin} if self.origin else {})

    # ---- the one-line text form
    def to_string(self) -> str:
        """The compact one-line form, ``ash1:<kernel>:<source hash>:<payload>``.

        Safe to paste into a shell or a test unquoted (letters, digits and ``:_.-`` only);
        :class:`Replay` and :meth:`Trace.load` accept it. The kernel name and source hash are
        repeated in clear for people; the payload (zlib-compressed JSON, base64url) holds
        everything :meth:`to_dict` does.
        """
        doc = {"k": self.kernel, "d": self.dispatch, "s": self.strategy, "n": self.steps,
               "c": self.decision_count, "t": self.canonical_tail,
               "x": list(self.decisions)}
        if self.origin:
            doc["o"] = self.origin
        raw = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
        payload = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", str(self.kernel.get("name", "")).rsplit(".", 1)[-1])
        digest = str(self.kernel.get("source_hash", "")).split(":")[-1][:8]
        return f"{TRACE_STRING_PREFIX}:{name}:{digest}:{payload}"

    @classmethod
    def from_string(cls, text: str, *, source: str | None = None) -> Trace:
        """Parses :meth:`to_string`'s form. A damaged or cut string raises
        :class:`~asyncshader.TraceError` naming it and what is wrong."""
        label = source or _text_label(text, "trace string")
        if not isinstance(text, str):
            raise TraceError(f"{label}: a trace string is a str, not {type(text).__name__}")
        m = _STRING_RE.match(text.strip())
        if m is None:
            several = text.strip().startswith(TRACE_STRING_PREFIX) and "," in text
            raise TraceError(
                f"{label} is not an asyncshader trace string"
                + (f": it holds {text.count(',') + 1} traces separated by commas (the "
                   "dispatches of one pytest run; replay them with pytest --asyncshader-replay)"
                   if several else
                   f". A trace string looks like '{TRACE_STRING_PREFIX}:<kernel>:<hash>:"
                   "<payload>' (from Trace.to_string(), the pytest plugin or `asyncshader "
                   "explore`); check that it was not cut when copied"))
        if m.group(1) != TRACE_STRING_PREFIX[3:]:
            raise TraceError(f"{label}: trace string version {m.group(1)} is not supported by "
                             f"this asyncshader (reads version {TRACE_STRING_PREFIX[3:]}); "
                             "upgrade asyncshader or re-record the trace")
        payload = m.group(4)
        try:
            raw = zlib.decompress(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            doc = json.loads(raw)
        except (ValueError, zlib.error) as exc:  # binascii, zlib, JSON and UTF-8 errors
            raise TraceError(f"{label}: its payload is damaged ({exc}); copy the "
                             "whole string, it has no spaces") from None
        fields = _read_fields(doc, label, _STRING_KEYS)
        values = doc["x"]
        if not isinstance(values, list) or not all(is_int(v) for v in values):
            raise TraceError(f"{label}: its decisions are not a list of ints; the trace string "
                             "is damaged")
        return cls(decisions=_decisions(values, label), source=label, **fields)

    def digest(self) -> str:
        """A short hash of the schedule (kernel, configuration and decisions): equal digests,
        same schedule. Used by the determinism self-check."""
        doc = self.to_dict()
        doc.pop("origin", None)
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, sort_keys=True)

    def save(self, path: str | os.PathLike) -> None:
        """Writes the trace as JSON to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())
            f.write("\n")

    @classmethod
    def from_dict(cls, doc: dict[str, Any], *, source: str | None = None) -> Trace:
        """The trace a :meth:`to_dict` document describes. A document that is not a trace, or
        has a field missing or of the wrong type, raises :class:`~asyncshader.TraceError`."""
        label = source or "the trace document"
        if not isinstance(doc, dict):
            raise TraceError(f"{label} holds a JSON {_json_type(doc)}, not a trace (a JSON "
                             f"object with \"format\": \"{TRACE_FORMAT}\")")
        if doc.get("format") != TRACE_FORMAT:
            raise TraceError(f"{label} is not an asyncshader trace (missing \"format\": "
                             f"\"{TRACE_FORMAT}\")")
        if doc.get("version") != TRACE_VERSION:
            raise TraceError(f"{label}: trace version {doc.get('version')!r} is not supported "
                             f"by this asyncshader (reads version {TRACE_VERSION})")
        fields = _read_fields(doc, label, _JSON_KEYS)
        packed = doc["decisions"]
        try:
            if not isinstance(packed, str):
                raise TypeError(f"a {_json_type(packed)}, not a base64 str")
            raw = zlib.decompress(base64.b64decode(packed, validate=True))
            if len(raw) % 8:
                raise ValueError(f"{len(raw)} bytes, not a whole number of int64 values")
        except (TypeError, ValueError, zlib.error) as exc:
            raise TraceError(f"{label}: its \"decisions\" field is damaged ({exc}); it holds "
                             "the decisions as base64 of zlib-compressed little-endian int64 "
                             "values") from None
        values = np.frombuffer(raw, dtype="<i8").tolist()
        return cls(decisions=_decisions(values, label), source=label, **fields)

    @classmethod
    def load(cls, source: str | os.PathLike) -> Trace:
        """Reads a trace from a JSON file path, a JSON string, a trace string
        (:meth:`to_string`) or a file holding one. Anything that is not a readable trace raises
        :class:`~asyncshader.TraceError` naming the trace and what is wrong with it."""
        if isinstance(source, str) and source.lstrip()[:1] in ("{", "["):
            return _parse_text(source, _text_label(source, "trace JSON"))
        if isinstance(source, str) and _STRING_RE.match(source.strip()):
            return cls.from_string(source)
        if isinstance(source, str) and source.startswith("ash") and not os.path.exists(source):
            return cls.from_string(source)  # raises, naming what is wrong with it
        if not isinstance(source, (str, os.PathLike)):
            raise TraceError(f"a trace is read from a file path, a trace string or JSON text, "
                             f"not {type(source).__name__} ({_clip(repr(source))})")
        label = f"trace file {os.fspath(source)!r}"
        try:
            with open(source, encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            raise TraceError(f"{label} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            what = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise TraceError(f"{label} cannot be read ({what})") from None
        return _parse_text(text, label)


#: the fields of a trace, by their key in the JSON document and in a trace string's payload
_JSON_KEYS = {"kernel": "kernel", "dispatch": "dispatch", "strategy": "strategy",
              "steps": "steps", "decision_count": "decision_count",
              "canonical_tail": "canonical_tail", "origin": "origin", "decisions": "decisions"}
_STRING_KEYS = {"kernel": "k", "dispatch": "d", "strategy": "s", "steps": "n",
                "decision_count": "c", "canonical_tail": "t", "origin": "o", "decisions": "x"}


def _read_fields(doc: Any, label: str, keys: dict[str, str]) -> dict[str, Any]:
    """The trace's fields other than the decisions, checked: a missing field or one of the
    wrong type is a damaged trace."""
    if not isinstance(doc, dict):
        raise TraceError(f"{label}: its payload holds a JSON {_json_type(doc)}, not a trace")
    missing = [key for field_, key in keys.items() if field_ != "origin" and key not in doc]
    if missing:
        raise TraceError(f"{label}: the field(s) {', '.join(map(repr, missing))} are missing; "
                         "the trace is damaged or was not written by asyncshader")
    out: dict[str, Any] = {}
    for name in ("kernel", "dispatch", "strategy"):
        value = doc[keys[name]]
        if not isinstance(value, dict):
            raise TraceError(f"{label}: its {name!r} field is a JSON {_json_type(value)}, not "
                             "an object")
        out[name] = value
    for key in ("name", "source_hash"):
        if not isinstance(out["kernel"].get(key), str):
            raise TraceError(f"{label}: its kernel has no {key!r} (a str); the trace is damaged")
    for name in ("steps", "decision_count", "canonical_tail"):
        value = doc[keys[name]]
        if not is_int(value) or value < 0:
            raise TraceError(f"{label}: its {name!r} field must be a non-negative int, not "
                             f"{_clip(repr(value))}")
        out[name] = value
    origin = doc.get(keys["origin"])
    if origin is not None and not (isinstance(origin, dict) and all(
            isinstance(origin.get(k), str) for k in ("file", "kernel"))):
        raise TraceError(f"{label}: its 'origin' field must be an object with a 'file' and a "
                         f"'kernel' (str), not {_clip(repr(origin))}")
    out["origin"] = origin
    return out


def _decisions(values: list[int], label: str) -> array:
    """The decision pairs (position-0 picks before, key picked), checked."""
    if len(values) % 2:
        raise TraceError(f"{label}: it holds {len(values)} decision values, not pairs (picks "
                         "before, invocation); the trace is damaged")
    if values and min(values) < 0:
        raise TraceError(f"{label}: a decision holds a negative value ({min(values)}); the "
                         "trace is damaged")
    return array("I" if not values or max(values) < 2**32 else "q", values)


def _parse_text(text: str, label: str) -> Trace:
    """A trace from the text of a file or a string: JSON or a trace string."""
    if text.lstrip()[:1] not in ("{", "["):
        return Trace.from_string(text, source=label)
    try:
        doc = json.loads(text)
    except ValueError as exc:
        where = (f" at line {exc.lineno}, column {exc.colno}"
                 if isinstance(exc, json.JSONDecodeError) else "")
        message = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise TraceError(f"{label} is not valid JSON ({message}{where}); the trace is damaged "
                         "or cut short") from None
    return Trace.from_dict(doc, source=label)


def _text_label(text: Any, kind: str) -> str:
    """How a message names a trace given as text: its kind and its first characters."""
    return f"{kind} {_clip(str(text).strip(), 40)!r}"


def _json_type(value: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "number",
            float: "number", type(None): "null"}.get(type(value), type(value).__name__)


def _clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[:n] + "..."
