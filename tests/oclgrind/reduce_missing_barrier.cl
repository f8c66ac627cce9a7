// Tree reduction of 8 values whose loop lost its barrier (twin: reduce_missing_barrier).
__kernel void reduce_missing_barrier(__global const float *inp, __global float *out)
{
  __local float partial[8];
  uint i = get_local_id(0);
  partial[i] = inp[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 4; s > 0; s /= 2) {
    if (i < s)
      partial[i] += partial[i + s];  // line 10: reads a neighbour's slot, writes its own
    // the barrier that belongs here is missing
  }
  if (i == 0)
    out[get_group_id(0)] = partial[0];
}
