alias T = S;

struct S {
  m : i32,
}

@fragment
fn f() {
  var v : T;
}
