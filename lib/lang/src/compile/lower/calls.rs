//! Calls in a method being lowered: of user methods, chosen by dispatch on the inferred
//! argument types and compiled for them, and of the library functions the tier knows (the
//! math functions of one number, `max`, `min`, `float`, and `length`/`size` of arrays).

use super::{result_type1, result_type2, Lowered, Lowerer, Outside, Val};
use crate::compile::machine::{Fn1, Fn2, Op, Reg};
use crate::compile::Ty;
use crate::eval::dispatch::{all_methods, select};
use crate::value::Value;
use difflab_ad::ops::BinaryFn;
use difflab_syntax::{Arg, Name};

impl Lowerer<'_, '_> {
    pub(super) fn call(&mut self, name: Name, args: &[Arg]) -> Lowered<Val> {
        if let Some(function) = self.local_function(name)? {
            return self.call_local_function(function, args);
        }
        if args.iter().any(|a| a.splat) || self.local(name)?.is_some() {
            return Err(Outside);
        }
        self.outer(name)?;
        if let ("size", [x, d]) = (name.as_str(), args) {
            if self.is_library(name)? {
                let x = self.expr(&x.value, true)?.get()?;
                let (array, dim) = self.array_and_dim(x, &d.value)?;
                return self.size(array, dim);
            }
        }
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.expr(&a.value, true)?.get()?);
        }
        let interp = self.compilation.interp;
        let callee = match interp.global(name) {
            Some(Value::Function(f)) => f.clone(),
            Some(_) => return Err(Outside),
            None => return self.call_builtin(name, &values),
        };
        let samples: Vec<Value> = values.iter().map(|(_, t)| t.sample()).collect();
        let method = select(all_methods(&callee), &samples)
            .map_err(|_| Outside)?
            .clone();
        // A closure (a global function defined in a loop or `let`) is right only with the
        // checks and captured numbers of a call from the evaluator (`Interp::run_compiled`).
        if method.scope.is_some() {
            return Err(Outside);
        }
        let types: Vec<Ty> = values.iter().map(|(_, t)| *t).collect();
        let (func, returns) = self.compilation.specialize(&method, &types)?;
        self.writes |= self.compilation.compiled.funcs[func].writes;
        let dst = self.register();
        self.emit(Op::Call {
            func,
            args: values.iter().map(|(r, _)| *r).collect(),
            dst,
        })?;
        self.temporary = Some(dst);
        Ok(Val {
            reg: dst,
            ty: Some(returns),
        })
    }

    /// A call of a library function the tier knows: the math functions of one number,
    /// `max`/`min` and `float`. User methods of them (`import Base: sin`) keep it interpreted.
    fn call_builtin(&mut self, name: Name, args: &[(Reg, Ty)]) -> Lowered<Val> {
        let interp = self.compilation.interp;
        if crate::builtins::lookup(name).is_none() || interp.extensions.contains_key(&name) {
            return Err(Outside);
        }
        interp.note_builtin_use(name);
        match (name.as_str(), args) {
            ("length" | "lastindex", &[(array, Ty::Array { .. })]) => return self.size(array, 0),
            ("firstindex", &[(_, Ty::Array { .. })]) => return self.constant(&Value::Int(1)),
            _ if args.iter().any(|(_, t)| !t.is_scalar()) => return Err(Outside),
            _ => {}
        }
        let dst = self.register();
        let (op, out) = match (name.as_str(), args) {
            ("max" | "min", &[a, b]) => {
                let f = Fn2::Extremum(if name.as_str() == "max" {
                    BinaryFn::Max
                } else {
                    BinaryFn::Min
                });
                let out = result_type2(f, a.1, b.1)?;
                (Op::Apply2 { f, dst, a, b, out }, out)
            }
            ("float" | "Float64", &[a]) if a.1 != Ty::Nothing => {
                let src = self.float(a)?;
                (Op::Move { dst, src }, Ty::Float)
            }
            (other, &[a]) => {
                let f = Fn1::Math(crate::builtins::math::unary_fn_of(other).ok_or(Outside)?);
                let out = result_type1(f, a.1)?;
                (
                    Op::Apply1 {
                        f,
                        dst,
                        src: a,
                        out,
                    },
                    out,
                )
            }
            _ => return Err(Outside),
        };
        self.emit(op)?;
        self.temporary = Some(dst);
        Ok(Val {
            reg: dst,
            ty: Some(out),
        })
    }
}
