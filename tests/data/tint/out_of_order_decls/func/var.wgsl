@fragment
fn f() {
  let b = a;
}

var<private> a : i32 = 1;
