//! Lowering loops: `for` over `Int` ranges (`a:b`, `a:s:b`, `eachindex`, `axes`, `1:length`)
//! with one frame for all iterations, and `while`; `break` and `continue` jump to exits patched
//! when the loop's end is known.

use super::{LoopExits, Lowered, Lowerer, Outside, Val};
use crate::compile::machine::{Counter, Op, Reg};
use crate::compile::Ty;
use crate::value::Value;
use difflab_syntax::{Block, Expr, ExprKind, Generator, Pattern};

impl Lowerer<'_, '_> {
    /// The `Int` value of an expression (range bounds).
    fn int(&mut self, e: &Expr) -> Lowered<Reg> {
        match self.expr(e, true)?.get()? {
            (reg, Ty::Int) => Ok(reg),
            _ => Err(Outside),
        }
    }

    /// `for i in a:b, j in c:s:d … end` over ranges of `Int`s.
    pub(super) fn for_loop(&mut self, generators: &[Generator], body: &Block) -> Lowered<Val> {
        self.scopes.push(Vec::new());
        self.loops.push(LoopExits::default());
        self.generator(generators, body)?;
        let exits = self.loops.pop().expect("pushed above");
        for b in exits.breaks {
            self.patch(b);
        }
        self.pop_scope();
        self.constant(&Value::Nothing)
    }

    fn generator(&mut self, generators: &[Generator], body: &Block) -> Lowered<()> {
        let Some((first, rest)) = generators.split_first() else {
            self.block(body, false)?;
            return Ok(());
        };
        let Pattern::Name(name) = &first.pattern else {
            return Err(Outside);
        };
        let (start, step, stop) = self.range(&first.iter)?;
        let (length, k) = (self.register(), self.register());
        self.emit(Op::RangeLength {
            dst: length,
            start,
            step,
            stop,
        })?;
        self.emit(Op::Const { dst: k, bits: 0 })?;
        let var = match self
            .scopes
            .last()
            .and_then(|f| f.iter().find(|(n, ..)| n == name))
        {
            Some(&(_, reg, Ty::Int)) => reg,
            Some(_) => return Err(Outside),
            None => self.create(*name, Ty::Int),
        };
        let counter = Counter {
            k,
            length,
            var,
            start,
            step,
        };
        let enter = self.emit(Op::ForEnter { counter, exit: 0 })?;
        let body_top = self.code.len();
        if rest.is_empty() {
            self.block(body, false)?;
            let exits = self.loops.last_mut().expect("inside a loop");
            for c in std::mem::take(&mut exits.continues) {
                self.patch(c);
            }
        } else {
            self.generator(rest, body)?;
        }
        self.emit(Op::ForNext {
            counter,
            body: body_top,
        })?;
        self.patch(enter);
        Ok(())
    }

    /// The start, step and stop of what a `for` loop walks: a range of `Int`s, or the indices
    /// of an array (`eachindex(x)`, `axes(x, d)`).
    fn range(&mut self, iter: &Expr) -> Lowered<(Reg, Reg, Reg)> {
        let one = |l: &mut Self| l.constant(&Value::Int(1)).map(|v| v.reg);
        match &iter.kind {
            ExprKind::Range { start, step, stop } => {
                let start = self.int(start)?;
                let step = match step {
                    Some(s) => self.int(s)?,
                    None => one(self)?,
                };
                Ok((start, step, self.int(stop)?))
            }
            ExprKind::Call {
                callee,
                args,
                kwargs,
                dotted: false,
            } if kwargs.is_empty() && args.iter().all(|a| !a.splat) => {
                let ExprKind::Ident(name) = callee.kind else {
                    return Err(Outside);
                };
                if !self.is_library(name)? {
                    return Err(Outside);
                }
                let (array, dim) = match (name.as_str(), args.as_slice()) {
                    ("eachindex", [x]) => match self.expr(&x.value, true)?.get()? {
                        (array, Ty::Array { .. }) => (array, 0),
                        _ => return Err(Outside),
                    },
                    ("axes", [x, d]) => {
                        let x = self.expr(&x.value, true)?.get()?;
                        self.array_and_dim(x, &d.value)?
                    }
                    _ => return Err(Outside),
                };
                let stop = self.size(array, dim)?.reg;
                Ok((one(self)?, one(self)?, stop))
            }
            _ => Err(Outside),
        }
    }

    pub(super) fn while_loop(&mut self, cond: &Expr, body: &Block) -> Lowered<Val> {
        self.scopes.push(Vec::new());
        self.loops.push(LoopExits::default());
        let top = self.code.len();
        let c = self.condition(cond)?;
        let exit = self.emit(Op::JumpUnless { cond: c, to: 0 })?;
        self.block(body, false)?;
        let exits = self.loops.pop().expect("pushed above");
        for c in exits.continues {
            self.patch(c);
        }
        self.emit(Op::Loop { to: top })?;
        self.patch(exit);
        for b in exits.breaks {
            self.patch(b);
        }
        self.pop_scope();
        self.constant(&Value::Nothing)
    }
}
