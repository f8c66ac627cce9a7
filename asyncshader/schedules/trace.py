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

    # ---- views
    def choices(self) -> list[tuple[int, int]]:
        """The (position-0 picks before, invocation key) pairs."""
        d = self.decisions
        return [(d[i], d[i + 1]) for i in range(0, len(d), 2)]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Trace) and self.to_dict() == other.to_dict())

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
    def from_string(cls, text: str) -> Trace:
        """Parses :meth:`to_string`'s form."""
        m = _STRING_RE.match(text.strip())
        if m is None:
            raise ValueError(
                f"not an asyncshader trace string: {_clip(text)!r}. A trace string looks like "
                f"'{TRACE_STRING_PREFIX}:<kernel>:<hash>:<payload>' (from Trace.to_string(), the "
                "pytest plugin or `asyncshader explore`); check that it was not cut when copied.")
        if m.group(1) != TRACE_STRING_PREFIX[3:]:
            raise ValueError(f"trace string version {m.group(1)} is not supported by this "
                             f"asyncshader (reads version {TRACE_STRING_PREFIX[3:]}); upgrade "
                             "asyncshader or re-record the trace")
        payload = m.group(4)
        try:
            raw = zlib.decompress(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            doc = json.loads(raw)
        except (ValueError, zlib.error) as exc:
            raise ValueError(f"the trace string's payload is damaged ({exc}); copy the whole "
                             "string, it has no spaces") from None
        values = doc["x"]
        code = "I" if all(0 <= v < 2**32 for v in values) else "q"
        return cls(kernel=doc["k"], dispatch=doc["d"], strategy=doc["s"],
                   decisions=array(code, values), canonical_tail=doc["t"], steps=doc["n"],
                   decision_count=doc["c"], origin=doc.get("o"))

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
    def from_dict(cls, doc: dict[str, Any]) -> Trace:
        if doc.get("format") != TRACE_FORMAT:
            raise ValueError("not an asyncshader trace (missing \"format\": "
                             f"\"{TRACE_FORMAT}\")")
        if doc.get("version") != TRACE_VERSION:
            raise ValueError(f"trace version {doc.get('version')} is not supported by this "
                             f"asyncshader (reads version {TRACE_VERSION})")
        raw = zlib.decompress(base64.b64decode(doc["decisions"]))
        values = np.frombuffer(raw, dtype="<i8")
        code = "I" if values.size == 0 or (values.min() >= 0 and values.max() < 2**32) else "q"
        decisions = array(code, values.tolist())
        return cls(kernel=doc["kernel"], dispatch=doc["dispatch"], strategy=doc["strategy"],
                   decisions=decisions, canonical_tail=doc["canonical_tail"],
                   steps=doc["steps"], decision_count=doc["decision_count"],
                   origin=doc.get("origin"))

    @classmethod
    def load(cls, source: str | os.PathLike) -> Trace:
        """Reads a trace from a JSON file path, a JSON string, a trace string
        (:meth:`to_string`) or a file holding one."""
        if isinstance(source, str) and source.lstrip().startswith("{"):
            return cls.from_dict(json.loads(source))
        if isinstance(source, str) and _STRING_RE.match(source.strip()):
            return cls.from_string(source)
        if isinstance(source, str) and source.startswith("ash") and not os.path.exists(source):
            return cls.from_string(source)  # raises, naming what is wrong with it
        with open(source, encoding="utf-8") as f:
            text = f.read()
        if text.lstrip().startswith("{"):
            return cls.from_dict(json.loads(text))
        return cls.from_string(text)


def _clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[:n] + "..."
