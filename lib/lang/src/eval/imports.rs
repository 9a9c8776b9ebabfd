//! `import` and `using` of names and modules: names imported for extension, names imported
//! under another name, and other names of modules (`import M as A`).

use super::Interp;
use crate::error::EvalResult;
use crate::value::Value;
use difflab_syntax::{Expr, ExprKind, Name};

impl Interp {
    /// `import M: a, b`: marks the names as extensible by user methods (the modules' names
    /// are all loaded already); `import M: a as b` binds `b` to `M.a`.
    pub(crate) fn import(
        &mut self,
        module: Name,
        names: &[Name],
        renamed: &[(Name, Name)],
        span: difflab_syntax::Span,
    ) -> EvalResult {
        self.imported.extend(names.iter().copied());
        let module_expr = Expr {
            kind: ExprKind::Ident(module),
            span,
        };
        for &(name, alias) in renamed {
            let value = match self.module_member(&module_expr, name) {
                Some(value) => value?,
                None => self.lookup(name)?,
            };
            self.set_global(alias, value);
        }
        Ok(Value::Nothing)
    }

    /// `import M as A`: `A.x` is `M.x` from now on.
    pub(crate) fn alias_module(&mut self, module: Name, alias: Name) {
        let module = self.module_aliases.get(&module).copied().unwrap_or(module);
        self.module_aliases.insert(alias, module);
    }
}
