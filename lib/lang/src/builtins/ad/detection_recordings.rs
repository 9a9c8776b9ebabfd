//! Global Jacobian sparsity detection on recordings of the function.
//!
//! `jacobian_sparsity(f, x, TracerSparsityDetector())` runs `f` on index-set tracers. In Julia
//! the second detection of the same function runs the method compiled at the first; here it
//! would interpret `f` again, which for scalar code (loops over elements) costs far more than
//! the index-set unions themselves. So the second detection of a function at inputs of the
//! same shapes records it once as a symbolic [`Program`] (the flat instructions of
//! `AutoFastDifferentiation()`), and every detection from then on propagates index sets through
//! its instructions with the global tracers' rules ([`Program::jacobian_entries`]): the same
//! algorithm and pattern, without the interpreter.
//!
//! A recording is kept only when the function computes on scalars and has no effects (printing,
//! assigning globals, drawing random numbers), and it is used only while everything the
//! function read (globals, helpers, captured variables: [`crate::eval::reads`]) holds the value
//! it had and no definition changed what its calls resolve to; otherwise the function runs on
//! tracers as written. Functions a tracing cannot record (a comparison of traced numbers, an
//! error at the input) keep running on tracers.

use super::sparse_ad::tensor_function;
use crate::error::ErrorKind;
use crate::error::Flow;
use crate::eval::reads::ReadLog;
use crate::eval::Interp;
use crate::value::Value;
use difflab_ad::symbolic::Program;
use difflab_ad::Tensor;
use difflab_coloring::SparsityPattern;
use std::rc::Rc;

/// Instructions per arithmetic kernel the function ran, on average, up to which it counts as
/// scalar code (as for the recordings of preparations).
const SCALAR_CODE: usize = 16;

/// The most detections remembered, and the most instructions their recordings hold together.
const MAX_ENTRIES: usize = 8;
const MAX_INSTRUCTIONS: usize = 1 << 21;

/// What is known of detections of one function at inputs of given shapes.
enum Known {
    /// Detected once on tracers.
    Seen,
    /// Recorded, with what the function read meanwhile.
    Recorded(Rc<Program>, ReadLog),
    /// A recording was tried and cannot stand in for the function.
    Unrecordable,
}

struct Detection {
    function: Value,
    y_shape: Option<Vec<usize>>,
    x_shape: Vec<usize>,
    scalar_x: bool,
    /// The compile tier's generation when this was noted: definitions made since may change
    /// what the function's calls resolve to.
    generation: u64,
    known: Known,
}

/// The detections of a session, most recent first.
#[derive(Default)]
pub struct Detections {
    entries: Vec<Detection>,
    /// How many detections ran on a recording ([`Detections::replays`]).
    replays: usize,
}

impl Detections {
    /// How many detections of this session ran on a recording instead of on tracers.
    pub fn replays(&self) -> usize {
        self.replays
    }

    fn instructions(&self) -> usize {
        self.entries
            .iter()
            .map(|d| match &d.known {
                Known::Recorded(p, _) => p.len(),
                _ => 0,
            })
            .sum()
    }
}

/// The global Jacobian pattern of `f` (or `f!` writing into a buffer shaped like `y`) at `x`, on
/// its recording when one stands in for it; `None` when the tracers must run it.
pub(super) fn recorded_pattern(
    interp: &mut Interp,
    f: &Value,
    y: Option<&Value>,
    y_shape: Option<Vec<usize>>,
    x: &Tensor,
    scalar_x: bool,
) -> Result<Option<SparsityPattern>, Flow> {
    let generation = interp.compiled.generation();
    let position = interp.detections.entries.iter().position(|d| {
        same_function(&d.function, f)
            && d.y_shape == y_shape
            && d.x_shape == x.shape()
            && d.scalar_x == scalar_x
            && d.generation == generation
    });
    let Some(position) = position else {
        note(
            interp,
            Detection {
                function: f.clone(),
                y_shape,
                x_shape: x.shape().to_vec(),
                scalar_x,
                generation,
                known: Known::Seen,
            },
        );
        return Ok(None);
    };
    let mut detection = interp.detections.entries.remove(position);
    let program = match &detection.known {
        Known::Recorded(program, reads) if interp.reads_unchanged(reads) => Some(program.clone()),
        Known::Unrecordable => None,
        Known::Seen | Known::Recorded(..) => {
            detection.known = record(interp, f, y, x, scalar_x)?;
            match &detection.known {
                Known::Recorded(program, _) => Some(program.clone()),
                _ => None,
            }
        }
    };
    note(interp, detection);
    let Some(program) = program else {
        return Ok(None);
    };
    interp.detections.replays += 1;
    let m = program.output_shape().iter().product();
    SparsityPattern::from_entries(m, x.len(), &program.jacobian_entries())
        .map(Some)
        .map_err(|e| crate::error::fail(ErrorKind::ArgumentError, e.to_string()))
}

/// Keeps `detection` as the most recent, within the bounds.
fn note(interp: &mut Interp, detection: Detection) {
    let detections = &mut interp.detections;
    detections.entries.insert(0, detection);
    detections.entries.truncate(MAX_ENTRIES);
    while detections.instructions() > MAX_INSTRUCTIONS {
        let Some(oldest) = detections
            .entries
            .iter()
            .rposition(|d| matches!(d.known, Known::Recorded(..)))
        else {
            break;
        };
        // Forgotten, not refused: a later detection may record it again.
        detections.entries[oldest].known = Known::Seen;
    }
}

/// Records `f` at `x`: the recording, or why it cannot stand in for the function. Errors of
/// the function are not the detection's (the tracers need no values): they only mean there is
/// no recording, unless they are interrupts or the memory limit.
fn record(
    interp: &mut Interp,
    f: &Value,
    y: Option<&Value>,
    x: &Tensor,
    scalar_x: bool,
) -> Result<Known, Flow> {
    let (traced, reads) = interp.noting_reads(|interp| {
        let mut func = tensor_function(interp, f, y, scalar_x);
        let value = func(x)?;
        Program::record(func, x, &value)
    });
    let program = match traced {
        Ok(Ok(program)) => program,
        Ok(Err(_)) => return Ok(Known::Unrecordable),
        Err(Flow::Error(e))
            if !matches!(
                e.kind,
                ErrorKind::InterruptException | ErrorKind::OutOfMemoryError
            ) =>
        {
            return Ok(Known::Unrecordable)
        }
        Err(other) => return Err(other),
    };
    if reads.effect().is_some()
        || !program.scalar_code(SCALAR_CODE)
        || program.len() > MAX_INSTRUCTIONS
    {
        return Ok(Known::Unrecordable);
    }
    Ok(Known::Recorded(Rc::new(program), reads))
}

/// The same function: the same method table or builtin (other callables by identity too).
fn same_function(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Function(a), Value::Function(b)) => Rc::ptr_eq(a, b),
        _ => crate::value::equality::identical(a, b),
    }
}
