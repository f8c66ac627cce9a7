// Local memory written, then read by the neighbour after a global-memory barrier
// (twin: workgroup_memory_storage_barrier): CLK_GLOBAL_MEM_FENCE does not order local memory.
__kernel void workgroup_memory_storage_barrier(__global uint *out)
{
  __local uint slots[2];
  uint i = get_local_id(0);
  slots[i] = i + 1;                // line 7
  barrier(CLK_GLOBAL_MEM_FENCE);   // storage_barrier(): orders global memory only
  out[i] = slots[1 - i];           // line 9
}
