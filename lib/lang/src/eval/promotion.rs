//! Julia's promotion for user number types: when an operator meets a user value and a value of
//! another type with no method for the pair (`2 * d` for a user `Dual`), the user's
//! `promote_rule` names the common type, both operands are `convert`ed to it with the user's
//! methods, and the operator's method for that type runs. `promote_type` reads the same rules.

use super::methods::type_value;
use super::Interp;
use crate::error::{EvalResult, Flow};
use crate::types::Type;
use crate::value::Value;
use difflab_syntax::Name;

impl Interp {
    /// The common type of `a` and `b` by the user's `promote_rule` methods (either order), or
    /// `None` when no rule names one.
    pub(crate) fn promote_by_rules(&mut self, a: &Type, b: &Type) -> Option<Result<Type, Flow>> {
        let (va, vb) = (type_value(a), type_value(b));
        let rule = difflab_syntax::name!("promote_rule");
        let result = self
            .call_extension(rule, &[va.clone(), vb.clone()], &[])
            .or_else(|| self.call_extension(rule, &[vb, va], &[]))?;
        Some(result.and_then(|v| {
            Type::from_value(&v).ok_or_else(|| {
                super::fail(
                    crate::error::ErrorKind::TypeError,
                    format!(
                        "promote_rule({a}, {b}) must return a type, got a {}",
                        v.type_name()
                    ),
                )
            })
        }))
    }

    /// `op(a, b)` after promoting the operands to the type the user's `promote_rule` names,
    /// converting each with `convert`; `None` when the operands already share a type or no
    /// rule applies.
    pub(crate) fn promoted_operator(
        &mut self,
        op: &str,
        a: &Value,
        b: &Value,
    ) -> Option<EvalResult> {
        let (ta, tb) = (Type::of(a), Type::of(b));
        if ta == tb {
            return None;
        }
        let target = match self.promote_by_rules(&ta, &tb)? {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        Some((|| {
            let convert = Value::Builtin(
                crate::builtins::lookup(difflab_syntax::name!("convert"))
                    .expect("convert is a builtin"),
            );
            let mut operands = Vec::with_capacity(2);
            for x in [a, b] {
                operands.push(if Type::of(x) == target {
                    x.clone()
                } else {
                    self.call_value(&convert, vec![type_value(&target), x.clone()], Vec::new())?
                });
            }
            if Type::of(&operands[0]) == ta && Type::of(&operands[1]) == tb {
                // The conversions changed nothing: the operator has no method for these types.
                return self.call_operator(op, operands);
            }
            let function = crate::builtins::lookup(Name::new(op))
                .map(Value::Builtin)
                .ok_or_else(|| self.no_method(op, &operands, &[]))?;
            self.call_value(&function, operands, Vec::new())
        })())
    }
}
