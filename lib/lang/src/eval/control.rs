//! Control flow: `if`, `for`, `while`, `try`, `let` and `global`/`local` declarations.

use super::scope::Scope;
use super::Interp;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::value::iterate::elements;
use crate::value::Value;
use difflab_syntax::{Block, Expr, Generator, Name, Pattern};
use std::rc::Rc;

impl Interp {
    pub(crate) fn eval_if(
        &mut self,
        branches: &[(Expr, Block)],
        otherwise: Option<&Block>,
    ) -> EvalResult {
        for (cond, body) in branches {
            if self.truthy(cond)? {
                return self.eval_block(body);
            }
        }
        match otherwise {
            Some(body) => self.eval_block(body),
            None => Ok(Value::Nothing),
        }
    }

    pub(crate) fn eval_for(&mut self, generators: &[Generator], body: &Block) -> EvalResult {
        let frame = Scope::new(self.current_scope(), false);
        self.with_frame(frame, |me| me.for_nested(generators, 0, body))?;
        Ok(Value::Nothing)
    }

    /// Runs the loop over `clauses[level]`, nesting the clauses after it inside.
    fn for_nested(
        &mut self,
        clauses: &[Generator],
        level: usize,
        body: &Block,
    ) -> Result<bool, Flow> {
        let Some(clause) = clauses.get(level) else {
            return match self.eval_block(body) {
                Ok(_) | Err(Flow::Continue) => Ok(true),
                Err(Flow::Break) => Ok(false),
                Err(other) => Err(other),
            };
        };
        let iterable = self.eval(&clause.iter)?;
        let mut items = self
            .iterate_value(&iterable)
            .map_err(|f| self.locate(f, clause.iter.span))?;
        let mark = self.iteration_mark();
        while let Some(item) = self.next_item(&mut items)? {
            self.check_interrupt()?;
            self.start_iteration(mark);
            self.bind_pattern(&clause.pattern, item)?;
            if !self.for_nested(clauses, level + 1, body)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The current frame's binding count: what an iteration of the loop whose frame it is
    /// starts from ([`Interp::start_iteration`]).
    pub(super) fn iteration_mark(&self) -> usize {
        self.scope.as_ref().map_or(0, |frame| frame.binding_count())
    }

    /// Starts an iteration of the loop whose frame is the current one. Julia gives every
    /// iteration its own variables: the previous iteration's locals (bindings after `mark`)
    /// are dropped, and when its closures or generators captured the frame, this iteration
    /// goes on in a fresh one ([`Scope::next_iteration`]) while the old frame stays with what
    /// captured it.
    pub(super) fn start_iteration(&mut self, mark: usize) {
        let Some(frame) = self.scope.as_ref() else {
            return;
        };
        if Rc::strong_count(frame) == 1 {
            frame.forget_after(mark);
            return;
        }
        let fresh = frame.next_iteration(mark);
        if let Some(old) = self.scope.replace(fresh) {
            Scope::release(old);
        }
    }

    /// Binds a loop or parameter pattern in the current frame (or globals at top level).
    pub(crate) fn bind_pattern(&mut self, pattern: &Pattern, value: Value) -> Result<(), Flow> {
        match pattern {
            Pattern::Name(name) => {
                match self.current_scope() {
                    Some(scope) => scope.define(*name, value),
                    None => self.set_global(*name, value),
                }
                Ok(())
            }
            Pattern::Tuple(parts) => {
                let items = elements(&value)?;
                if items.len() < parts.len() {
                    return Err(fail(
                        ErrorKind::BoundsError,
                        format!(
                            "cannot destructure {} values into {} names",
                            items.len(),
                            parts.len()
                        ),
                    ));
                }
                for (p, v) in parts.iter().zip(items) {
                    self.bind_pattern(p, v)?;
                }
                Ok(())
            }
        }
    }

    pub(crate) fn eval_while(&mut self, cond: &Expr, body: &Block) -> EvalResult {
        let frame = Scope::new(self.current_scope(), false);
        self.with_frame(frame, |me| {
            while me.truthy(cond)? {
                me.check_interrupt()?;
                me.start_iteration(0);
                match me.eval_block(body) {
                    Ok(_) | Err(Flow::Continue) => {}
                    Err(Flow::Break) => break,
                    Err(other) => return Err(other),
                }
            }
            Ok(Value::Nothing)
        })
    }

    pub(crate) fn eval_try(
        &mut self,
        body: &Block,
        catch_var: Option<Name>,
        catch_body: Option<&Block>,
        finally: Option<&Block>,
    ) -> EvalResult {
        let frame = Scope::new(self.current_scope(), false);
        let result = self.with_frame(frame, |me| me.eval_block(body));
        let result = match (result, catch_body) {
            (Err(Flow::Error(e)), Some(handler)) if self.may_catch(&e) => {
                let frame = Scope::new(self.current_scope(), false);
                if let Some(var) = catch_var {
                    let caught = match &e.payload {
                        Some(v) => v.clone(),
                        None => Value::Exception(Rc::new(*e)),
                    };
                    frame.define(var, caught);
                }
                self.with_frame(frame, |me| me.eval_block(handler))
            }
            (other, _) => other,
        };
        if let Some(finally) = finally {
            self.eval_block(finally)?;
        }
        result
    }

    /// Whether a `catch` may take `e`: any error, and the first interrupt of an input.
    fn may_catch(&mut self, e: &crate::error::LangError) -> bool {
        if e.kind != ErrorKind::InterruptException {
            return true;
        }
        !std::mem::replace(&mut self.interrupt_caught, true)
    }

    pub(crate) fn eval_let(
        &mut self,
        bindings: &[(Name, Option<Expr>)],
        body: &Block,
    ) -> EvalResult {
        let frame = Scope::new(self.current_scope(), false);
        for (name, value) in bindings {
            let v = match value {
                Some(e) => self.with_frame(frame.clone(), |me| me.eval(e))?,
                None => self.lookup(*name)?,
            };
            frame.define(*name, v);
        }
        self.with_frame(frame, |me| me.eval_block(body))
    }

    pub(crate) fn eval_declare(
        &mut self,
        global: bool,
        bindings: &[(Name, Option<Expr>)],
    ) -> EvalResult {
        for (name, value) in bindings {
            let v = value.as_ref().map(|e| self.eval(e)).transpose()?;
            match (global, self.current_scope()) {
                (true, Some(scope)) => {
                    scope.declare_global(*name);
                    if let Some(v) = v {
                        self.set_global(*name, v);
                    }
                }
                (true, None) => {
                    if let Some(v) = v {
                        self.set_global(*name, v);
                    }
                }
                (false, Some(scope)) => scope.define(*name, v.unwrap_or(Value::Nothing)),
                (false, None) => {
                    if let Some(v) = v {
                        self.set_global(*name, v);
                    }
                }
            }
        }
        Ok(Value::Nothing)
    }
}
