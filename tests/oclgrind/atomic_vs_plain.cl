// One work-item reads a counter with a plain load while the others bump it with atomics
// (twin: atomic_vs_plain): an atomic and a plain access race.
__kernel void atomic_vs_plain(__global uint *counter, __global uint *out)
{
  uint i = get_local_id(0);
  if (i == 0)
    out[0] = counter[0];         // line 7: plain load
  else
    atomic_inc(&counter[0]);     // line 9: atomic
}
