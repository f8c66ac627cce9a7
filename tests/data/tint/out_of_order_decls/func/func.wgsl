@fragment
fn f1() {
  f2();
}

fn f2() {
}
