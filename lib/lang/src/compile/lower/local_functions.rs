//! Anonymous functions bound to a local name (`g = x -> x + 1` in a method body) and called
//! there: each call is lowered in place, so the closure never exists at run time.
//!
//! A closure that is only called sees its captured variables as they are at the call, which
//! is what lowering the body at the call site reads from their registers; assigning one inside
//! the body writes that register, as Julia's closures write the captured variable. What the
//! body may see is fixed where it is defined: a local created after the definition, or another
//! local function defined after it, makes the method outside the tier rather than being
//! resolved differently. A closure used any other way (passed to a function, returned,
//! stored, defined on some paths only, recursive, or one whose body returns early) keeps the
//! method in the evaluator.

use super::{Local, Lowered, Lowerer, Outside, Val};
use crate::compile::machine::{self, Op, Reg};
use crate::eval::scope::Scope;
use difflab_syntax::{Arg, FunctionDef, Name, Pattern};
use std::rc::Rc;

/// An anonymous function bound to a local name, and what its body may see.
pub(super) struct LocalFunction {
    name: Name,
    def: Rc<FunctionDef>,
    /// The number of frames when it was defined: it lives in the innermost of them.
    depth: usize,
    /// The locals visible where it was defined.
    visible: Vec<(Name, Reg)>,
    /// How many local functions were defined before it (those its body may call).
    earlier_functions: usize,
}

/// A local function whose body is being lowered at a call site.
pub(super) struct Inlining {
    /// The first frame of the body's own (its parameters' frame).
    base: usize,
    function: usize,
}

impl Lowerer<'_, '_> {
    /// `name = (params) -> body`: remembers the function for the calls that follow.
    pub(super) fn define_local_function(
        &mut self,
        name: Name,
        def: &Rc<FunctionDef>,
        want: bool,
    ) -> Lowered<Val> {
        let simple = def.kwparams.is_empty()
            && def.type_vars.is_empty()
            && def.return_type.is_none()
            && def.callable.is_none()
            && def.params.iter().all(|p| {
                !p.vararg
                    && p.default.is_none()
                    && p.annotation.is_none()
                    && matches!(p.pattern, Pattern::Name(_))
            });
        // The closure as a value (`want`), one defined on some paths only, in top-level code
        // (a global) or inside another local function stays interpreted.
        if !simple
            || want
            || self.top_level
            || self.conditional > 0
            || !self.inlining.is_empty()
            || self.local(name)?.is_some()
        {
            return Err(Outside);
        }
        self.outer(name)?;
        let visible = self
            .scopes
            .iter()
            .flatten()
            .map(|&(name, reg, _)| (name, reg))
            .collect();
        self.local_functions.push(LocalFunction {
            name,
            def: def.clone(),
            depth: self.scopes.len(),
            visible,
            earlier_functions: self.local_functions.len(),
        });
        self.constant(&crate::value::Value::Nothing)
    }

    /// The local function `name` refers to here, if any. A name that refers to one the code
    /// being lowered may not see is outside the tier (it must not fall through to a global).
    pub(super) fn local_function(&self, name: Name) -> Lowered<Option<usize>> {
        let Some(index) = self.local_functions.iter().rposition(|f| f.name == name) else {
            return Ok(None);
        };
        match self.inlining.last() {
            Some(inlining)
                if index >= self.local_functions[inlining.function].earlier_functions =>
            {
                Err(Outside)
            }
            _ => Ok(Some(index)),
        }
    }

    /// Whether `name` is a local function's, visible here or not.
    pub(super) fn names_local_function(&self, name: Name) -> bool {
        self.local_functions.iter().any(|f| f.name == name)
    }

    /// Whether the local `(name, reg)`, found in frame `depth`, may be read by the code being
    /// lowered: inside a local function's body, a frame outside it must have held that very
    /// local when the function was defined.
    pub(super) fn sees(&self, depth: usize, name: Name, reg: Reg) -> bool {
        match self.inlining.last() {
            Some(inlining) if depth < inlining.base => self.local_functions[inlining.function]
                .visible
                .contains(&(name, reg)),
            _ => true,
        }
    }

    /// A call of local function `index`: its body lowered here, its parameters copies of the
    /// arguments in a frame of their own.
    pub(super) fn call_local_function(&mut self, index: usize, args: &[Arg]) -> Lowered<Val> {
        let def = self.local_functions[index].def.clone();
        let recursive = self.inlining.iter().any(|i| i.function == index);
        if recursive || args.len() != def.params.len() || args.iter().any(|a| a.splat) {
            return Err(Outside);
        }
        let mut frame: Vec<Local> = Vec::with_capacity(args.len());
        for (param, arg) in def.params.iter().zip(args) {
            let (src, ty) = self.expr(&arg.value, true)?.get()?;
            let Pattern::Name(name) = param.pattern else {
                return Err(Outside);
            };
            let copy = self.register();
            self.emit(Op::Move { dst: copy, src })?;
            frame.push((name, copy, ty));
        }
        let base = self.scopes.len();
        self.scopes.push(frame);
        // `break`, `continue` and `end` in the body are the body's own, never the caller's.
        let loops = std::mem::take(&mut self.loops);
        let ends = std::mem::take(&mut self.ends);
        self.inlining.push(Inlining {
            base,
            function: index,
        });
        let value = self.block(&def.body, true);
        self.inlining.pop();
        self.loops = loops;
        self.ends = ends;
        self.pop_scope();
        let (src, ty) = value?.get()?;
        // A fresh register: the body's value may be a captured variable's, which the caller
        // could assign before using this result.
        let dst = self.register();
        self.emit(Op::Move { dst, src })?;
        self.temporary = Some(dst);
        Ok(Val {
            reg: dst,
            ty: Some(ty),
        })
    }

    /// Notes `name`, which the body reads from outside its locals or creates as one; in a
    /// closure, a name its captured frames bind is outside the tier (the evaluator reads or
    /// writes that binding).
    pub(super) fn outer(&mut self, name: Name) -> Lowered<()> {
        if let Some(scope) = &self.captured {
            if Scope::lookup(scope, name).is_some() {
                return Err(Outside);
            }
        }
        if !self.outer_names.contains(&name) {
            self.outer_names.push(name);
        }
        Ok(())
    }

    /// When `name`, read by a closure's body, is a number or an array of its captured frames,
    /// or a global array (a closure made at top level reading the session's `x`): notes it
    /// for the next attempt, which takes it as a parameter ([`Func::captures`]), read at each
    /// call as the evaluator reads it.
    pub(super) fn note_capture(&mut self, name: Name) {
        let Some(scope) = &self.captured else {
            return;
        };
        let array_type = crate::compile::arrays::array_type;
        let ty = match Scope::lookup(scope, name) {
            Some(v) => machine::unboxed(&v)
                .map(|(_, ty)| ty)
                .or_else(|| array_type(&v)),
            None => self.compilation.interp.global(name).and_then(array_type),
        };
        if let Some(ty) = ty {
            self.compilation.discovered = Some((name, ty));
        }
    }

    /// Leaves the innermost frame, forgetting the local functions defined in it.
    pub(super) fn pop_scope(&mut self) {
        self.scopes.pop();
        let depth = self.scopes.len();
        self.local_functions.retain(|f| f.depth <= depth);
    }

    /// Whether `return` is lowered inside a local function's body (it would return from the
    /// closure, not from the method).
    pub(super) fn inlining(&self) -> bool {
        !self.inlining.is_empty()
    }
}
