//! The macros of the language: `@time`, `@elapsed`, `@show`, `@assert`, `@b`/`@btime`, and the
//! annotations that change nothing here (`@inbounds`, `@views`, `@fastmath`).

use super::{fail, EvalResult, Flow, Interp};
use crate::allocator::Allocations;
use crate::builtins::bench::{format_allocations, format_duration};
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
                let (start, before) = (Instant::now(), Allocations::now());
                let v = self.eval(expr)?;
                let secs = start.elapsed().as_secs_f64();
                let allocations = Allocations::now().since(before);
                let report = if allocations.count == 0 {
                    format!("{secs:>10.6} seconds\n")
                } else {
                    let counted = format_allocations(allocations, "allocation");
                    format!("{secs:>10.6} seconds ({counted})\n")
                };
                self.out.write(Stream::Stdout, &report);
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
                    self.prepare_display(&v)?;
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
                let (best, allocations, samples, value) = self.benchmark(expr)?;
                if name.as_str() == "btime" {
                    let counted = format_allocations(allocations, "allocation");
                    self.out.write(
                        Stream::Stdout,
                        &format!("  {} ({counted})\n", format_duration(best)),
                    );
                    return Ok(value);
                }
                Ok(crate::builtins::bench::sample(best, allocations, samples))
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

    /// Runs `expr` repeatedly for about half a second (at least once): the fastest run, what it
    /// allocated, the number of runs, and the last value.
    fn benchmark(&mut self, expr: &Expr) -> Result<(Duration, Allocations, usize, Value), Flow> {
        let budget = Duration::from_millis(500);
        let started = Instant::now();
        let mut best = (Duration::MAX, Allocations::default());
        let mut samples = 0;
        let mut value = Value::Nothing;
        while samples == 0 || (started.elapsed() < budget && samples < 10_000) {
            self.check_interrupt()?;
            let (t, before) = (Instant::now(), Allocations::now());
            value = self.eval(expr)?;
            let run = (t.elapsed(), Allocations::now().since(before));
            if run.0 < best.0 {
                best = run;
            }
            samples += 1;
        }
        Ok((best.0, best.1, samples, value))
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

/// The docstring of the macro `name` (with its `@`), for `?@time` and friends.
pub fn macro_doc(name: &str) -> Option<&'static str> {
    Some(match name.strip_prefix('@')? {
        "time" => "    @time expr\n\nEvaluates `expr`, prints the time it took and what it allocated (as Julia prints them), and returns its value.\n\n```\njulia> @time sum(rand(1000));\n  0.000007 seconds (8 allocations: 8.148 KiB)\n```",
        "elapsed" => "    @elapsed expr\n\nEvaluates `expr` and returns the seconds it took, discarding its value.\n\n```\njulia> t = @elapsed sum(rand(1000));\n```",
        "show" => "    @show expr...\n\nPrints each expression's source and value, `x = 1`, and returns the last value.\n\n```\njulia> x = 2; @show x + 1\nx + 1 = 3\n3\n```",
        "assert" => "    @assert cond [message]\n\nRaises an `AssertionError` (with `message`, or the condition's source) unless `cond` is true.\n\n```\njulia> @assert 1 + 1 == 2\n```",
        "b" | "benchmark" => "    @b expr\n\nRuns `expr` repeatedly for about half a second and returns a `Sample` (fields `time`, `allocs`, `bytes`, `samples`) for the fastest run, shown as Chairmarks shows it.\n\n```\njulia> @b zeros(1000)\n270.000 ns (5 allocs: 8.062 KiB)\n```",
        "btime" => "    @btime expr\n\nRuns `expr` repeatedly for about half a second, prints the fastest time and its allocations as BenchmarkTools prints them, and returns the value.\n\n```\njulia> @btime zeros(1000);\n  270.000 ns (5 allocations: 8.062 KiB)\n```",
        "." => "    @. expr\n\nTurns every call and operator in `expr` into its dotted (broadcast) form, fused into one pass.\n\n```\njulia> x = [1.0, 2.0]; @. x^2 + 1\n2-element Vector{Float64}:\n 2.0\n 5.0\n```",
        "inbounds" | "views" | "fastmath" | "simd" | "inline" | "noinline" => "    @inbounds, @views, @fastmath, @simd, @inline, @noinline\n\nAccepted so pasted Julia code runs; they evaluate their expression unchanged (array operations are already whole-array kernels).\n\n```\njulia> @inbounds [1, 2][2]\n2\n```",
        _ => return None,
    })
}
