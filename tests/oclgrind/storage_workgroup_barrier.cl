// Global memory written, then read by the neighbour after a local-memory barrier
// (twin: storage_workgroup_barrier): CLK_LOCAL_MEM_FENCE does not order global memory.
__kernel void storage_workgroup_barrier(__global uint *buf)
{
  uint i = get_local_id(0);
  buf[i] = 1;                      // line 6
  barrier(CLK_LOCAL_MEM_FENCE);    // workgroup_barrier(): orders local memory only
  uint v = buf[1 - i];             // line 8
  buf[2 + i] = v;
}
