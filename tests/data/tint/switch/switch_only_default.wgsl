@compute @workgroup_size(1)
fn a() {
    var a = 0;
    switch(a) {
        default: {
            return;
        }
    }
}
