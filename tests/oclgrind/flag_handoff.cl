// Work-group 0 writes a payload then raises a flag with an atomic; work-group 1 reads the
// payload when it sees the flag (twin: flag_handoff). Atomics order nothing between
// work-groups (relaxed), so the payload accesses race.
__kernel void flag_handoff(__global uint *data, volatile __global uint *flag,
                           __global uint *out)
{
  if (get_group_id(0) == 0) {
    data[0] = 7;  // line 8: producer writes the payload
    atomic_xchg(&flag[0], 1);
  } else {
    if (atomic_or(&flag[0], 0) == 1)
      out[0] = data[0];  // line 12: consumer reads it
  }
}
