// Every work-item bumps one counter with an atomic (twin: atomic_counter): no race.
__kernel void atomic_counter(__global uint *counter)
{
  atomic_inc(&counter[0]);
}
