//! The arrays a compiled run reads and writes in place.
//!
//! A method compiled for array arguments gets each array's place in a table of the run
//! ([`Arrays`]: one place per distinct array, so an array passed twice is one place). Before
//! the run, arrays are borrowed from their values: read-only for methods that only read
//! them, mutably (their numbers made unique first, as any write does) for methods that write.
//! Every write is noted in an undo log with the number it replaced: a run that traps (an
//! error, the depth limit) puts them back before the evaluator runs the call again as
//! written, so the evaluator starts from the arrays as they were and compiled code stays
//! free of effects that a second run would repeat.

use super::Ty;
use crate::show::ElType;
use crate::value::{Array, Structure, Value};
use difflab_ad::Tensor;
use std::cell::{Ref, RefCell, RefMut};
use std::rc::Rc;

use super::machine::Trap;

/// The most dimensions of an array compiled code reads.
pub const MAX_DIMS: usize = 3;

/// A write a run made: the array's place, the position and the number it replaced.
pub type Undo = (usize, usize, f64);

/// The distinct arrays passed to a compiled call.
#[derive(Default)]
pub struct Arrays {
    values: Vec<Rc<RefCell<Array>>>,
}

impl Arrays {
    /// The register bits (its place) and type of array `v`; `None` for values compiled code
    /// does not take ([`array_type`]).
    pub fn add(&mut self, v: &Value) -> Option<(u64, Ty)> {
        let ty = array_type(v)?;
        let Value::Array(rc) = v else { return None };
        let place = match self.values.iter().position(|b| Rc::ptr_eq(b, rc)) {
            Some(place) => place,
            None => {
                self.values.push(rc.clone());
                self.values.len() - 1
            }
        };
        Some((place as u64, ty))
    }

    /// The array at `place`, as a value (what a method returning one of its arrays gives).
    pub fn value(&self, place: u64) -> Option<Value> {
        let array = self.values.get(usize::try_from(place).ok()?)?;
        Some(Value::Array(array.clone()))
    }

    /// The arrays borrowed for a run: mutably when the method `writes`.
    pub fn borrow(&self, writes: bool) -> Option<Vec<Borrowed<'_>>> {
        self.values
            .iter()
            .map(|a| {
                Some(if writes {
                    Borrowed::Write(a.try_borrow_mut().ok()?)
                } else {
                    Borrowed::Read(a.try_borrow().ok()?)
                })
            })
            .collect()
    }
}

/// The type compiled code gives array `v`; `None` for values it does not take (numbers
/// carrying derivatives, adjoints, views and their parents, structured or non-contiguous
/// arrays, more than [`MAX_DIMS`] dimensions).
pub fn array_type(v: &Value) -> Option<Ty> {
    let Value::Array(rc) = v else { return None };
    let a = rc.try_borrow().ok()?;
    let Tensor::Plain(numbers) = &a.data else {
        return None;
    };
    let dims = numbers.ndim();
    if a.row_adjoint
        || a.links.is_some()
        || !matches!(a.structure, Structure::Dense)
        || !(1..=MAX_DIMS).contains(&dims)
        || !numbers.t().is_standard_layout()
    {
        return None;
    }
    Some(Ty::Array {
        el: a.eltype,
        dims: dims as u8,
    })
}

/// An array borrowed for a run.
pub enum Borrowed<'a> {
    Read(Ref<'a, Array>),
    Write(RefMut<'a, Array>),
}

impl Borrowed<'_> {
    /// The array as compiled code reads (and, borrowed mutably, writes) it.
    pub fn view(&mut self) -> Option<ArrayArg<'_>> {
        let array: &Array = match &*self {
            Borrowed::Read(a) => a,
            Borrowed::Write(a) => a,
        };
        let (el, shape) = (array.eltype, array.data.shape());
        let dims = shape.len();
        let mut size = [1; MAX_DIMS];
        for (s, &n) in size.iter_mut().zip(shape) {
            *s = n as u64;
        }
        let numbers = match self {
            Borrowed::Read(a) => match &a.data {
                Tensor::Plain(n) => Numbers::Read(n.as_slice_memory_order()?),
                _ => return None,
            },
            Borrowed::Write(a) => match &mut a.data {
                Tensor::Plain(n) => Numbers::Write(Rc::make_mut(n).as_slice_memory_order_mut()?),
                _ => return None,
            },
        };
        let (data, len) = match &numbers {
            Numbers::Read(n) => (n.as_ptr(), n.len()),
            Numbers::Write(n) => (n.as_ptr(), n.len()),
        };
        Some(ArrayArg {
            data,
            len: len as u64,
            size,
            numbers,
            el,
            dims,
            written: Vec::new(),
        })
    }
}

/// An array's numbers during a run.
enum Numbers<'a> {
    Read(&'a [f64]),
    Write(&'a mut [f64]),
}

/// An array argument of a compiled run: its numbers in column-major order, read in place,
/// and its size. Machine code reads the first fields itself (hence the fixed layout).
#[repr(C)]
pub struct ArrayArg<'a> {
    /// Where the numbers start, and how many there are.
    pub(super) data: *const f64,
    pub(super) len: u64,
    /// The size of each dimension (1 past the array's own).
    pub(super) size: [u64; MAX_DIMS],
    numbers: Numbers<'a>,
    el: ElType,
    dims: usize,
    /// One bit per position written during the run (made at the first write): only the
    /// first write of a position is noted in the undo log, which so stays within the array's
    /// size however often a loop writes.
    written: Vec<u64>,
}

impl ArrayArg<'_> {
    /// The column-major position of the 1-based indices `at` (one linear index, or one per
    /// dimension), within bounds.
    fn position(&self, at: &[u64]) -> Result<usize, Trap> {
        let k = match at {
            [k] => k.wrapping_sub(1),
            _ if at.len() == self.dims => {
                let mut offset = 0;
                let mut stride = 1;
                for (&i, &n) in at.iter().zip(&self.size) {
                    let i = i.wrapping_sub(1);
                    if i >= n {
                        return Err(Trap::Fallback);
                    }
                    offset += i * stride;
                    stride *= n;
                }
                offset
            }
            _ => return Err(Trap::Fallback),
        };
        if k >= self.len {
            return Err(Trap::Fallback);
        }
        Ok(k as usize)
    }

    /// The bits of the element at the 1-based indices `at`.
    pub fn load(&self, at: &[u64]) -> Result<u64, Trap> {
        let k = self.position(at)?;
        let x = match &self.numbers {
            Numbers::Read(n) => n[k],
            Numbers::Write(n) => n[k],
        };
        Ok(match self.el {
            ElType::Float64 => x.to_bits(),
            ElType::Int64 => x as i64 as u64,
            ElType::Bool => u64::from(x != 0.0),
        })
    }

    /// Writes the register bits `bits` at the 1-based indices `at`, noting the number it
    /// replaces in `undo` as the write of place `place`; a fallback when the array was not
    /// borrowed for writing.
    pub fn store(
        &mut self,
        place: usize,
        at: &[u64],
        bits: u64,
        undo: &mut Vec<Undo>,
    ) -> Result<(), Trap> {
        let k = self.position(at)?;
        let x = match self.el {
            ElType::Float64 => f64::from_bits(bits),
            ElType::Int64 => bits as i64 as f64,
            ElType::Bool => f64::from(u8::from(bits != 0)),
        };
        let Numbers::Write(numbers) = &mut self.numbers else {
            return Err(Trap::Fallback);
        };
        let old = std::mem::replace(&mut numbers[k], x);
        if self.written.is_empty() {
            let words = numbers.len().div_ceil(64);
            reserve(words * 8)?;
            self.written = vec![0; words];
        }
        let (word, bit) = (k / 64, 1 << (k % 64));
        if self.written[word] & bit == 0 {
            self.written[word] |= bit;
            if undo.len() == undo.capacity() {
                reserve((2 * undo.capacity()).max(64) * std::mem::size_of::<Undo>())?;
                undo.reserve(undo.capacity().max(64));
            }
            undo.push((place, k, old));
        }
        Ok(())
    }

    /// `size(array, dim)` (1-based; trailing dimensions are 1), or `length` for `dim` 0.
    pub fn size(&self, dim: u8) -> u64 {
        match dim {
            0 => self.len,
            d => self.size.get(usize::from(d) - 1).copied().unwrap_or(1),
        }
    }
}

/// Room for the undo log: beyond the memory limit, the call runs in the evaluator instead,
/// which writes without one.
fn reserve(bytes: usize) -> Result<(), Trap> {
    difflab_ad::limits::reserve(bytes as u64, "the undo log of a compiled call")
        .map_err(|_| Trap::Fallback)
}

/// Puts back what a run that trapped wrote, latest first.
pub fn undo(arrays: &mut [ArrayArg<'_>], undo: &mut Vec<Undo>) {
    while let Some((place, k, old)) = undo.pop() {
        if let Some(Numbers::Write(numbers)) = arrays.get_mut(place).map(|a| &mut a.numbers) {
            numbers[k] = old;
        }
    }
}
