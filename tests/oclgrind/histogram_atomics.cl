// Histogram of data % 4: a per-work-group histogram in local memory built with atomics,
// merged into the global one with atomics (twin: histogram_atomics): no race.
__kernel void histogram_atomics(__global const uint *data, __global uint *hist)
{
  __local uint local_hist[4];
  uint i = get_local_id(0);
  if (i < 4)
    local_hist[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&local_hist[data[get_global_id(0)] % 4]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < 4)
    atomic_add(&hist[i], local_hist[i]);
}
