//! The macros of the language: `@time`, `@elapsed`, `@timed`, `@allocated`, `@threads`, `@show`, `@assert`,
//! `@printf`/`@sprintf` (formats in `builtins::printf`), `@kwdef` (`kwdef`), `@isdefined`,
//! `@b`/`@btime`/`@belapsed`/`@ballocated`,
//! `@view`/`@views` (slices as views, `builtins::views`), the annotations that change
//! nothing here (`@inbounds`, `@fastmath`); the log macros are in `logging`, `Test`'s in
//! `testing`.

use super::Interp;
use crate::allocator::Allocations;
use crate::builtins::bench::{format_allocations, format_duration};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::output::Stream;
use crate::value::Value;
use difflab_syntax::{Expr, ExprKind, Name, Span};
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
            "timed" => {
                let expr = single(args, "@timed")?;
                let (start, before) = (Instant::now(), Allocations::now());
                let value = self.eval(expr)?;
                let secs = start.elapsed().as_secs_f64();
                let bytes = Allocations::now().since(before).bytes;
                Ok(Value::named_tuple(vec![
                    (difflab_syntax::name!("value"), value),
                    (difflab_syntax::name!("time"), Value::Float(secs)),
                    (difflab_syntax::name!("bytes"), Value::Int(bytes as i64)),
                    (difflab_syntax::name!("gctime"), Value::Float(0.0)),
                ]))
            }
            // One thread runs a session (`Threads.nthreads()` is 1), so the loop runs in order,
            // as Julia's does with one thread; a schedule (`:static`) changes nothing.
            "threads" => match args.last() {
                Some(
                    expr @ Expr {
                        kind: ExprKind::For { .. },
                        ..
                    },
                ) => self.eval(expr),
                _ => Err(fail(
                    ErrorKind::ArgumentError,
                    "@threads takes a for loop: Threads.@threads for i in 1:n … end",
                )),
            },
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
            "kwdef" => self.define_kwdef_struct(single(args, "@kwdef")?),
            "printf" | "sprintf" => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a)?);
                }
                // `@printf(io, format, args...)` writes to `io`.
                let io = match values.first() {
                    Some(Value::Str(_)) | None => None,
                    Some(_) if name.as_str() == "printf" => Some(values.remove(0)),
                    Some(_) => None,
                };
                let Some(Value::Str(format)) = values.first().cloned() else {
                    return Err(fail(
                        ErrorKind::ArgumentError,
                        format!("@{name} takes a format string, then its arguments"),
                    ));
                };
                let text = Value::str(crate::builtins::printf::sprintf(&format, &values[1..])?);
                if name.as_str() == "sprintf" {
                    return Ok(text);
                }
                let print = crate::builtins::lookup(difflab_syntax::name!("print"))
                    .map(Value::Builtin)
                    .expect("print is a builtin");
                self.call(&print, io.into_iter().chain([text]).collect())
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
                let (expr, options) = benchmark_options(args, name.as_str())?;
                let options = self.eval_benchmark_options(&options)?;
                let (best, allocations, samples, value) = self.benchmark(expr, &options)?;
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
            "belapsed" | "ballocated" => {
                let (expr, options) = benchmark_options(args, name.as_str())?;
                let options = self.eval_benchmark_options(&options)?;
                let (best, allocations, _, _) = self.benchmark(expr, &options)?;
                Ok(if name.as_str() == "belapsed" {
                    Value::Float(best.as_secs_f64())
                } else {
                    Value::Int(allocations.bytes as i64)
                })
            }
            "allocated" => {
                let expr = single(args, "@allocated")?;
                let before = Allocations::now();
                self.eval(expr)?;
                Ok(Value::Int(Allocations::now().since(before).bytes as i64))
            }
            "." => {
                let expr = single(args, "@.")?;
                self.eval(&dot_all(expr))
            }
            "view" => {
                let expr = single(args, "@view")?;
                let ExprKind::Index { target, indices } = &expr.kind else {
                    return Err(fail(
                        ErrorKind::ArgumentError,
                        "Invalid use of @view macro: argument must be a reference expression A[...].",
                    ));
                };
                let container = self.eval(target)?;
                let values = self.eval_indices(&container, indices)?;
                // A single element stays an element, as Julia's `@views` reads `x[i]`.
                if values.iter().all(|v| matches!(v, Value::Int(_))) {
                    return self.index_value(&container, &values);
                }
                crate::builtins::views::make_view(self, &container, &values)
            }
            "views" => {
                let mut last = Value::Nothing;
                for a in args {
                    last = self.eval(&views_all(a))?;
                }
                Ok(last)
            }
            "isdefined" => match &single(args, "@isdefined")?.kind {
                ExprKind::Ident(name) => Ok(Value::Bool(self.lookup(*name).is_ok())),
                _ => Err(self.locate(
                    fail(
                        ErrorKind::ArgumentError,
                        "@isdefined takes a variable name: @isdefined x",
                    ),
                    span,
                )),
            },
            "inbounds" | "fastmath" | "simd" | "inline" | "noinline" => {
                let mut last = Value::Nothing;
                for a in args {
                    last = self.eval(a)?;
                }
                Ok(last)
            }
            other => {
                if let Some(level) = super::logging::LogLevel::of_macro(other) {
                    return self.eval_log_macro(level, args, span);
                }
                if let Some(result) = self.eval_test_macro(other, args, span) {
                    return result;
                }
                Err(self.locate(
                    fail(
                        ErrorKind::UndefVarError,
                        format!("macro `@{other}` not defined"),
                    ),
                    span,
                ))
            }
        }
    }

    /// Runs `expr` repeatedly for about half a second (at least once): the fastest run, what it
    /// allocated, the number of runs, and the last value.
    fn benchmark(
        &mut self,
        expr: &Expr,
        options: &BenchmarkOptions,
    ) -> Result<(Duration, Allocations, usize, Value), Flow> {
        let started = Instant::now();
        let mut best = (Duration::MAX, Allocations::default());
        let mut samples = 0;
        let mut value = Value::Nothing;
        while samples == 0 || (started.elapsed() < options.budget && samples < options.samples) {
            self.check_interrupt()?;
            if let Some(setup) = options.setup {
                self.eval(setup)?;
            }
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

    /// The values of `seconds=…` and `samples=…`; `setup` stays an expression.
    fn eval_benchmark_options<'a>(
        &mut self,
        options: &[(&'a str, &'a Expr)],
    ) -> Result<BenchmarkOptions<'a>, Flow> {
        let mut result = BenchmarkOptions {
            setup: None,
            budget: Duration::from_millis(500),
            samples: 10_000,
        };
        for &(name, value) in options {
            match name {
                "setup" => result.setup = Some(value),
                "seconds" => {
                    let seconds = crate::builtins::to_float(&self.eval(value)?, "seconds")?;
                    result.budget = Duration::from_secs_f64(seconds.clamp(0.0, 3600.0));
                }
                "samples" => {
                    result.samples = crate::builtins::to_size(&self.eval(value)?, "samples")?.max(1)
                }
                _ => unreachable!("benchmark_options accepts only these"),
            }
        }
        Ok(result)
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

/// `@views expr`: every index expression read in `expr` (not the place an assignment writes)
/// becomes `@view`, also inside nested blocks, loops and function bodies.
fn views_all(expr: &Expr) -> Expr {
    use difflab_syntax::{Arg, Generator, Kwarg};
    let b = |e: &Expr| Box::new(views_all(e));
    let block = |body: &[Expr]| body.iter().map(views_all).collect::<Vec<_>>();
    let args = |items: &[Arg]| {
        items
            .iter()
            .map(|a| Arg {
                value: views_all(&a.value),
                splat: a.splat,
            })
            .collect::<Vec<_>>()
    };
    let generators = |gens: &[Generator]| {
        gens.iter()
            .map(|g| Generator {
                pattern: g.pattern.clone(),
                iter: views_all(&g.iter),
            })
            .collect::<Vec<_>>()
    };
    let function = |def: &std::rc::Rc<difflab_syntax::FunctionDef>| {
        let mut def = (**def).clone();
        def.body = block(&def.body);
        std::rc::Rc::new(def)
    };
    let kind = match &expr.kind {
        ExprKind::Index { target, indices } => ExprKind::Macro {
            name: difflab_syntax::name!("view"),
            args: vec![Expr {
                kind: ExprKind::Index {
                    target: b(target),
                    indices: block(indices),
                },
                span: expr.span,
            }],
        },
        ExprKind::Assign {
            target,
            op,
            dotted,
            value,
        } => {
            // The written place stays an index; what it is indexed with may hold slices.
            let target = match &target.kind {
                ExprKind::Index { target: t, indices } => Box::new(Expr {
                    kind: ExprKind::Index {
                        target: b(t),
                        indices: block(indices),
                    },
                    span: target.span,
                }),
                _ => target.clone(),
            };
            ExprKind::Assign {
                target,
                op: *op,
                dotted: *dotted,
                value: b(value),
            }
        }
        ExprKind::Tuple(items) => ExprKind::Tuple(args(items)),
        ExprKind::Vector(items) => ExprKind::Vector(args(items)),
        ExprKind::Concat(rows) => ExprKind::Concat(rows.iter().map(|r| block(r)).collect()),
        ExprKind::Comprehension {
            body,
            generators: gens,
            filter,
            flat,
            generator,
            ..
        } => ExprKind::comprehension(
            *b(body),
            generators(gens),
            filter.as_deref().map(b),
            *flat,
            *generator,
        ),
        ExprKind::Range { start, step, stop } => ExprKind::Range {
            start: b(start),
            step: step.as_deref().map(b),
            stop: b(stop),
        },
        ExprKind::Binary {
            op,
            dotted,
            lhs,
            rhs,
        } => ExprKind::Binary {
            op: *op,
            dotted: *dotted,
            lhs: b(lhs),
            rhs: b(rhs),
        },
        ExprKind::Unary {
            op,
            dotted,
            operand,
        } => ExprKind::Unary {
            op: *op,
            dotted: *dotted,
            operand: b(operand),
        },
        ExprKind::And(x, y) => ExprKind::And(b(x), b(y)),
        ExprKind::Or(x, y) => ExprKind::Or(b(x), b(y)),
        ExprKind::Ternary {
            cond,
            then,
            otherwise,
        } => ExprKind::Ternary {
            cond: b(cond),
            then: b(then),
            otherwise: b(otherwise),
        },
        ExprKind::Call {
            callee,
            args: call_args,
            kwargs,
            dotted,
        } => ExprKind::Call {
            callee: callee.clone(),
            args: args(call_args),
            kwargs: kwargs
                .iter()
                .map(|k| Kwarg {
                    name: k.name,
                    value: views_all(&k.value),
                    splat: k.splat,
                })
                .collect(),
            dotted: *dotted,
        },
        ExprKind::Field { target, field } => ExprKind::Field {
            target: b(target),
            field: *field,
        },
        ExprKind::Adjoint(inner) => ExprKind::Adjoint(b(inner)),
        ExprKind::Lambda(def) => ExprKind::Lambda(function(def)),
        ExprKind::Function(def) => ExprKind::Function(function(def)),
        ExprKind::Block(body) => ExprKind::Block(block(body)),
        ExprKind::Let { bindings, body } => ExprKind::Let {
            bindings: bindings
                .iter()
                .map(|(n, e)| (*n, e.as_ref().map(views_all)))
                .collect(),
            body: block(body),
        },
        ExprKind::If {
            branches,
            otherwise,
        } => ExprKind::If {
            branches: branches
                .iter()
                .map(|(c, body)| (views_all(c), block(body)))
                .collect(),
            otherwise: otherwise.as_deref().map(block),
        },
        ExprKind::For {
            generators: gens,
            body,
        } => ExprKind::For {
            generators: generators(gens),
            body: block(body),
        },
        ExprKind::While { cond, body } => ExprKind::While {
            cond: b(cond),
            body: block(body),
        },
        ExprKind::Return(Some(value)) => ExprKind::Return(Some(b(value))),
        ExprKind::Try {
            body,
            catch_var,
            catch_body,
            finally,
        } => ExprKind::Try {
            body: block(body),
            catch_var: *catch_var,
            catch_body: catch_body.as_deref().map(block),
            finally: finally.as_deref().map(block),
        },
        ExprKind::Macro { name, args: margs } if name.as_str() != "view" => ExprKind::Macro {
            name: *name,
            args: block(margs),
        },
        ExprKind::Interpolate(inner) => ExprKind::Interpolate(b(inner)),
        ExprKind::TypeAssert { value, ty } => ExprKind::TypeAssert {
            value: b(value),
            ty: ty.clone(),
        },
        other => other.clone(),
    };
    Expr {
        kind,
        span: expr.span,
    }
}

/// How a benchmark macro samples: a `setup` expression evaluated before each sample (not
/// timed), a time budget and a largest number of samples.
struct BenchmarkOptions<'a> {
    setup: Option<&'a Expr>,
    budget: Duration,
    samples: usize,
}

/// Options written after a benchmarked expression, by name, not yet evaluated.
type WrittenOptions<'a> = Vec<(&'a str, &'a Expr)>;

/// The benchmarked expression and the options written after it (`setup=(…)`, `seconds=1`,
/// `samples=100`, as BenchmarkTools takes them); any other option is an error.
fn benchmark_options<'a>(
    args: &'a [Expr],
    name: &str,
) -> Result<(&'a Expr, WrittenOptions<'a>), Flow> {
    use difflab_syntax::ExprKind;
    let Some((expr, rest)) = args.split_first() else {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("@{name} takes an expression"),
        ));
    };
    let mut options = Vec::with_capacity(rest.len());
    for option in rest {
        let ExprKind::Assign {
            target,
            op: None,
            value,
            ..
        } = &option.kind
        else {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("@{name} takes one expression, then options such as setup=(…)"),
            ));
        };
        match &target.kind {
            ExprKind::Ident(option_name)
                if matches!(option_name.as_str(), "setup" | "seconds" | "samples") =>
            {
                options.push((option_name.as_str(), &**value));
            }
            ExprKind::Ident(option_name) => {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    format!(
                    "@{name}: unsupported option `{option_name}` (setup, seconds and samples are)"
                ),
                ))
            }
            _ => {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    format!("@{name}: options are written name=value"),
                ))
            }
        }
    }
    Ok((expr, options))
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

/// The macros with help (the names after `@`).
pub const MACROS: &[&str] = &[
    "time",
    "elapsed",
    "timed",
    "threads",
    "allocated",
    "show",
    "assert",
    "printf",
    "sprintf",
    "kwdef",
    "b",
    "benchmark",
    "btime",
    "belapsed",
    "ballocated",
    ".",
    "view",
    "views",
    "isdefined",
    "inbounds",
    "info",
    "warn",
    "error",
    "debug",
    "test",
    "test_throws",
    "test_broken",
    "test_skip",
    "test_logs",
    "test_warn",
    "test_nowarn",
    "testset",
    "inferred",
];

/// The docstring of the macro `name` (with its `@`), for `?@time` and friends.
pub fn macro_doc(name: &str) -> Option<&'static str> {
    let name = name.strip_prefix('@')?;
    if let Some(doc) =
        super::logging::log_macro_doc(name).or_else(|| super::testing::test_macro_doc(name))
    {
        return Some(doc);
    }
    Some(match name {
        "time" => "    @time expr\n\nEvaluates `expr`, prints the time it took and what it allocated (as Julia prints them), and returns its value.\n\n```\njulia> @time sum(rand(1000));\n  0.0...\n```",
        "timed" => "    @timed expr\n\nEvaluates `expr` and returns a named tuple of its `value`, the `time` it took in seconds, the `bytes` it allocated and `gctime` (0.0: memory is freed as it is released).\n\n```\njulia> t = @timed sum(1:10); t.value\n55\n```",
        "threads" => "    Threads.@threads for … end\n\nAccepted so pasted Julia code runs: a session runs on one thread (`Threads.nthreads()` is 1), so the loop runs in order, as Julia's does with one thread. The array kernels are what uses the machine's cores.\n\n```\njulia> s = zeros(3); Threads.@threads for i in 1:3; s[i] = i^2; end; s\n3-element Vector{Float64}:\n 1.0\n 4.0\n 9.0\n```",
        "elapsed" => "    @elapsed expr\n\nEvaluates `expr` and returns the seconds it took, discarding its value.\n\n```\njulia> t = @elapsed sum(rand(1000));\n```",
        "show" => "    @show expr...\n\nPrints each expression's source and value, `x = 1`, and returns the last value.\n\n```\njulia> x = 2; @show x + 1\nx + 1 = 3\n3\n```",
        "kwdef" => "    @kwdef struct Name … end\n\nA struct whose fields may have default values (`a::Int = 1`), with a keyword constructor `Name(; a = 1, …)` besides the positional one; fields without a default are required keywords, and a default may use the fields before it (`Base.@kwdef` is the same).\n\n```\njulia> @kwdef struct Options; tol::Float64 = 1e-8; maxiter::Int = 100; end\n\njulia> Options(maxiter=5)\nOptions(1.0e-8, 5)\n```",
        "printf" => "    @printf([io,] format, args...)\n\nPrints `args` as the C-style `format` says (`%d`, `%5.2f`, `%e`, `%g`, `%s`, `%x`, with the flags `-+ 0#`, a width and a precision), to `io` when given (`stdout`, `stderr`, an `IOBuffer`), as Julia's Printf does.\n\n```\njulia> @printf(\"%5.2f|%-4d|%s\\n\", pi, 7, \"ok\")\n 3.14|7   |ok\n```",
        "sprintf" => "    @sprintf(format, args...)\n\nThe string `@printf` would print.\n\n```\njulia> @sprintf(\"%.3e and %05d\", 12345.678, 42)\n\"1.235e+04 and 00042\"\n```",
        "assert" => "    @assert cond [message]\n\nRaises an `AssertionError` (with `message`, or the condition's source) unless `cond` is true.\n\n```\njulia> @assert 1 + 1 == 2\n```",
        "b" | "benchmark" => "    @b expr [setup=(…)] [seconds=0.5] [samples=10000]\n\nRuns `expr` repeatedly for about half a second (or `seconds`, at most `samples` times) and returns a `Sample` (fields `time`, `allocs`, `bytes`, `samples`) for the fastest run, shown as Chairmarks shows it. A `setup` expression, as BenchmarkTools writes it, runs before every sample and is not timed; its variables are the session's.\n\n```\njulia> s = @b zeros(1000);\n\njulia> s.bytes >= 8000, s.samples > 1\n(true, true)\n```",
        "btime" => "    @btime expr\n\nRuns `expr` repeatedly for about half a second, prints the fastest time and its allocations as BenchmarkTools prints them, and returns the value.\n\n```\njulia> @btime zeros(1000);\n  ...\n```",
        "belapsed" => "    @belapsed expr [setup=(…)] [seconds=0.5] [samples=10000]\n\nRuns `expr` as `@btime` does and returns its fastest time in seconds (BenchmarkTools' `@belapsed`); `$x` interpolates a value.\n\n```\njulia> t = @belapsed sum($(rand(1000)));\n\njulia> t < 1\ntrue\n```",
        "ballocated" => "    @ballocated expr [setup=(…)]\n\nRuns `expr` as `@btime` does and returns the bytes its fastest run allocated (BenchmarkTools' `@ballocated`).\n\n```\njulia> @ballocated(zeros(1000)) >= 8000\ntrue\n```",
        "allocated" => "    @allocated expr\n\nEvaluates `expr` once and returns the bytes it allocated, discarding its value.\n\n```\njulia> @allocated(zeros(1000)) >= 8000\ntrue\n```",
        "." => "    @. expr\n\nTurns every call and operator in `expr` into its dotted (broadcast) form, fused into one pass.\n\n```\njulia> x = [1.0, 2.0]; @. x^2 + 1\n2-element Vector{Float64}:\n 2.0\n 5.0\n```",
        "view" => "    @view A[inds...]\n\nA view of the elements `A[inds...]` selects (see `?view`): writing it writes `A`. An index of single elements gives the element.\n\n```\njulia> x = [1, 2, 3]; v = @view x[2:end]; v[1] = 7; x\n3-element Vector{Int64}:\n 1\n 7\n 3\n```",
        "views" => "    @views expr\n\nEvaluates `expr` (an expression or a `begin … end` block, including the functions defined in it) with every slice `A[inds...]` it reads made a view, so writes through them change `A` and no copy is made. The place an assignment writes (`y[1:2] = …`) is indexed as usual.\n\n```\njulia> x = [1.0, 2.0, 3.0]; @views x[2:3] .*= 10; x\n3-element Vector{Float64}:\n  1.0\n 20.0\n 30.0\n```",
        "isdefined" => "    @isdefined x\n\nWhether the variable `x` is defined here (a local, a global or a builtin), without raising an `UndefVarError`.\n\n```\njulia> y = 1; @isdefined(y), @isdefined(never_assigned)\n(true, false)\n```",
        "inbounds" | "fastmath" | "simd" | "inline" | "noinline" => "    @inbounds, @fastmath, @simd, @inline, @noinline\n\nAccepted so pasted Julia code runs; they evaluate their expression unchanged (array operations are already whole-array kernels).\n\n```\njulia> @inbounds [1, 2][2]\n2\n```",
        _ => return None,
    })
}
