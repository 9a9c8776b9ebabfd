//! Reverse-mode primitives on top of the tape in [`crate::reverse`].

use crate::error::AdError;
use crate::reverse::Tape;
use crate::tensor::{Tag, Tensor};

/// `f(x)` and `Jᵀ·c` for each cotangent, from one recording and one backward sweep per
/// cotangent.
pub fn pullback<E, F>(
    f: &mut F,
    x: &Tensor,
    cotangents: &[Tensor],
) -> Result<(Tensor, Vec<Tensor>), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let tape = Tape::new(Tag::fresh());
    let input = tape.input(x.clone());
    let y = f(&input)?;
    let mut out = Vec::with_capacity(cotangents.len());
    for c in cotangents {
        let mut grads = tape.gradient(&y, c)?;
        out.push(grads.swap_remove(0));
    }
    Ok((tape.value_of(&y), out))
}
