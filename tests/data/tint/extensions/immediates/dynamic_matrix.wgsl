var<immediate> pc : mat2x2f;
@group(0) @binding(0) var<storage, read_write> out : vec2f;
@group(0) @binding(1) var<uniform> idx : u32;

@compute @workgroup_size(1)
fn main() {
  out = pc[idx];
}

