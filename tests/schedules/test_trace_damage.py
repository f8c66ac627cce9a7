"""Damaged traces: every problem is an AsyncShaderError (TraceError) naming the trace and what is
wrong with it, never a zlib, JSON, base64, key or index error from inside the reader; and
``schedule=`` takes the strategies' names."""

import base64
import json
import random
import sys
import zlib

import numpy as np
import pytest

import asyncshader as ash

sys.path.insert(0, "examples")
import lost_update as lu

pytestmark = pytest.mark.filterwarnings(
    "ignore::asyncshader.stages.dispatch.TraceSourceWarning")


def replay(schedule):
    return ash.run(lu.lost_update, **lu.setup(), sanitize="off", schedule=schedule)


@pytest.fixture(scope="module")
def original():
    return replay(ash.Random(7)).trace


def check_file(path, text_or_bytes):
    """Writes a damaged trace file; reading it is refused with a TraceError naming the file,
    or it reads as a trace whose replay ends normally or with an AsyncShaderError."""
    if isinstance(text_or_bytes, bytes):
        path.write_bytes(text_or_bytes)
    else:
        path.write_text(text_or_bytes, encoding="utf-8")
    return check(str(path), str(path))


def check(source, name):
    try:
        trace = ash.Trace.load(source)
    except Exception as exc:  # the point: no other type, and the message names the trace
        assert isinstance(exc, ash.TraceError), f"{type(exc).__name__}: {exc}"
        assert name in str(exc), str(exc)
        return "refused"
    try:
        replay(trace)
    except ash.AsyncShaderError:
        return "mismatch"
    return "replayed"


def test_damaged_trace_files_are_refused_naming_the_file(original, tmp_path):
    text = original.to_json()
    doc = json.loads(text)
    rng = random.Random(16)
    path = tmp_path / "damaged.json"
    outcomes = []
    for n in range(0, len(text), max(1, len(text) // 40)):  # cut short
        outcomes.append(check_file(path, text[:n]))
    raw = text.encode()
    for _ in range(60):  # bytes flipped
        i = rng.randrange(len(raw))
        outcomes.append(check_file(path, raw[:i] + bytes([raw[i] ^ rng.choice((1, 4, 64, 128))])
                                   + raw[i + 1:]))
    for key in doc:  # a key dropped, or of another type
        outcomes.append(check_file(path, json.dumps({k: v for k, v in doc.items() if k != key})))
        for wrong in (None, [], {}, "x", -1, 1.5, True):
            outcomes.append(check_file(path, json.dumps(dict(doc, **{key: wrong}))))
    packed = {
        "not base64": "!!!!",
        "not zlib": base64.b64encode(b"not compressed").decode(),
        "a partial int64": base64.b64encode(zlib.compress(b"\0" * 7)).decode(),
        "an odd count": base64.b64encode(zlib.compress(np.zeros(3, "<i8").tobytes())).decode(),
        "a negative key": base64.b64encode(zlib.compress(np.array([0, -5], "<i8").tobytes())
                                           ).decode(),
    }
    for what, value in packed.items():
        assert check_file(path, json.dumps(dict(doc, decisions=value))) == "refused", what
    for shape in ("[]", "5", '"trace"', "null", "{}", "[1, 2]"):  # valid JSON, wrong shape
        assert check_file(path, shape) == "refused"
    assert check_file(path, b"\xff\xfe\x00garbage") == "refused"  # not even text
    assert check_file(path, "") == "refused"
    assert outcomes.count("refused") > len(outcomes) // 2
    assert "replayed" in outcomes or "mismatch" in outcomes  # (some damage is harmless)


def test_damaged_trace_strings_are_refused_naming_the_string(original):
    s = original.to_string()
    rng = random.Random(15)
    variants = [s[:n] for n in range(len(s))]  # cut anywhere, also in the middle
    for _ in range(60):
        i = rng.randrange(len(s))
        variants.append(s[:i] + rng.choice("AZaz09_-:.") + s[i + 1:])
    payload = json.loads(zlib.decompress(base64.urlsafe_b64decode(
        s.rsplit(":", 1)[1] + "=" * (-len(s.rsplit(":", 1)[1]) % 4))))

    def packed(doc):
        data = base64.urlsafe_b64encode(zlib.compress(json.dumps(doc).encode()))
        return "ash1:lost_update:00000000:" + data.decode().rstrip("=")

    for key in payload:
        variants.append(packed({k: v for k, v in payload.items() if k != key}))
        for wrong in (None, [], {}, "x", -1, 1.5, [1], [True, 1]):
            variants.append(packed(dict(payload, **{key: wrong})))
    variants += [packed([1, 2]), packed("text"), "ash1:k:0:" + base64.urlsafe_b64encode(
        zlib.compress(b"not json")).decode().rstrip("=")]
    outcomes = []
    for v in variants:
        outcomes.append(check(v, v.strip()[:20]))
    assert outcomes.count("refused") > len(outcomes) // 2


def test_missing_and_unreadable_traces_are_trace_errors(tmp_path):
    missing = tmp_path / "nope.json"
    for make in (ash.Trace.load, ash.Replay, replay):
        with pytest.raises(ash.TraceError, match=r"trace file '.*nope\.json' does not exist"):
            make(str(missing))
    with pytest.raises(ash.TraceError, match="cannot be read"):
        ash.Trace.load(tmp_path)  # a folder
    with pytest.raises(ash.TraceError, match="not int"):
        ash.Trace.load(5)
    with pytest.raises(ash.OptionError, match=r"Replay\(trace\) must be a Trace"):
        ash.Replay(5)


def test_a_replay_mismatch_names_the_trace_file(original, tmp_path):
    path = tmp_path / "short.json"
    cut = ash.Trace.load(original.to_json())
    cut.decisions = cut.decisions[:2]
    cut.canonical_tail = 0
    cut.save(path)
    with pytest.raises(ash.ReplayMismatchError, match=r"trace ends after.*short\.json"):
        replay(str(path))


@pytest.mark.parametrize("name, expected", [
    ("random", ash.Random(0)), ("pct", ash.PCT(0)), ("PCT", ash.PCT(0)),
    ("in_order", ash.InOrder()), ("in-order", ash.InOrder()), ("reverse", ash.Reverse()),
])
def test_schedule_takes_the_strategy_names_explore_and_the_cli_take(name, expected):
    assert replay(name).trace == replay(expected).trace


def test_a_wrong_schedule_name_is_an_option_error_that_suggests_the_name():
    with pytest.raises(ash.OptionError, match=r"schedule must be a strategy name .*'randm'.*"
                                              r"did you mean 'random'"):
        replay("randm")
    with pytest.raises(ash.OptionError, match="no file of that name exists"):
        replay("whatever")
    with pytest.raises(ash.OptionError, match="unknown strategy 'bogus': use random, pct"):
        ash.explore(lu.lost_update, lu.setup, lu.check, "bogus")
    with pytest.raises(TypeError, match="use asyncshader.explore"):
        replay("exhaustive")  # the name exists; one dispatch cannot run a search
