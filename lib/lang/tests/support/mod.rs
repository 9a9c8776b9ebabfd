//! What the evaluator's integration tests share: an interpreter that has run a program, and
//! calls of the functions it defined.

// Each test crate includes this module and uses part of it.
#![allow(dead_code)]

use difflab_lang::{Capture, Config, Interp, Source, Value};
use difflab_syntax::Name;
use std::rc::Rc;

/// A fresh interpreter after running `program` (which must run).
pub fn interp_running(program: &str) -> Interp {
    let mut interp = Interp::new(Config::default(), Box::new(Capture::default()));
    let parsed = difflab_syntax::parse(program).expect("the program parses");
    let source = Rc::new(Source {
        name: "test".into(),
        text: program.into(),
    });
    interp.run(&parsed, source).expect("the program runs");
    interp
}

/// The global function `name` called with `arg` (which must succeed).
pub fn call(interp: &mut Interp, name: &str, arg: Value) -> Value {
    let f = interp.global(Name::new(name)).expect("defined").clone();
    interp
        .call(&f, vec![arg])
        .unwrap_or_else(|_| panic!("calling {name} failed"))
}

/// Runs `program` in `interp` as one more input: its value, or its error.
pub fn run_input(interp: &mut Interp, program: &str) -> Result<Value, difflab_lang::LangError> {
    let parsed = difflab_syntax::parse(program).expect("the program parses");
    let source = Rc::new(Source {
        name: "test".into(),
        text: program.into(),
    });
    interp.run(&parsed, source)
}
