//! Julia's `Test` standard library: `@test` (with keywords for the call, `broken=`, `skip=`),
//! `@test_throws`, `@test_broken`, `@test_skip`, `@test_logs`, `@test_warn`, `@test_nowarn`,
//! `@inferred`, and `@testset` around a block or a `for` loop.
//!
//! A result is counted in the innermost test set, and a failure or error is printed at once,
//! to standard output, as Julia prints it. When the outermost test set ends it prints its
//! summary table, and raises `TestSetException` if anything failed or errored. Outside any
//! test set, a passing test returns `Test Passed` and a failing one raises at once. An
//! exception escaping a test set's body is recorded as an error of that set; an interrupt is
//! never recorded, it stops everything.

use super::logging::{is_interrupt, LogRecord};
use super::Interp;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::object::Object;
use crate::output::Stream;
use crate::value::Value;
use difflab_syntax::{line_col, Arg, BinOp, Expr, ExprKind, Kwarg, Name, Span};
use std::any::Any;
use std::rc::Rc;
use std::time::Instant;

/// The counts of one test set, and its nested sets once they ended.
pub(crate) struct TestSet {
    name: String,
    passed: usize,
    failed: usize,
    errored: usize,
    broken: usize,
    children: Vec<TestSet>,
    verbose: bool,
    started: Instant,
    seconds: f64,
}

impl TestSet {
    fn new(name: String, verbose: bool) -> TestSet {
        TestSet {
            name,
            passed: 0,
            failed: 0,
            errored: 0,
            broken: 0,
            children: Vec::new(),
            verbose,
            started: Instant::now(),
            seconds: 0.0,
        }
    }

    /// Pass, fail, error and broken counts, nested sets included.
    fn totals(&self) -> [usize; 4] {
        self.children.iter().fold(
            [self.passed, self.failed, self.errored, self.broken],
            |mut sum, child| {
                for (s, c) in sum.iter_mut().zip(child.totals()) {
                    *s += c;
                }
                sum
            },
        )
    }

    fn all_passed(&self) -> bool {
        let [_, failed, errored, _] = self.totals();
        failed == 0 && errored == 0
    }

    /// The rows of the summary: this set, then, when it has anything but passes or is
    /// verbose, its nested sets, indented by depth.
    fn rows(&self, depth: usize, verbose: bool, rows: &mut Vec<(String, [usize; 4], f64)>) {
        let totals = self.totals();
        rows.push((
            format!("{}{}", "  ".repeat(depth), self.name),
            totals,
            self.seconds,
        ));
        let [_, failed, errored, broken] = totals;
        if verbose || self.verbose || failed + errored + broken > 0 {
            for child in &self.children {
                child.rows(depth + 1, verbose || self.verbose, rows);
            }
        }
    }

    /// Julia's `Test Summary:` table: a column for each kind of result that occurred (passes
    /// always), then the total and the time; zero counts are left blank.
    fn summary(&self) -> String {
        let mut rows = Vec::new();
        self.rows(0, self.verbose, &mut rows);
        let totals = self.totals();
        let headers = ["Pass", "Fail", "Error", "Broken"];
        let shown: Vec<usize> = (0..4).filter(|&k| totals[k] > 0 || k == 0).collect();
        let name_width = rows
            .iter()
            .map(|(name, ..)| name.chars().count())
            .chain(["Test Summary:".len()])
            .max()
            .unwrap_or(0);
        // Cells of the header and of each row: the shown counts, the total, the time.
        let cells = |counts: &[usize; 4], seconds: f64| -> Vec<String> {
            let mut cells: Vec<String> = shown
                .iter()
                .map(|&k| match counts[k] {
                    0 => String::new(),
                    n => n.to_string(),
                })
                .collect();
            cells.push(counts.iter().sum::<usize>().to_string());
            cells.push(format!("{seconds:.1}s"));
            cells
        };
        let mut table: Vec<(String, Vec<String>)> = vec![(
            "Test Summary:".to_string(),
            shown
                .iter()
                .map(|&k| headers[k].to_string())
                .chain(["Total".to_string(), "Time".to_string()])
                .collect(),
        )];
        table.extend(
            rows.iter()
                .map(|(name, counts, seconds)| (name.clone(), cells(counts, *seconds))),
        );
        let widths: Vec<usize> = (0..table[0].1.len())
            .map(|c| {
                table
                    .iter()
                    .map(|(_, cells)| cells[c].len())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        table
            .iter()
            .map(|(name, cells)| {
                let padded: Vec<String> = cells
                    .iter()
                    .zip(&widths)
                    .map(|(cell, &w)| format!("{cell:>w$}"))
                    .collect();
                let name_pad = name_width - name.chars().count();
                format!("{name}{} | {}\n", " ".repeat(name_pad), padded.join("  "))
            })
            .collect()
    }
}

/// What one test gave.
enum Outcome {
    Pass,
    /// A failure, with the lines explaining it after `Test Failed at …`.
    Fail(String),
    /// A failure of `@test_logs`, with the lines after `Log Test Failed at …`.
    LogFail(String),
    /// An error (or an unexpected pass of a broken test), with its report.
    Error(String),
    Broken(String),
}

/// The value a test returns: `Test Passed`, `Test Broken`, or the failure's report inside a
/// test set.
struct TestResult {
    kind: &'static str,
    shown: String,
}

impl Object for TestResult {
    fn type_name(&self) -> String {
        format!("Test.{}", self.kind)
    }

    fn show(&self) -> String {
        self.shown.clone()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// How `@test` and `@test_broken` saw their expression.
enum Evaluated {
    Bool(bool, Option<String>),
    NotBool(Value),
    Threw(Flow),
}

/// `@testset` options given before the name (`verbose = true`).
struct TestSetOptions {
    verbose: bool,
}

impl Interp {
    /// The macros of `Test`; `None` for other names.
    pub(crate) fn eval_test_macro(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<EvalResult> {
        Some(match name {
            "test" => self.test(args, span),
            "test_broken" => self.test_broken(args, span),
            "test_skip" => match args.first() {
                Some(expr) => {
                    let shown = self.source_text(expr.span);
                    self.record(Outcome::Broken(shown), span)
                }
                None => Err(usage("@test_skip expr")),
            },
            "test_throws" => self.test_throws(args, span),
            "test_logs" => self.test_logs(args, span),
            "test_warn" | "test_nowarn" => self.test_warn(name == "test_warn", args, span),
            "inferred" => match args {
                [expr] => self.eval(expr),
                _ => Err(usage("@inferred f(x)")),
            },
            "testset" => self.testset(args, span),
            _ => return None,
        })
    }

    /// Counts `outcome` in the innermost test set (printing a failure at once), or outside
    /// any test set returns `Test Passed` / `Test Broken` and raises on a failure.
    fn record(&mut self, outcome: Outcome, span: Span) -> EvalResult {
        let place = self.place(span);
        let (kind, shown) = match &outcome {
            Outcome::Pass => ("Pass", "Test Passed".to_string()),
            Outcome::Broken(expression) => {
                ("Broken", format!("Test Broken\n  Expression: {expression}"))
            }
            Outcome::Fail(lines) => ("Fail", format!("Test Failed at {place}\n{lines}")),
            Outcome::LogFail(lines) => ("Fail", format!("Log Test Failed at {place}\n{lines}")),
            Outcome::Error(lines) => ("Error", format!("Error During Test at {place}\n{lines}")),
        };
        let in_set = !self.testsets.is_empty();
        if let Some(set) = self.testsets.last_mut() {
            match outcome {
                Outcome::Pass => set.passed += 1,
                Outcome::Broken(_) => set.broken += 1,
                Outcome::Fail(_) | Outcome::LogFail(_) => set.failed += 1,
                Outcome::Error(_) => set.errored += 1,
            }
        }
        if matches!(kind, "Fail" | "Error") {
            let name = self
                .testsets
                .last()
                .map(|set| format!("{}: ", set.name))
                .unwrap_or_default();
            self.out
                .write(Stream::Stdout, &format!("{name}{shown}\n\n"));
            if !in_set {
                return Err(fail(
                    ErrorKind::FallbackTestSetException,
                    "There was an error during testing",
                ));
            }
        }
        Ok(Value::object(TestResult { kind, shown }))
    }

    /// `source:line` of `span`, as Julia places a test.
    fn place(&self, span: Span) -> String {
        let source = self.source();
        let (line, _) = line_col(&source.text, span.start as usize);
        format!("{}:{line}", source.name)
    }

    /// Evaluates a test expression: the keywords after it go to its call (`a ≈ b atol=0.1`
    /// is `isapprox(a, b; atol=0.1)`), and a comparison is shown with its evaluated sides.
    fn evaluate_test(&mut self, expr: &Expr, keywords: &[(Name, &Expr)]) -> Evaluated {
        let call = with_keywords(expr, keywords);
        let expr = call.as_ref().unwrap_or(expr);
        let comparison = match &expr.kind {
            ExprKind::Binary {
                op,
                lhs,
                rhs,
                dotted: false,
            } if is_comparison(*op) => Some((op, lhs, rhs)),
            _ => None,
        };
        let result = match comparison {
            Some((op, lhs, rhs)) => {
                let sides = self.eval(lhs).and_then(|l| Ok((l, self.eval(rhs)?)));
                sides.and_then(|(l, r)| {
                    let value = self
                        .binary(*op, false, &l, &r)
                        .map_err(|f| self.locate(f, expr.span))?;
                    let shown = format!(
                        "{} {} {}",
                        crate::display::repr(&l),
                        op_text(*op),
                        crate::display::repr(&r)
                    );
                    Ok((value, Some(shown)))
                })
            }
            None => self.eval(expr).map(|v| (v, None)),
        };
        match result {
            Ok((Value::Bool(b), shown)) => Evaluated::Bool(b, shown),
            Ok((other, _)) => Evaluated::NotBool(other),
            Err(flow) => Evaluated::Threw(flow),
        }
    }

    fn test(&mut self, args: &[Expr], span: Span) -> EvalResult {
        let (expr, keywords) = split_keywords(args).ok_or_else(|| usage("@test expr"))?;
        let mut passed_on = Vec::new();
        let (mut broken, mut skip) = (false, false);
        for &(name, value) in &keywords {
            match name.as_str() {
                "broken" => broken = self.truthy(value)?,
                "skip" => skip = self.truthy(value)?,
                _ => passed_on.push((name, value)),
            }
        }
        let expression = self.source_text(expr.span);
        if skip {
            return self.record(Outcome::Broken(expression), span);
        }
        let evaluated = self.evaluate_test(expr, &passed_on);
        if broken {
            return self.broken_outcome(evaluated, expression, span);
        }
        let outcome = match evaluated {
            Evaluated::Bool(true, _) => Outcome::Pass,
            Evaluated::Bool(false, shown) => Outcome::Fail(match shown {
                Some(shown) => format!("  Expression: {expression}\n   Evaluated: {shown}"),
                None => format!("  Expression: {expression}"),
            }),
            Evaluated::NotBool(value) => Outcome::Error(format!(
                "  Expression evaluated to non-Boolean\n  Expression: {expression}\n       Value: {}",
                crate::display::repr(&value)
            )),
            Evaluated::Threw(flow) => self.threw(flow, &expression)?,
        };
        self.record(outcome, span)
    }

    fn test_broken(&mut self, args: &[Expr], span: Span) -> EvalResult {
        let (expr, keywords) = split_keywords(args).ok_or_else(|| usage("@test_broken expr"))?;
        let expression = self.source_text(expr.span);
        let evaluated = self.evaluate_test(expr, &keywords);
        self.broken_outcome(evaluated, expression, span)
    }

    /// A broken test is broken while it fails or throws; passing is an error.
    fn broken_outcome(
        &mut self,
        evaluated: Evaluated,
        expression: String,
        span: Span,
    ) -> EvalResult {
        let outcome = match evaluated {
            Evaluated::Bool(true, _) => Outcome::Error(format!(
                " Unexpected Pass\n Expression: {expression}\n Got correct result, please change to @test if no longer broken."
            )),
            Evaluated::Threw(flow) if is_interrupt(&flow) => return Err(flow),
            _ => Outcome::Broken(expression),
        };
        self.record(outcome, span)
    }

    /// The error outcome of a test whose expression threw; an interrupt passes on.
    fn threw(&self, flow: Flow, expression: &str) -> Result<Outcome, Flow> {
        match flow {
            Flow::Error(e) if e.kind != ErrorKind::InterruptException => {
                Ok(Outcome::Error(format!(
                    "  Test threw exception\n  Expression: {expression}\n  {}",
                    e.headline()
                )))
            }
            other => Err(other),
        }
    }

    fn test_throws(&mut self, args: &[Expr], span: Span) -> EvalResult {
        let [expected, expr] = args else {
            return Err(usage("@test_throws ExceptionType expr"));
        };
        let expected = self.eval(expected)?;
        let expression = self.source_text(expr.span);
        let thrown = match self.eval(expr) {
            Ok(_) => None,
            Err(flow) if is_interrupt(&flow) => return Err(flow),
            Err(Flow::Error(e)) => Some(e),
            Err(other) => return Err(other),
        };
        let expected_shown = crate::display::repr(&expected);
        let outcome = match thrown {
            None => Outcome::Fail(format!(
                "  Expression: {expression}\n    Expected: {expected_shown}\n  No exception thrown"
            )),
            Some(e) => {
                let headline = e.headline();
                let caught = match &e.payload {
                    Some(v) => v.clone(),
                    None => Value::Exception(Rc::new(*e)),
                };
                let matches = match &expected {
                    Value::Str(text) => headline.contains(text.as_str()),
                    _ if crate::builtins::regex::as_regex(&expected).is_some() => {
                        crate::builtins::regex::is_match(&expected, &headline)
                    }
                    _ => self.exception_matches(&caught, &expected)?,
                };
                if matches {
                    Outcome::Pass
                } else {
                    Outcome::Fail(format!(
                        "  Expression: {expression}\n    Expected: {expected_shown}\n      Thrown: {}",
                        caught.type_name()
                    ))
                }
            }
        };
        self.record(outcome, span)
    }

    /// Whether a thrown value is of the expected exception type, or equals an expected
    /// exception value.
    fn exception_matches(&mut self, caught: &Value, expected: &Value) -> Result<bool, Flow> {
        let call = |me: &mut Interp, name: &str, args: Vec<Value>| {
            let f = crate::builtins::lookup(Name::new(name))
                .map(Value::Builtin)
                .expect("isa and == are builtins");
            me.call_value(&f, args, Vec::new())
        };
        let result = match call(self, "isa", vec![caught.clone(), expected.clone()]) {
            Err(flow) if is_interrupt(&flow) => return Err(flow),
            Err(_) => call(self, "==", vec![caught.clone(), expected.clone()])?,
            Ok(v) => v,
        };
        Ok(matches!(result, Value::Bool(true)))
    }

    fn test_logs(&mut self, args: &[Expr], span: Span) -> EvalResult {
        let Some((expr, settings)) = args.split_last() else {
            return Err(usage("@test_logs (:warn, \"message\") ... expr"));
        };
        let mut any_order = false;
        let mut patterns = Vec::new();
        for setting in settings {
            match &setting.kind {
                ExprKind::Assign {
                    target,
                    value,
                    op: None,
                    ..
                } if matches!(&target.kind, ExprKind::Ident(n) if n.as_str() == "match_mode") => {
                    any_order =
                        matches!(self.eval(value)?, Value::Symbol(s) if s.as_str() == "any");
                }
                _ => patterns.push(LogPattern::of(&self.eval(setting)?)?),
            }
        }
        let expression = self.source_text(expr.span);
        let (value, records) = self.capturing_logs(|me| me.eval(expr));
        let records: Vec<LogRecord> = records
            .into_iter()
            .filter(|r| r.level > super::logging::LogLevel::Debug)
            .collect();
        let value = match value {
            Ok(v) => v,
            Err(flow) => {
                let outcome = self.threw(flow, &expression)?;
                return self.record(outcome, span);
            }
        };
        let matched = if any_order {
            patterns
                .iter()
                .all(|p| records.iter().any(|r| p.matches(r)))
        } else {
            patterns.len() == records.len()
                && patterns.iter().zip(&records).all(|(p, r)| p.matches(r))
        };
        let outcome = if matched {
            Outcome::Pass
        } else {
            let captured: String = records
                .iter()
                .map(|r| format!("\n    (:{}, {:?})", r.level.symbol(), r.message))
                .collect();
            let wanted: Vec<String> = patterns.iter().map(LogPattern::shown).collect();
            Outcome::LogFail(format!(
                "  Expression: {expression}\n  Log Pattern: {}\n  Captured Logs: {captured}",
                wanted.join(" ")
            ))
        };
        // A failure outside a test set has raised; inside one, the call's value comes back.
        self.record(outcome, span)?;
        Ok(value)
    }

    /// `@test_warn "text" expr` (something logged contains the text) and `@test_nowarn expr`
    /// (nothing logged); both return the value of `expr`.
    fn test_warn(&mut self, want_warning: bool, args: &[Expr], span: Span) -> EvalResult {
        let (wanted, expr) = match (want_warning, args) {
            (true, [wanted, expr]) => (Some(self.eval(wanted)?), expr),
            (false, [expr]) => (None, expr),
            _ => {
                return Err(usage(if want_warning {
                    "@test_warn \"text\" expr"
                } else {
                    "@test_nowarn expr"
                }))
            }
        };
        let expression = self.source_text(expr.span);
        let (value, records) = self.capturing_logs(|me| me.eval(expr));
        let value = match value {
            Ok(v) => v,
            Err(flow) => {
                let outcome = self.threw(flow, &expression)?;
                return self.record(outcome, span);
            }
        };
        let printed: String = records.iter().map(LogRecord::render).collect();
        let ok = match &wanted {
            Some(Value::Str(text)) => printed.contains(text.as_str()),
            Some(other) => {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    format!(
                        "@test_warn takes the text to find, got {}",
                        other.type_name()
                    ),
                ))
            }
            None => records.is_empty(),
        };
        let outcome = if ok {
            Outcome::Pass
        } else {
            Outcome::Fail(format!(
                "  Expression: {expression}\n  Logged: {:?}",
                printed.trim_end()
            ))
        };
        self.record(outcome, span)?;
        Ok(value)
    }

    /// `@testset [options] ["name"] begin … end` and `@testset ["name"] for … end`.
    fn testset(&mut self, args: &[Expr], span: Span) -> EvalResult {
        let Some((body, head)) = args.split_last() else {
            return Err(usage("@testset \"name\" begin ... end"));
        };
        let mut options = TestSetOptions { verbose: false };
        let mut name = None;
        for part in head {
            match &part.kind {
                ExprKind::Assign {
                    target,
                    value,
                    op: None,
                    ..
                } => match &target.kind {
                    ExprKind::Ident(n) if n.as_str() == "verbose" => {
                        options.verbose = self.truthy(value)?
                    }
                    ExprKind::Ident(n) if n.as_str() == "showtiming" => {
                        self.truthy(value)?;
                    }
                    _ => return Err(usage("@testset [verbose=true] \"name\" begin ... end")),
                },
                _ => name = Some(part),
            }
        }
        match &body.kind {
            ExprKind::For {
                generators,
                body: loop_body,
            } => {
                // Each iteration is a test set of its own, named with the loop's variables.
                let inner = Expr {
                    kind: ExprKind::Macro {
                        name: difflab_syntax::name!("testset"),
                        args: head
                            .iter()
                            .cloned()
                            .chain([Expr {
                                kind: ExprKind::Block(loop_body.clone()),
                                span: body.span,
                            }])
                            .collect(),
                    },
                    span,
                };
                let looped = Expr {
                    kind: ExprKind::For {
                        generators: generators.clone(),
                        body: vec![inner],
                    },
                    span: body.span,
                };
                self.eval(&looped)?;
                Ok(Value::Nothing)
            }
            ExprKind::Block(block) => {
                let name = match name {
                    Some(n) => crate::display::print_string(&self.eval(n)?),
                    None => "test set".to_string(),
                };
                self.run_testset(name, options, block, span)
            }
            _ => Err(usage("@testset \"name\" begin ... end")),
        }
    }

    fn run_testset(
        &mut self,
        name: String,
        options: TestSetOptions,
        block: &difflab_syntax::Block,
        span: Span,
    ) -> EvalResult {
        self.testsets.push(TestSet::new(name, options.verbose));
        let result = self.eval_let(&[], block);
        let mut set = self.testsets.pop().expect("pushed above");
        set.seconds = set.started.elapsed().as_secs_f64();
        match result {
            Err(flow) if is_interrupt(&flow) => return Err(flow),
            Err(Flow::Error(e)) => {
                set.errored += 1;
                let place = self.place(span);
                self.out.write(
                    Stream::Stdout,
                    &format!(
                        "{}: Error During Test at {place}\n  Got exception outside of a @test\n  {}\n\n",
                        set.name,
                        e.headline()
                    ),
                );
            }
            _ => {}
        }
        if let Some(parent) = self.testsets.last_mut() {
            parent.children.push(set);
            return Ok(Value::Nothing);
        }
        self.out.write(Stream::Stdout, &set.summary());
        if set.all_passed() {
            return Ok(Value::Nothing);
        }
        let [passed, failed, errored, broken] = set.totals();
        Err(fail(
            ErrorKind::TestSetException,
            format!("Some tests did not pass: {passed} passed, {failed} failed, {errored} errored, {broken} broken."),
        ))
    }
}

/// A pattern of `@test_logs`: `(:warn,)`, `(:warn, "message")` or `(:warn, r"regex")`.
struct LogPattern {
    level: String,
    message: Option<Value>,
}

impl LogPattern {
    fn of(v: &Value) -> Result<LogPattern, Flow> {
        let items = match v {
            Value::Tuple(items) => items.as_slice(),
            other => std::slice::from_ref(other),
        };
        match items {
            [Value::Symbol(level)] => Ok(LogPattern {
                level: level.as_str().to_string(),
                message: None,
            }),
            [Value::Symbol(level), message, ..]
                if matches!(message, Value::Str(_))
                    || crate::builtins::regex::as_regex(message).is_some() =>
            {
                Ok(LogPattern {
                    level: level.as_str().to_string(),
                    message: Some(message.clone()),
                })
            }
            _ => Err(usage(
                "@test_logs takes patterns such as (:warn, \"message\")",
            )),
        }
    }

    fn matches(&self, record: &LogRecord) -> bool {
        self.level == record.level.symbol()
            && self.message.as_ref().is_none_or(|m| match m {
                Value::Str(text) => **text == record.message,
                regex => crate::builtins::regex::is_match(regex, &record.message),
            })
    }

    fn shown(&self) -> String {
        match &self.message {
            Some(m) => format!("(:{}, {})", self.level, crate::display::repr(m)),
            None => format!("(:{},)", self.level),
        }
    }
}

fn usage(form: &str) -> Flow {
    fail(ErrorKind::ArgumentError, format!("usage: {form}"))
}

/// The test expression and the `name = value` keywords after it.
fn split_keywords(args: &[Expr]) -> Option<(&Expr, Vec<(Name, &Expr)>)> {
    let (expr, rest) = args.split_first()?;
    let keywords = rest
        .iter()
        .map(|k| match &k.kind {
            ExprKind::Assign {
                target,
                value,
                op: None,
                ..
            } => match &target.kind {
                ExprKind::Ident(name) => Some((*name, value.as_ref())),
                _ => None,
            },
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    Some((expr, keywords))
}

/// `expr` with the test's keywords added to its call: a comparison by `≈` becomes
/// `isapprox(a, b; kw...)`, a call gets them among its keywords. `None` when there are none.
fn with_keywords(expr: &Expr, keywords: &[(Name, &Expr)]) -> Option<Expr> {
    if keywords.is_empty() {
        return None;
    }
    let kwargs = keywords.iter().map(|&(name, value)| Kwarg {
        name,
        value: value.clone(),
        splat: false,
    });
    let kind = match &expr.kind {
        ExprKind::Binary {
            op: BinOp::Approx,
            dotted: false,
            lhs,
            rhs,
        } => ExprKind::Call {
            callee: Box::new(Expr {
                kind: ExprKind::Ident(difflab_syntax::name!("isapprox")),
                span: expr.span,
            }),
            args: [lhs, rhs]
                .into_iter()
                .map(|e| Arg {
                    value: (**e).clone(),
                    splat: false,
                })
                .collect(),
            kwargs: kwargs.collect(),
            dotted: false,
        },
        ExprKind::Call {
            callee,
            args,
            kwargs: given,
            dotted,
        } => ExprKind::Call {
            callee: callee.clone(),
            args: args.clone(),
            kwargs: given.iter().cloned().chain(kwargs).collect(),
            dotted: *dotted,
        },
        _ => return None,
    };
    Some(Expr {
        kind,
        span: expr.span,
    })
}

fn is_comparison(op: BinOp) -> bool {
    use BinOp::*;
    matches!(
        op,
        Eq | Ne | Lt | Le | Gt | Ge | Approx | Identical | NotIdentical | In | Subtype
    )
}

fn op_text(op: BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Eq => "==",
        Ne => "!=",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        Approx => "≈",
        Identical => "===",
        NotIdentical => "!==",
        In => "in",
        Subtype => "<:",
        _ => "?",
    }
}

/// The docstrings of the test macros.
pub fn test_macro_doc(name: &str) -> Option<&'static str> {
    Some(match name {
        "test" => "    @test expr [key=value ...]\n\nChecks that `expr` is `true`, as Julia's `Test` does: inside a `@testset` the result is counted and a failure is printed with the evaluated sides of a comparison; outside one a pass returns `Test Passed` and a failure raises. Keywords go to the call (`@test a ≈ b atol=1e-8` is `isapprox(a, b; atol=1e-8)`); `broken=true` and `skip=true` mark the test broken or skip it.\n\n```\njulia> @test 1 + 1 == 2\nTest Passed\n\njulia> @test sqrt(2) ≈ 1.414 atol=1e-3\nTest Passed\n```",
        "test_throws" => "    @test_throws T expr\n\nChecks that `expr` throws an exception of type `T` (or equal to the exception value `T`, or whose message contains the string `T`).\n\n```\njulia> @test_throws DomainError sqrt(-1.0)\nTest Passed\n```",
        "test_broken" | "test_skip" => "    @test_broken expr\n    @test_skip expr\n\nA test known to fail: `@test_broken` counts it as broken while `expr` is false or throws, and as an error once it passes (so the mark is removed); `@test_skip` counts it as broken without evaluating it.\n\n```\njulia> @test_broken 1 == 2\nTest Broken\n  Expression: 1 == 2\n```",
        "test_logs" => "    @test_logs (level, message)... [match_mode=:any] expr\n\nEvaluates `expr` and checks the messages it logged (`@warn`, `@info`, library warnings) against the patterns, in order (`match_mode=:any`: each pattern matches some message). A pattern is `(:warn,)` or `(:warn, \"exact message\")`; debug messages are ignored. Returns the value of `expr`.\n\n```\njulia> f(x) = (x < 0 && @warn(\"negative\"); abs(x));\n\njulia> @test_logs (:warn, \"negative\") f(-2)\n2\n```",
        "test_warn" | "test_nowarn" => "    @test_warn \"text\" expr\n    @test_nowarn expr\n\nChecks that what `expr` logs contains `text`, or that it logs nothing; returns the value of `expr`.\n\n```\njulia> @test_nowarn sqrt(4.0)\n2.0\n```",
        "testset" => "    @testset [verbose=true] \"name\" begin ... end\n    @testset \"name \\$i\" for i in ... end\n\nA test set, as in Julia's `Test`: the tests inside are counted (a failure is printed and the set goes on), nested sets fold into their parent, and the outermost prints a summary table, raising `TestSetException` when anything failed or errored. The body is a local scope; an exception outside a `@test` is counted as an error. With a `for` loop, each iteration is a set of its own.\n\n```\njulia> @testset \"arithmetic\" begin\n           @test 1 + 1 == 2\n           @test 2 * 3 == 6\n       end;\nTest Summary: | Pass  Total  Time\narithmetic    |    2      2  0.0s\n```",
        "inferred" => "    @inferred f(x)\n\nJulia's check that a call's return type is inferred; difflab has no type inference to check, so it returns the call's value.\n\n```\njulia> @inferred abs(-3)\n3\n```",
        _ => return None,
    })
}
