// workgroupUniformLoad as OpenCL: barrier, load, barrier (twin: uniform_load_broadcast).
// Work-item 3 writes the shared value, everyone loads it; work-item 0 then overwrites it,
// which the trailing barrier orders after the others' loads: no race.
__kernel void uniform_load_broadcast(__global uint *out)
{
  __local uint shared_value;
  uint i = get_local_id(0);
  if (i == 3)
    shared_value = 42;
  barrier(CLK_LOCAL_MEM_FENCE);  // workgroup_uniform_load(shared_value):
  uint v = shared_value;         //   barrier, load,
  barrier(CLK_LOCAL_MEM_FENCE);  //   barrier
  out[i] = v;
  if (i == 0)
    shared_value = 7;
}
