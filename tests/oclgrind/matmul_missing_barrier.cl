// 2x2-tiled matrix multiply (C = A * B, A 2x4, B 4x2) missing the barrier after the use of a
// tile (twin: matmul_missing_barrier): the next tile's load overwrites tile_a while a
// neighbour still reads it.
__kernel void matmul_missing_barrier(__global const float *a, __global const float *b,
                                     __global float *c)
{
  __local float tile_a[4];
  uint x = get_local_id(0), y = get_local_id(1);
  float acc = 0.0f;
  for (uint t = 0; t < 2; t++) {
    tile_a[y * 2 + x] = a[y * 4 + t * 2 + x];  // line 11: load this tile
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 2; k++)
      acc += tile_a[y * 2 + k] * b[(t * 2 + k) * 2 + x];  // line 14: use it
    // missing: barrier(CLK_LOCAL_MEM_FENCE) before the next tile overwrites tile_a
  }
  c[y * 2 + x] = acc;
}
