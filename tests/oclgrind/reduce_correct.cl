// The same tree reduction with its loop barrier (twin: reduce_correct): no race.
__kernel void reduce_correct(__global const float *inp, __global float *out)
{
  __local float partial[8];
  uint i = get_local_id(0);
  partial[i] = inp[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 4; s > 0; s /= 2) {
    if (i < s)
      partial[i] += partial[i + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i == 0)
    out[get_group_id(0)] = partial[0];
}
