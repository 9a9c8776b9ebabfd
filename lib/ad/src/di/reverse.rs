//! The reverse-mode primitive: one recording of the function on a tape, then one backward sweep
//! per cotangent.

use crate::error::AdError;
use crate::reverse::{value_below, Tape};
use crate::tensor::Tensor;

/// `f(x)` and `Jᵀ·c` for each cotangent `c`.
pub fn pullback<E, F>(
    f: &mut F,
    x: &Tensor,
    cotangents: &[Tensor],
) -> Result<(Tensor, Vec<Tensor>), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let tape = Tape::new();
    // However the pullback ends, its tape is finished afterwards.
    struct Finish<'a>(&'a Tape);
    impl Drop for Finish<'_> {
        fn drop(&mut self) {
            self.0.finish();
        }
    }
    let _finish = Finish(&tape);
    let input = tape.input(x.clone());
    let Tensor::Tracked(leaf) = &input else {
        unreachable!("tape inputs are tracked")
    };
    let node = leaf.node;
    let y = f(&input)?;
    let mut out = Vec::with_capacity(cotangents.len());
    for c in cotangents {
        crate::limits::check()?;
        let c = if c.shape() == y.shape() {
            c.clone()
        } else {
            crate::ops::reshape(c, y.shape())?
        };
        let mut grads = tape.gradient(&y, &c, &[(node, x.shape().to_vec())])?;
        out.push(grads.swap_remove(0));
    }
    Ok((value_below(&y, tape.tag()).clone(), out))
}
