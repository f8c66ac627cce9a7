@fragment
fn f() {
  var b : T;
}

alias T = i32;
