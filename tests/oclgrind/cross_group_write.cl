// Every work-group writes slot 0 (twin: cross_group_write): a write-write race
// between work-groups, which no barrier can order.
__kernel void cross_group_write(__global uint *out)
{
  if (get_local_id(0) == 0)
    out[0] = get_group_id(0);  // line 6: every work-group writes slot 0
}
