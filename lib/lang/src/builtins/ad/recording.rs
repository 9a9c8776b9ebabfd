//! Recordings: what a preparation runs instead of the interpreted function.
//!
//! Preparing records the function once when its backend allows it: a compiled tape for
//! `AutoReverseDiff(compile=true)` (replayed with guards on its comparisons), a traced program
//! for `AutoFastDifferentiation()`, and, for forward mode, reverse mode and second order over
//! them, the same traced program when the function computes mostly on scalars (there, the
//! interpreter's work per operation outweighs the arithmetic; whole-array code already runs
//! compiled kernels). Each call then runs the backend's own arithmetic on the recording: dual
//! lanes of its chunk size, reverse sweeps, forward over reverse, so the algorithm and its cost
//! growth stay the backend's and only interpretation goes.
//!
//! A recording holds what the function read at preparation (globals, builtins, captured
//! variables: [`crate::eval::reads`]). Before a call runs it, they are compared with their
//! values now; if one changed, the function is recorded again (or runs as written), so a
//! recording never gives a stale derivative. Forward and reverse mode never record a function
//! with effects (printing, assigning globals, changing a variable it reads): running the
//! recording would lose them. A compiled tape or a symbolic program, asked for by name, is
//! recorded anyway, and the effects happen once, at preparation, as in ReverseDiff and
//! FastDifferentiation.

use super::contexts::{as_context, Context};
use super::operators::{evaluate, Parsed};
use super::prep::{Compiled, Prep, StandIn};
use crate::builtins::arrays::deep_copy;
use crate::error::ErrorKind;
use crate::error::Flow;
use crate::eval::Interp;
use crate::value::Value;
use difflab_ad::compiled::CompiledTape;
use difflab_ad::symbolic::Program;
use difflab_ad::Tensor;
use std::rc::Rc;

/// Instructions per arithmetic kernel the function ran, on average, up to which forward and
/// reverse mode run a recording: beyond, the function works on whole arrays.
const SCALAR_CODE: usize = 16;

/// A symbolic tracing made at preparation, with what the function read meanwhile.
pub(super) struct Traced {
    /// The program, or why there is none.
    pub program: Result<Program, String>,
    reads: crate::eval::reads::ReadLog,
}

/// Traces the function symbolically: the program, or why there is none. The function runs
/// first on `x` itself (the program must reproduce that value); its errors there are the
/// user's, while an error under tracing (an operation that needs values) only means the
/// function cannot be traced — unless it is an interrupt. A symbolic backend traces without
/// values, as FastDifferentiation does, so a comparison of traced numbers is such an error;
/// the recordings of other backends trace with values and keep each comparison's outcome as
/// a guard of the program ([`stand_in`] checks them).
pub(super) fn trace(
    interp: &mut Interp,
    p: &Parsed,
    scalar_x: bool,
    x: &Tensor,
) -> Result<Traced, Flow> {
    let (program, reads) = interp.noting_reads(|interp| -> Result<_, Flow> {
        let y = evaluate(interp, p, scalar_x, x)?;
        let f = |t: &Tensor| evaluate(interp, p, scalar_x, t);
        let recorded = if p.backend.traces_symbolically() {
            Program::record(f, x, &y)
        } else {
            Program::record_with_branches(f, x, &y)
        };
        match recorded {
            Ok(traced) => Ok(traced.map_err(|why| why.to_string())),
            Err(Flow::Error(e)) if e.kind != ErrorKind::InterruptException => {
                Ok(Err(format!("tracing it raised {}", e.headline())))
            }
            Err(other) => Err(other),
        }
    });
    Ok(Traced {
        program: program?,
        reads,
    })
}

/// Makes the recording a preparation keeps: `None` when the backend never records (the
/// function is then run once, so a function that fails at `x` fails at preparation), else
/// the recording or why there is none. `traced` is the tracing a symbolic backend made
/// already.
pub(super) fn record(
    interp: &mut Interp,
    p: &Parsed,
    scalar_x: bool,
    x: &Tensor,
    traced: Option<Traced>,
) -> Result<Option<Result<Compiled, String>>, Flow> {
    let backend = &p.backend;
    let (stand_in, reads) = if backend.compiles_tape() {
        let (recorded, reads) = interp
            .noting_reads(|interp| CompiledTape::record(|t| evaluate(interp, p, scalar_x, t), x));
        let tape = recorded?
            .map(|tape| StandIn::Tape(Rc::new(tape)))
            .map_err(|why| why.to_string());
        if let Err(why) = &tape {
            warn(
                interp,
                &format!("{backend}: the tape is recorded at every call because {why}"),
            );
        }
        // Scalar code without effects (running it again is invisible) is traced too: as a
        // program with guards, the format of the other recordings, it replays without a
        // primitive call per number.
        let scalar = match (&tape, reads.effect()) {
            (Ok(_), None) => Some(trace(interp, p, scalar_x, x)?),
            _ => None,
        };
        match scalar.map(|t| (scalar_program(t.program, &t.reads), t.reads)) {
            Some((Ok(program), traced_reads)) => {
                (Ok(StandIn::Program(Rc::new(program))), traced_reads)
            }
            _ => (tape, reads),
        }
    } else if backend.traces_symbolically() || backend.runs_on_recording() {
        let Traced { program, reads } = match traced {
            Some(traced) => traced,
            None => trace(interp, p, scalar_x, x)?,
        };
        let program = if backend.traces_symbolically() {
            if let Err(why) = &program {
                warn(
                    interp,
                    &format!(
                        "{backend}: the function runs at every call (by forward mode) because {why}"
                    ),
                );
            }
            program
        } else {
            scalar_program(program, &reads)
        };
        (program.map(|p| StandIn::Program(Rc::new(p))), reads)
    } else {
        evaluate(interp, p, scalar_x, x)?;
        return Ok(None);
    };
    Ok(Some(stand_in.map(|tape| Compiled {
        tape,
        y_shape: p.y_shape(),
        constants: constants(p).iter().map(deep_copy).collect(),
        reads,
        branch_changes: 0,
    })))
}

/// A traced program that forward and reverse mode run instead of the function: one without
/// effects, of scalar code; otherwise why not.
fn scalar_program(
    program: Result<Program, String>,
    reads: &crate::eval::reads::ReadLog,
) -> Result<Program, String> {
    program.and_then(|program| match reads.effect() {
        Some(effect) => Err(effect.to_string()),
        None if !program.scalar_code(SCALAR_CODE) => {
            Err("it computes on whole arrays, which run as fast as a recording would".into())
        }
        None => Ok(program),
    })
}

/// How many times a preparation records a function again because an input took other
/// branches; after that, the function runs as written (its branches depend on the input too
/// often for a recording to pay).
const BRANCH_CHANGES: usize = 3;

/// What a call with preparation `prep` runs instead of the function, if anything: the
/// recording when the `Constant` contexts and everything the function read hold the values
/// they had when it was made, and `x` takes the branches it took. Otherwise the function is
/// recorded again at `x` (unless the preparation also holds a derivative program made from the
/// recording, which would be stale too, or branches changed [`BRANCH_CHANGES`] times already:
/// then the function runs as written).
pub(super) fn stand_in(
    interp: &mut Interp,
    prep: &Prep,
    p: &Parsed,
    scalar_x: bool,
    x: &Tensor,
) -> Result<Option<StandIn>, Flow> {
    let branch_changes = {
        let compiled = prep.compiled.borrow();
        let Some(Ok(recorded)) = &*compiled else {
            return Ok(None);
        };
        if !recorded.same_constants(&constants(p)) {
            return Ok(None);
        }
        // An output array of another size than at recording: recorded again below.
        let current = recorded.y_shape == p.y_shape() && interp.reads_unchanged(&recorded.reads);
        // A guard that cannot be computed at `x` is the function's error there: recording
        // again raises it from the function, with its span (a compiled tape's replay raises
        // it at once, as a tape would).
        let holds = |tape: &StandIn| match tape.branches_hold(x) {
            Err(e) if p.backend.compiles_tape() => Err(Flow::from(e)),
            held => Ok(held.unwrap_or(false)),
        };
        match current.then(|| holds(&recorded.tape)).transpose()? {
            Some(true) => return Ok(Some(recorded.tape.clone())),
            Some(false) => recorded.branch_changes + 1,
            None => recorded.branch_changes,
        }
    };
    let derived = prep
        .plan
        .as_ref()
        .is_some_and(|plan| plan.has_nonzeros_program());
    if branch_changes > 0 && p.backend.compiles_tape() {
        // As a compiled tape's replay does.
        return Err(difflab_ad::compiled::branch_changed().into());
    }
    if branch_changes > BRANCH_CHANGES {
        *prep.compiled.borrow_mut() = Some(Err(format!(
            "the branches it takes changed at {BRANCH_CHANGES} inputs already"
        )));
        return Ok(None);
    }
    if derived || !x.is_plain() {
        return Ok(None);
    }
    let mut again = record(interp, p, scalar_x, x, None)?;
    let tape = match &mut again {
        Some(Ok(recorded)) => {
            recorded.branch_changes = branch_changes;
            Some(recorded.tape.clone())
        }
        _ => None,
    };
    *prep.compiled.borrow_mut() = again;
    Ok(tape)
}

/// The values of the `Constant` contexts of a call.
fn constants(p: &Parsed) -> Vec<Value> {
    p.contexts
        .iter()
        .filter_map(as_context)
        .filter_map(|c| match c {
            Context::Constant(v) | Context::ConstantOrCache(v) => Some(v.clone()),
            Context::Cache(_) => None,
        })
        .collect()
}

fn warn(interp: &mut Interp, message: &str) {
    interp.warn("DifferentiationInterface", message);
}
