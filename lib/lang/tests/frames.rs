//! Frames of exited calls are freed, even when a function defined inside them captured them.
//!
//! `lap(w) = …` inside a function body is stored in the frame it closes over, a reference
//! cycle; every call used to keep its locals (and their arrays) alive forever.

mod support;

use difflab_lang::{Interp, Value};
use difflab_syntax::Name;
use std::rc::Rc;
use support::call;

const PROGRAM: &str = "
function inner_closure(z)
    u = z
    h(w) = w .+ u[1]
    h(u)
end
function loop_closures(z)
    s = 0.0
    for i in 1:3
        q(w) = w + i + z[1]
        s += q(1.0)
    end
    s
end
function returns_closure(z)
    u = z
    k(w) = w + u[1]
    k
end
x = [1.0, 2.0]
";

fn interp_with_program() -> Interp {
    support::interp_running(PROGRAM)
}

fn global_array(interp: &Interp) -> Rc<std::cell::RefCell<difflab_lang::value::Array>> {
    match interp.global(Name::new("x")) {
        Some(Value::Array(a)) => a.clone(),
        _ => panic!("x is an array"),
    }
}

#[test]
fn a_call_whose_local_function_captured_its_frame_frees_its_locals() {
    let mut interp = interp_with_program();
    let x = global_array(&interp);
    let before = Rc::strong_count(&x);
    for name in ["inner_closure", "loop_closures"] {
        call(&mut interp, name, Value::Array(x.clone()));
        assert_eq!(
            Rc::strong_count(&x),
            before,
            "{name} kept its argument alive"
        );
    }
}

#[test]
fn a_closure_that_escapes_keeps_its_frame() {
    let mut interp = interp_with_program();
    let x = global_array(&interp);
    let k = call(&mut interp, "returns_closure", Value::Array(x.clone()));
    drop(x);
    match interp.call(&k, vec![Value::Float(10.0)]) {
        Ok(Value::Float(v)) => assert_eq!(v, 11.0),
        _ => panic!("the returned closure still sees its frame"),
    }
}
