@fragment
fn f() {
  const b = a;
}

const a : i32 = 1;
