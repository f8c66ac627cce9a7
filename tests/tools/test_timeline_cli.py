"""``asyncshader timeline FILE::KERNEL``: the terminal view, the files, the exit code."""

import json
import textwrap

from asyncshader.tools.cli import main

KERNELS = textwrap.dedent('''
    import numpy as np
    import asyncshader as ash
    from asyncshader import f32, u32, workgroup_barrier

    scratch = ash.workgroup(ash.array(f32, 4))

    @ash.compute(workgroup_size=4)
    async def racy(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
        i = local_invocation_index
        scratch[i] = inp[i]
        if i < 2:
            scratch[i] += scratch[i + 2]
        await workgroup_barrier()
        if i == 0:
            out[0] = scratch[0] + scratch[1]

    @ash.compute(workgroup_size=4)
    async def fixed(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
        i = local_invocation_index
        scratch[i] = inp[i]
        await workgroup_barrier()
        if i < 2:
            scratch[i] += scratch[i + 2]
        await workgroup_barrier()
        if i == 0:
            out[0] = scratch[0] + scratch[1]

    def setup():
        return {"inp": np.arange(1, 5, dtype=np.float32), "out": np.zeros(1, np.float32)}
''')


def test_timeline_command(tmp_path):
    (tmp_path / "k.py").write_text(KERNELS)
    lines: list[str] = []
    html, trace, diagram = tmp_path / "t.html", tmp_path / "t.json", tmp_path / "d.svg"
    code = main(["timeline", f"{tmp_path / 'k.py'}::racy", "--html", str(html), "--perfetto",
                 str(trace), "--diagram", str(diagram)], out=lines.append)
    assert code == 1  # a data race
    text = "\n".join(lines)
    assert len([ln for ln in text.splitlines() if ln.startswith("  inv ")]) == 4
    assert "read-write data race on workgroup memory scratch" in text
    assert f"wrote {html}" in text and "FAILED: the race detector found" in text
    assert 'class="race-mark"' in html.read_text()
    assert len({e["tid"] for e in json.loads(trace.read_text())["traceEvents"]}) == 4
    assert 'data-race="1"' in diagram.read_text()
    lines.clear()
    assert main(["timeline", f"{tmp_path / 'k.py'}::fixed", "--quiet"],
                out=lines.append) == 0
    assert lines == []


def test_timeline_bad_workgroup_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "k.py").write_text(KERNELS)
    assert main(["timeline", f"{tmp_path / 'k.py'}::fixed", "--quiet", "--diagram",
                 str(tmp_path / "d.svg"), "--workgroup", "5"]) == 2
    assert "workgroups [0]" in capsys.readouterr().err
