// flags:  --hlsl-shader-model 6.2
enable f16;
@compute @workgroup_size(1)
fn f() {
    let a = 4.h;
    let b = vec3<f16>(1.h, 2.h, 3.h);
    let r : vec3<f16> = a - b;
}
