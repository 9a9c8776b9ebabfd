//! `@kwdef struct … end` (`Base.@kwdef`): a struct whose fields may have default values
//! (`a::Int = 1`), and a keyword constructor `Name(; a = 1, b)` calling the positional one.
//! Fields without a default are required keywords; a default may use the fields before it.

use super::Interp;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::value::Value;
use difflab_syntax::{Arg, Expr, ExprKind, FunctionDef, Param, Pattern, StructDef};
use std::rc::Rc;

impl Interp {
    /// Defines the struct `expr` describes and its keyword constructor.
    pub(crate) fn define_kwdef_struct(&mut self, expr: &Expr) -> EvalResult {
        let ExprKind::Struct(def) = &expr.kind else {
            return Err(fail(
                ErrorKind::ArgumentError,
                "@kwdef applies to a struct definition",
            ));
        };
        self.define_struct(def)?;
        self.define_function(&Rc::new(keyword_constructor(def)))?;
        Ok(Value::Nothing)
    }
}

/// `Name(; field = default, …) = Name(field, …)`.
fn keyword_constructor(def: &StructDef) -> FunctionDef {
    let at = |kind| Expr {
        kind,
        span: def.span,
    };
    let kwparams = def
        .fields
        .iter()
        .map(|(field, _)| Param {
            pattern: Pattern::Name(*field),
            default: def
                .defaults
                .iter()
                .find(|(name, _)| name == field)
                .map(|(_, value)| value.clone()),
            vararg: false,
            annotation: None,
        })
        .collect();
    let args = def
        .fields
        .iter()
        .map(|(field, _)| Arg {
            value: at(ExprKind::Ident(*field)),
            splat: false,
        })
        .collect();
    let call = at(ExprKind::Call {
        callee: Box::new(at(ExprKind::Ident(def.name))),
        args,
        kwargs: Vec::new(),
        dotted: false,
    });
    FunctionDef {
        name: Some(def.name),
        module: None,
        callable: None,
        params: Vec::new(),
        kwparams,
        type_vars: Vec::new(),
        return_type: None,
        body: vec![call],
        doc: None,
        span: def.span,
    }
}
