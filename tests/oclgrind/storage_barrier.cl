// The same with a global-memory barrier (twin: storage_barrier): no race.
__kernel void storage_barrier(__global uint *buf)
{
  uint i = get_local_id(0);
  buf[i] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);   // storage_barrier()
  uint v = buf[1 - i];
  buf[2 + i] = v;
}
