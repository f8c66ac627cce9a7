"""Prefix sum (inclusive scan): Hillis–Steele in workgroup memory, with double buffering.

What this example teaches (WGSL concepts):

* Hillis–Steele scan: in step k every invocation ``i`` adds the value ``2**k`` places to its left
  (if there is one). After log2(WG) steps, element ``i`` holds ``x[0] + ... + x[i]``.
* Double buffering (ping-pong) between two ``var<workgroup>`` arrays. A step reads the old values
  of its neighbours, so it must not overwrite them in place: with a single array an invocation
  could read ``buf[i - offset]`` after its neighbour already replaced it. Reading from one array
  and writing the other removes that hazard, and the two arrays swap roles after each step. One
  ``workgroupBarrier()`` per step then suffices: with a single array a step needs two (read,
  barrier, write, barrier).
* Barriers in a loop: the loop bound (``offset < WG``) is the same for every invocation, so the
  barrier inside it stays in uniform control flow even though the ``if i >= offset`` inside does
  not.
* u32 arithmetic wraps: ``i - offset`` with ``i < offset`` would be a huge u32 (like WGSL), so the
  subtraction happens only under ``if i >= offset``. Same for ``workgroup_id.x - 1`` below.
* Several dispatches make a device-wide scan, since workgroups cannot wait for each other:
  (1) each workgroup scans its block and writes its block total; (2) the block totals are scanned
  (recursively, with the same kernel); (3) a second kernel adds to every element of block ``w``
  the scanned total of the blocks before it.

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/prefix_sum.py
"""

from __future__ import annotations

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec3u, workgroup_barrier

#: Invocations per workgroup = elements scanned per block (a power of two).
WG = 64

# var<workgroup> ping: array<f32, WG>;   var<workgroup> pong: array<f32, WG>;
ping = ash.workgroup(ash.array(f32, WG))
pong = ash.workgroup(ash.array(f32, WG))


@ash.compute(workgroup_size=WG)
async def scan_blocks(inp: ash.Storage[f32], out: ash.Storage[f32],
                      block_sums: ash.Storage[f32], n: u32, *,
                      local_invocation_index: u32, workgroup_id: vec3u,
                      global_invocation_id: vec3u):
    """out[block] = inclusive scan of inp[block]; block_sums[w] = total of block w."""
    i = local_invocation_index
    g = global_invocation_id.x
    ping[i] = inp[g] if g < n else f32(0)   # pad the last block with the identity, 0
    await workgroup_barrier()
    # WGSL cannot keep a pointer in a `var`, so a shader would index one array<f32, 2*WG> with a
    # flipping offset; in Python we simply swap which name is the source and which the target.
    src, dst = ping, pong
    offset = 1
    while offset < WG:
        if i >= offset:
            dst[i] = src[i] + src[i - offset]
        else:
            dst[i] = src[i]
        await workgroup_barrier()     # every write of this step lands before the next reads
        src, dst = dst, src           # ping-pong: this step's output is the next step's input
        offset *= 2
    if g < n:
        out[g] = src[i]
    if i == WG - 1:
        block_sums[workgroup_id.x] = src[i]


@ash.compute(workgroup_size=WG)
async def add_block_offsets(out: ash.Storage[f32], scanned_sums: ash.Storage[f32], n: u32, *,
                            workgroup_id: vec3u, global_invocation_id: vec3u):
    """Adds the total of all earlier blocks to every element of block ``workgroup_id.x``."""
    w = workgroup_id.x
    g = global_invocation_id.x
    if w > 0 and g < n:               # w - 1 only when w > 0: u32 would wrap to 4294967295
        out[g] += scanned_sums[w - 1]


def setup_scan_blocks() -> dict:
    """One dispatch of the first kernel, for the command line (``asyncshader
    run|wgsl|crosscheck examples/prefix_sum.py::scan_blocks``): 300 small integers (exact
    sums) in 5 blocks."""
    values = np.random.default_rng(5).integers(0, 9, 300).astype(np.float32)
    return {"workgroups": 5, "inp": values, "out": np.zeros(300, np.float32),
            "block_sums": np.zeros(5, np.float32), "n": 300}


def setup_add_block_offsets() -> dict:
    """One dispatch of the second kernel: 5 blocks of block-scanned values and the scanned
    block totals."""
    out = np.random.default_rng(5).integers(0, 9, 300).astype(np.float32)
    return {"workgroups": 5, "out": out, "scanned_sums": np.arange(5, dtype=np.float32),
            "n": 300}


def inclusive_scan(values: np.ndarray, *, schedule=None, max_live_workgroups: int = 1,
                   log: list | None = None) -> np.ndarray:
    """Inclusive prefix sum of ``values`` (as float32) on the simulated GPU.

    ``log``, if given, receives one line per dispatch.
    """
    data = np.ascontiguousarray(values, dtype=np.float32).ravel()
    n = data.size
    out = np.zeros(n, np.float32)
    if n == 0:
        return out
    groups = -(-n // WG)
    block_sums = np.zeros(groups, np.float32)
    opts = {"schedule": schedule, "max_live_workgroups": max_live_workgroups}
    ash.run(scan_blocks, workgroups=groups, inp=data, out=out, block_sums=block_sums, n=n,
            **opts)
    if log is not None:
        log.append(f"scan_blocks        x{groups:<4d} workgroups  ({n} elements)")
    if groups > 1:
        scanned = inclusive_scan(block_sums, log=log, **opts)   # scan of the block totals
        ash.run(add_block_offsets, workgroups=groups, out=out, scanned_sums=scanned, n=n,
                **opts)
        if log is not None:
            log.append(f"add_block_offsets  x{groups:<4d} workgroups")
    return out


def main() -> dict:
    """Scans one block, then a multi-block array; prints and returns inputs and outputs."""
    rng = np.random.default_rng(7)
    # Small integers as float32: every partial sum is exact, so the comparison can be exact.
    block = rng.integers(0, 10, WG).astype(np.float32)
    block_out = inclusive_scan(block)
    block_ok = bool(np.array_equal(block_out, np.cumsum(block)))
    print(f"One workgroup, Hillis–Steele scan of {WG} values ({WG.bit_length() - 1} steps):")
    print(f"  input : {block[:10].astype(int).tolist()} ...")
    print(f"  scan  : {block_out[:10].astype(int).tolist()} ...")
    print(f"  equal to np.cumsum: {'yes' if block_ok else 'NO'}")

    values = rng.integers(0, 10, 5000).astype(np.float32)
    log: list[str] = []
    multi_out = inclusive_scan(values, log=log)
    multi_ok = bool(np.array_equal(multi_out, np.cumsum(values)))
    print(f"Many workgroups: scan of {values.size} values in {len(log)} dispatches:")
    for line in log:
        print(f"  {line}")
    print(f"  last element: {multi_out[-1]:.0f} (numpy: {np.cumsum(values)[-1]:.0f})")
    print(f"  equal to np.cumsum: {'yes' if multi_ok else 'NO'}")
    return {"block_in": block, "block_out": block_out, "multi_in": values,
            "multi_out": multi_out, "dispatches": len(log), "ok": block_ok and multi_ok}


if __name__ == "__main__":
    main()
