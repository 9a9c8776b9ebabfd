//! Assignment: `x = v`, compound `x += v`, indexed `y[i] = v`, broadcast `y .= v`, fields and
//! destructuring `a, b = t`.

use super::scope::Scope;
use super::Interp;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::value::Value;
use difflab_syntax::{BinOp, Expr, ExprKind, Name};

impl Interp {
    pub(crate) fn eval_assign(
        &mut self,
        target: &Expr,
        op: Option<BinOp>,
        dotted: bool,
        value: &Expr,
    ) -> EvalResult {
        let mut v = self.eval(value)?;
        if let Some(op) = op {
            let current = self.eval(target)?;
            v = self.binary(op, dotted, &current, &v)?;
            if dotted {
                if let ExprKind::Ident(_) | ExprKind::Index { .. } = target.kind {
                    // `x .+= v` updates the array in place, like `x .= x .+ v`.
                    if matches!(current, Value::Array(_)) {
                        self.assign_broadcast(target, &v)?;
                        return Ok(v);
                    }
                }
            }
        } else if dotted {
            self.assign_broadcast(target, &v)?;
            return Ok(v);
        }
        self.assign_to(target, v.clone())?;
        Ok(v)
    }

    /// Stores `v` into the place `target` denotes.
    pub(crate) fn assign_to(&mut self, target: &Expr, v: Value) -> Result<(), Flow> {
        match &target.kind {
            ExprKind::Ident(name) => {
                self.assign_name(*name, v);
                Ok(())
            }
            ExprKind::Index { target: t, indices } => {
                let container = self.eval(t)?;
                self.set_index(&container, indices, v)
                    .map_err(|f| self.locate(f, target.span))
            }
            ExprKind::Tuple(parts) if difflab_syntax::ast::is_property_destructuring(parts) => {
                // `(; a, b) = x`: `a = x.a`, `b = x.b`, all read before any is assigned.
                let mut properties = Vec::with_capacity(parts.len());
                for part in parts {
                    if let ExprKind::Assign { target: name, .. } = &part.value.kind {
                        if let ExprKind::Ident(field) = name.kind {
                            properties.push((name, self.field(&v, field)?));
                        }
                    }
                }
                for (name, property) in properties {
                    self.assign_to(name, property)?;
                }
                Ok(())
            }
            ExprKind::Tuple(parts) => {
                let mut items = self.splatted(&v)?;
                let slurp = parts.last().filter(|p| p.splat);
                let named = parts.len() - usize::from(slurp.is_some());
                if items.len() < named {
                    return Err(fail(
                        ErrorKind::BoundsError,
                        format!(
                            "cannot destructure {} values into {} places",
                            items.len(),
                            named
                        ),
                    ));
                }
                let rest = items.split_off(named);
                for (part, item) in parts.iter().zip(items) {
                    if !part.splat {
                        self.assign_to(&part.value, item)?;
                    }
                }
                if let Some(part) = slurp {
                    let gathered = self.rest_like(&v, rest)?;
                    self.assign_to(&part.value, gathered)?;
                }
                Ok(())
            }
            ExprKind::TypeAssert { value: name, ty } => {
                let v = self.convert_declared(ty, v)?;
                self.assign_to(name, v)
            }
            ExprKind::Field { target: t, field } => {
                let container = self.eval(t)?;
                if let Value::Struct(s) = &container {
                    // `x.f = v` is `setproperty!(x, :f, v)`: a user's method for the type wins.
                    if self
                        .extensions
                        .contains_key(&difflab_syntax::name!("setproperty!"))
                    {
                        let args = [container.clone(), Value::Symbol(*field), v.clone()];
                        if let Some(result) =
                            self.call_extension(difflab_syntax::name!("setproperty!"), &args, &[])
                        {
                            return result.map(|_| ());
                        }
                    }
                    return Interp::set_struct_field(s, *field, v);
                }
                Err(fail(
                    ErrorKind::ArgumentError,
                    format!(
                        "cannot set field `{field}` of a {}: library objects are immutable",
                        container.type_name()
                    ),
                ))
            }
            _ => Err(fail(ErrorKind::ArgumentError, "invalid assignment target")),
        }
    }

    /// The values left for `rest...` in `a, rest... = v`, in the kind of collection Julia
    /// gives: a tuple from a tuple, a string from a string, a vector otherwise.
    fn rest_like(&mut self, v: &Value, rest: Vec<Value>) -> EvalResult {
        match v {
            Value::Tuple(_) => Ok(Value::tuple(rest)),
            Value::Str(_) => Ok(Value::str(
                rest.iter()
                    .map(crate::display::print_string)
                    .collect::<String>(),
            )),
            // An empty rest keeps the vector's element type (`Int64[]` from `[1]`).
            Value::Array(a) if rest.is_empty() => {
                Ok(crate::builtins::array(a.borrow().eltype, &[0], Vec::new()))
            }
            _ => {
                let n = rest.len();
                super::collections::collect_values(self, rest, &[n])
            }
        }
    }

    /// Assigns a variable following the scope rules of [`Scope::assign`].
    pub fn assign_name(&mut self, name: Name, v: Value) {
        let global = match &self.scope {
            None => Some(v),
            Some(scope) => Scope::assign(scope, name, v, self.global(name).is_some()),
        };
        if let Some(v) = global {
            self.set_global(name, v);
        }
    }

    /// `target .= v`: writes `v` (broadcast) into every element of the existing array.
    fn assign_broadcast(&mut self, target: &Expr, v: &Value) -> Result<(), Flow> {
        match &target.kind {
            ExprKind::Index { target: t, indices } => {
                let container = self.eval(t)?;
                self.set_index(&container, indices, v.clone())
            }
            _ => {
                let container = self.eval(target)?;
                self.fill_all(&container, v)
                    .map_err(|f| self.locate(f, target.span))
            }
        }
    }
}
