//! The macros of the language: `@time`, `@elapsed`, `@show`, `@assert`, `@b`/`@btime`, and the
//! annotations that change nothing here (`@inbounds`, `@views`, `@fastmath`).

use super::{fail, EvalResult, Flow, Interp};
use crate::error::ErrorKind;
use crate::output::Stream;
use crate::value::Value;
use difflab_syntax::{Expr, Name, Span};
use std::time::{Duration, Instant};

impl Interp {
    pub(crate) fn eval_macro(&mut self, name: Name, args: &[Expr], span: Span) -> EvalResult {
        match name.as_str() {
            "time" => {
                let expr = single(args, "@time")?;
                let start = Instant::now();
                let v = self.eval(expr)?;
                let secs = start.elapsed().as_secs_f64();
                self.out
                    .write(Stream::Stdout, &format!("{:>10.6} seconds\n", secs));
                Ok(v)
            }
            "elapsed" => {
                let expr = single(args, "@elapsed")?;
                let start = Instant::now();
                self.eval(expr)?;
                Ok(Value::Float(start.elapsed().as_secs_f64()))
            }
            "show" => {
                let mut last = Value::Nothing;
                for a in args {
                    let v = self.eval(a)?;
                    let text = self.source_text(a.span);
                    self.out.write(
                        Stream::Stdout,
                        &format!("{text} = {}\n", crate::display::repr(&v)),
                    );
                    last = v;
                }
                Ok(last)
            }
            "assert" => {
                let Some(cond) = args.first() else {
                    return Err(fail(ErrorKind::ArgumentError, "@assert needs a condition"));
                };
                if self.truthy(cond)? {
                    return Ok(Value::Nothing);
                }
                let message = match args.get(1) {
                    Some(m) => crate::display::print_string(&self.eval(m)?),
                    None => self.source_text(cond.span),
                };
                Err(fail(ErrorKind::AssertionError, message))
            }
            "b" | "btime" | "benchmark" => {
                let expr = single(args, "@b")?;
                let (best, samples, value) = self.benchmark(expr)?;
                if name.as_str() == "btime" {
                    self.out.write(
                        Stream::Stdout,
                        &format!("  {}\n", crate::builtins::bench::format_duration(best)),
                    );
                    return Ok(value);
                }
                Ok(crate::builtins::bench::sample(best, samples))
            }
            "." => {
                let expr = single(args, "@.")?;
                self.eval(&dot_all(expr))
            }
            "inbounds" | "views" | "fastmath" | "simd" | "inline" | "noinline" => {
                let mut last = Value::Nothing;
                for a in args {
                    last = self.eval(a)?;
                }
                Ok(last)
            }
            other => Err(self.locate(
                fail(
                    ErrorKind::UndefVarError,
                    format!("macro `@{other}` not defined"),
                ),
                span,
            )),
        }
    }

    /// Runs `expr` repeatedly for about half a second (at least once): the fastest run, the
    /// number of runs, and the last value.
    fn benchmark(&mut self, expr: &Expr) -> Result<(Duration, usize, Value), Flow> {
        let budget = Duration::from_millis(500);
        let started = Instant::now();
        let mut best = Duration::MAX;
        let mut samples = 0;
        let mut value = Value::Nothing;
        while samples == 0 || (started.elapsed() < budget && samples < 10_000) {
            self.check_interrupt()?;
            let t = Instant::now();
            value = self.eval(expr)?;
            best = best.min(t.elapsed());
            samples += 1;
        }
        Ok((best, samples, value))
    }

    /// The source text of `span` in the current input.
    pub(crate) fn source_text(&self, span: Span) -> String {
        let text = &self.source().text;
        text.get(span.start as usize..span.end as usize)
            .unwrap_or("")
            .to_string()
    }
}

/// `@. expr`: every operator, call and assignment in `expr` made elementwise (dotted).
fn dot_all(expr: &Expr) -> Expr {
    use difflab_syntax::{Arg, ExprKind};
    let boxed = |e: &Expr| Box::new(dot_all(e));
    let kind = match &expr.kind {
        ExprKind::Binary { op, lhs, rhs, .. } => ExprKind::Binary {
            op: *op,
            dotted: true,
            lhs: boxed(lhs),
            rhs: boxed(rhs),
        },
        ExprKind::Unary { op, operand, .. } => ExprKind::Unary {
            op: *op,
            dotted: true,
            operand: boxed(operand),
        },
        ExprKind::Call {
            callee,
            args,
            kwargs,
            ..
        } => ExprKind::Call {
            callee: callee.clone(),
            args: args
                .iter()
                .map(|a| Arg {
                    value: dot_all(&a.value),
                    splat: a.splat,
                })
                .collect(),
            kwargs: kwargs.clone(),
            dotted: true,
        },
        ExprKind::Assign {
            target, op, value, ..
        } => ExprKind::Assign {
            target: target.clone(),
            op: *op,
            dotted: true,
            value: boxed(value),
        },
        ExprKind::Block(body) => ExprKind::Block(body.iter().map(dot_all).collect()),
        other => other.clone(),
    };
    Expr {
        kind,
        span: expr.span,
    }
}

fn single<'a>(args: &'a [Expr], name: &str) -> Result<&'a Expr, Flow> {
    match args {
        [e] => Ok(e),
        _ => Err(fail(
            ErrorKind::ArgumentError,
            format!("{name} takes one expression"),
        )),
    }
}
