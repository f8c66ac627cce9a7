// Every work-item writes 1 to the same flag (twin: same_value_writes): a write-write race
// in which all writes store the same value. Oclgrind reports it only with --uniform-writes.
__kernel void same_value_writes(__global uint *flag)
{
  flag[0] = 1;  // line 5
}
