//! Lowering reads and writes of local arrays: indices (with `end`), loads, stores with the
//! evaluator's conversions for the element type, `size`/`length`, and the library's own
//! `size(x, d)`/`axes(x, d)` recognised by name.

use super::{Lowered, Lowerer, Outside, Val};
use crate::compile::arrays::MAX_DIMS;
use crate::compile::machine::{Op, Reg};
use crate::compile::Ty;
use crate::show::ElType;
use difflab_syntax::{BinOp, Expr, ExprKind, Name};

impl Lowerer<'_, '_> {
    /// A local array and its `Int` indices: one (linear) or one per dimension; with the
    /// type of its elements.
    fn indexed(&mut self, target: &Expr, indices: &[Expr]) -> Lowered<(Reg, Box<[Reg]>, ElType)> {
        let (array, ty) = self.expr(target, true)?.get()?;
        let Ty::Array { el, dims } = ty else {
            return Err(Outside);
        };
        if indices.len() != 1 && indices.len() != usize::from(dims) {
            return Err(Outside);
        }
        let mut at = Vec::with_capacity(indices.len());
        for (k, index) in indices.iter().enumerate() {
            let dim = if indices.len() == 1 { 0 } else { k as u8 + 1 };
            self.ends.push((array, dim));
            let lowered = self.expr(index, true);
            self.ends.pop();
            match lowered?.get()? {
                (reg, Ty::Int) => at.push(reg),
                _ => return Err(Outside),
            }
        }
        Ok((array, at.into(), el))
    }

    /// `array[at...]`.
    fn load(&mut self, array: Reg, at: Box<[Reg]>, el: ElType) -> Lowered<Val> {
        let dst = self.register();
        self.emit(Op::Load { dst, array, at, el })?;
        self.temporary = Some(dst);
        Ok(Val {
            reg: dst,
            ty: Some(match el {
                ElType::Float64 => Ty::Float,
                ElType::Int64 => Ty::Int,
                ElType::Bool => Ty::Bool,
            }),
        })
    }

    /// `array[at...]` of a local array.
    pub(super) fn index(&mut self, target: &Expr, indices: &[Expr]) -> Lowered<Val> {
        let (array, at, el) = self.indexed(target, indices)?;
        self.load(array, at, el)
    }

    /// `array[at...] = value` (or `op=`): the value, converted as the evaluator converts it
    /// for the array's element type (an `Int` or a `Bool` into a `Float64` array, a `Bool`
    /// into an `Int64` one; others stay interpreted).
    pub(super) fn store(
        &mut self,
        target: &Expr,
        indices: &[Expr],
        op: Option<BinOp>,
        value: &Expr,
    ) -> Lowered<Val> {
        let (array, at, el) = self.indexed(target, indices)?;
        let v = self.expr(value, true)?.get()?;
        let v = match op {
            Some(op) => {
                let old = self.load(array, at.clone(), el)?.get()?;
                self.binary(op, old, v)?.get()?
            }
            None => v,
        };
        let src = match (el, v.1) {
            (ElType::Float64, _) => self.float(v)?,
            (ElType::Int64, Ty::Int | Ty::Bool) | (ElType::Bool, Ty::Bool) => v.0,
            _ => return Err(Outside),
        };
        self.emit(Op::Store { array, at, src })?;
        self.writes = true;
        Ok(Val {
            reg: v.0,
            ty: Some(v.1),
        })
    }

    /// `size(array, dim)`, or `length(array)` for `dim` 0.
    pub(super) fn size(&mut self, array: Reg, dim: u8) -> Lowered<Val> {
        let dst = self.register();
        self.emit(Op::Size { dst, array, dim })?;
        self.temporary = Some(dst);
        Ok(Val {
            reg: dst,
            ty: Some(Ty::Int),
        })
    }

    /// The array in `e` and a constant dimension `d` (1 to [`MAX_DIMS`]), for `size(x, d)`
    /// and `axes(x, d)`.
    pub(super) fn array_and_dim(&mut self, x: (Reg, Ty), d: &Expr) -> Lowered<(Reg, u8)> {
        match (x.1, &d.kind) {
            (Ty::Array { .. }, ExprKind::Int(d)) if (1..=MAX_DIMS as i64).contains(d) => {
                Ok((x.0, *d as u8))
            }
            _ => Err(Outside),
        }
    }

    /// Whether `name` is the library's function (not a local, a global or an extension).
    pub(super) fn is_library(&mut self, name: Name) -> Lowered<bool> {
        self.outer(name)?;
        let interp = self.compilation.interp;
        let library = self.local(name)?.is_none()
            && interp.global(name).is_none()
            && !interp.extensions.contains_key(&name)
            && crate::builtins::lookup(name).is_some();
        if library {
            interp.note_builtin_use(name);
        }
        Ok(library)
    }
}
