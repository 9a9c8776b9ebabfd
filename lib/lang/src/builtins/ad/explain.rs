//! `explain(op, f, backend, x)`: how a derivative was computed. It prepares the operator (or
//! uses the preparation given), runs it, and reports the path that ran (backend, mode, chunk
//! size or sweeps, fallbacks), for sparse backends the detected pattern with its coloring and
//! the number of colors against the dense count of passes, whether the function ran on a
//! recording, and the time and memory of each stage (detection, coloring, tracing or recording,
//! evaluation). The stages are measured where they happen, during preparation ([`Stage`]).

use super::operators::Op;
use super::prep::{as_prep, Prep};
use crate::allocator::Allocations;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::{MimeData, Object};
use crate::value::Value;
use difflab_ad::di::backend::default_chunk;
use difflab_ad::di::{Backend, FdType};
use difflab_syntax::Name;
use std::any::Any;
use std::rc::Rc;
use std::time::Instant;

/// One stage of a preparation or call: its name, its time and what it allocated.
#[derive(Debug, Clone)]
pub struct Stage {
    /// `detection`, `coloring`, `tracing`, `recording`, `evaluation`, ...
    pub name: &'static str,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Bytes allocated.
    pub bytes: u64,
}

/// Runs `body` as the stage `name`, appending its time and allocations to `stages`.
pub fn timed<T>(stages: &mut Vec<Stage>, name: &'static str, body: impl FnOnce() -> T) -> T {
    let (start, before) = (Instant::now(), Allocations::now());
    let result = body();
    stages.push(Stage {
        name,
        seconds: start.elapsed().as_secs_f64(),
        bytes: Allocations::now().since(before).bytes,
    });
    result
}

/// What `explain` found.
struct Explanation {
    title: String,
    path: Vec<String>,
    mode: &'static str,
    chunk: Option<usize>,
    passes: usize,
    dense_passes: usize,
    colors: Option<usize>,
    stages: Vec<Stage>,
    result: Value,
    prep: Value,
    spy: Option<Value>,
}

/// The operators `explain` accepts, by name.
const OPERATORS: &[Op] = &[
    Op::Derivative,
    Op::SecondDerivative,
    Op::Gradient,
    Op::Jacobian,
    Op::Hessian,
    Op::Pushforward,
    Op::Pullback,
    Op::Hvp,
];

fn argument_error(message: impl Into<String>) -> Flow {
    fail(ErrorKind::ArgumentError, message)
}

fn call_named(interp: &mut Interp, name: &str, args: Vec<Value>) -> EvalResult {
    let builtin =
        crate::builtins::lookup(Name::new(name)).expect("every operator and its prepare_ exist");
    interp.call(&Value::Builtin(builtin), args)
}

fn is_backend(v: &Value) -> bool {
    super::backends::as_backend(v).is_some() || super::sparse_ad::as_auto_sparse(v).is_some()
}

fn explain_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("explain", 4, usize::MAX)?;
    let op = match &args.pos[0] {
        Value::Builtin(b) => OPERATORS.iter().copied().find(|op| op.name() == b.name),
        _ => None,
    }
    .ok_or_else(|| {
        argument_error(format!(
            "explain: the first argument must be an operator ({}), got {}",
            OPERATORS
                .iter()
                .map(|o| o.name())
                .collect::<Vec<_>>()
                .join(", "),
            crate::display::repr(&args.pos[0])
        ))
    })?;
    let mut rest: Vec<Value> = args.pos[1..].to_vec();
    let given = rest.iter().position(|v| as_prep(v).is_some());
    let mut stages = Vec::new();
    let prep_value = match given {
        Some(k) => rest.remove(k),
        None => {
            let start = Instant::now();
            let prep = call_named(interp, &format!("prepare_{}", op.name()), rest.clone())?;
            stages.push(Stage {
                name: "preparation",
                seconds: start.elapsed().as_secs_f64(),
                bytes: 0,
            });
            prep
        }
    };
    let prep = as_prep(&prep_value).expect("a preparation");
    stages.retain(|s| s.name != "preparation" || prep.stages.is_empty());
    stages.splice(0..0, prep.stages.iter().cloned());
    let at = rest.iter().position(is_backend).ok_or_else(|| {
        argument_error("explain: no backend among the arguments (AutoForwardDiff(), …)")
    })?;
    let backend_value = rest[at].clone();
    let mut with_prep = rest.clone();
    with_prep.insert(at, prep_value.clone());
    // The fastest of a few runs, as the benchmarks report.
    let mut best: Option<Stage> = None;
    let mut result = Value::Nothing;
    let started = Instant::now();
    for _ in 0..5 {
        let mut one = Vec::new();
        result = timed(&mut one, "evaluation", || {
            call_named(interp, op.name(), with_prep.clone())
        })?;
        let run = one.pop().expect("timed");
        if best.as_ref().is_none_or(|b| run.seconds < b.seconds) {
            best = Some(run);
        }
        if started.elapsed().as_secs_f64() > 0.5 {
            break;
        }
    }
    stages.extend(best);
    let sparse = super::sparse_ad::as_auto_sparse(&backend_value);
    let dense = sparse.map_or_else(
        || {
            super::backends::as_backend(&backend_value)
                .expect("a backend")
                .clone()
        },
        |s| s.dense.clone(),
    );
    let spy = match &prep.plan {
        Some(_) => {
            let pattern = prep
                .field("sparsity_pattern")
                .expect("a sparse preparation");
            Some(call_named(
                interp,
                "spy",
                vec![pattern, prep_value.clone()],
            )?)
        }
        None => None,
    };
    let explanation = describe(op, &dense, prep, sparse.is_some(), stages, result, spy);
    Ok(Value::Object(Rc::new(Box::new(Explanation {
        prep: prep_value.clone(),
        ..explanation
    }))))
}

/// The path a call with `prep` takes.
fn describe(
    op: Op,
    backend: &Backend,
    prep: &Prep,
    sparse: bool,
    stages: Vec<Stage>,
    result: Value,
    spy: Option<Value>,
) -> Explanation {
    let n: usize = if prep.scalar {
        1
    } else {
        prep.shape.iter().product()
    };
    let m = match (&result, op) {
        (_, Op::Gradient | Op::Hessian | Op::Hvp) => 1,
        (Value::Array(a), Op::Jacobian) => a.borrow().data.shape().first().copied().unwrap_or(1),
        (Value::Sparse(s), Op::Jacobian) => s.borrow().matrix.rows(),
        _ => 1,
    };
    let colors = prep.plan.as_ref().map(|p| p.ncolors());
    let directions = colors.unwrap_or(n);
    let second_order = matches!(op, Op::Hessian | Op::Hvp | Op::SecondDerivative);
    let mut path = Vec::new();
    let (mode, chunk, passes, dense_passes) = match backend.first_order() {
        Backend::Forward { chunk } if !second_order => {
            let c = chunk.unwrap_or_else(|| default_chunk(directions));
            let passes = directions.div_ceil(c);
            path.push(format!(
                "forward mode with dual numbers: {passes} pass{} carrying {c} partial{} each",
                plural(passes, "", "es"),
                plural(c, "", "s")
            ));
            (
                "forward",
                Some(c),
                passes,
                n.div_ceil(chunk.unwrap_or_else(|| default_chunk(n))),
            )
        }
        Backend::Reverse { .. } if !second_order => {
            let sweeps = if op == Op::Jacobian {
                colors.unwrap_or(m)
            } else {
                1
            };
            path.push(format!(
                "reverse mode: the function runs once recording a tape, then {sweeps} backward sweep{}",
                plural(sweeps, "", "s")
            ));
            (
                "reverse",
                None,
                sweeps,
                if op == Op::Jacobian { m } else { 1 },
            )
        }
        Backend::FiniteDiff { fdtype, .. } if !second_order => {
            let per = if *fdtype == FdType::Central { 2 } else { 1 };
            path.push(format!(
                "finite differences ({}): {} evaluations of the function",
                if per == 2 { "central" } else { "forward" },
                per * directions + 1
            ));
            ("finite differences", None, per * directions, per * n)
        }
        Backend::ZeroForward | Backend::ZeroReverse if !second_order => {
            path.push("zero backend: the function runs once and every derivative is zero".into());
            ("zero", None, 0, 0)
        }
        Backend::Symbolic { .. } if !second_order => {
            path.push("symbolic: the function was traced into a program at preparation; derivatives are sweeps over its instructions".into());
            ("symbolic", None, directions.div_ceil(32), n.div_ceil(32))
        }
        _ => {
            let (outer, inner) = match backend {
                Backend::SecondOrder { outer, inner } => (outer.to_string(), inner.to_string()),
                other => (other.to_string(), other.to_string()),
            };
            let hvps = if op == Op::Hessian { directions } else { 1 };
            path.push(format!(
                "second order: {outer} over {inner}, {hvps} Hessian-vector product{}",
                plural(hvps, "", "s")
            ));
            (
                "second order",
                None,
                hvps,
                if op == Op::Hessian { n } else { 1 },
            )
        }
    };
    if let (true, Some(k)) = (sparse, colors) {
        path.push(format!(
            "sparse: {k} color{} instead of {} dense direction{}; each compressed column (or row) is decompressed into the pattern's entries",
            plural(k, "", "s"),
            if matches!(backend.first_order(), Backend::Reverse { .. }) && !second_order { m } else { n },
            plural(n, "", "s")
        ));
    }
    let runs_on = match &*prep.compiled.borrow() {
        Some(Ok(c)) => format!(
            "each call runs the {} instead of the function",
            prep_tape(c)
        ),
        Some(Err(why)) => format!("each call runs the function as written: {why}"),
        None => "each call runs the function as written".into(),
    };
    path.push(runs_on);
    Explanation {
        title: format!("{} with {}", op.name(), backend_label(prep, sparse)),
        path,
        mode,
        chunk,
        passes,
        dense_passes,
        colors,
        stages,
        result,
        prep: Value::Nothing,
        spy,
    }
}

fn prep_tape(c: &super::prep::Compiled) -> String {
    match &c.tape {
        super::prep::StandIn::Tape(t) => format!("compiled tape of {} operations", t.len()),
        super::prep::StandIn::Program(p) => format!(
            "recording of {} instructions{}",
            p.len(),
            super::prep::branch_checks(p)
        ),
    }
}

fn backend_label(prep: &Prep, sparse: bool) -> String {
    let backend = match &prep.mixed_reverse {
        Some(reverse) => format!("MixedMode({}, {reverse})", prep.backend),
        None => prep.backend.to_string(),
    };
    if sparse {
        format!("AutoSparse({backend})")
    } else {
        backend
    }
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

fn duration(seconds: f64) -> String {
    crate::builtins::bench::format_duration(std::time::Duration::from_secs_f64(seconds))
}

impl Object for Explanation {
    fn type_name(&self) -> String {
        "Explanation".into()
    }

    fn show(&self) -> String {
        let mut out = format!("{}\n", self.title);
        for line in &self.path {
            out.push_str(&format!("  {line}\n"));
        }
        out.push_str("stages:\n");
        for s in &self.stages {
            let memory = if s.bytes > 0 {
                format!(
                    "  ({} allocated)",
                    crate::builtins::bench::format_bytes(s.bytes)
                )
            } else {
                String::new()
            };
            out.push_str(&format!(
                "  {:<12} {:>12}{memory}\n",
                s.name,
                duration(s.seconds)
            ));
        }
        if let Some(spy) = &self.spy {
            out.push_str("pattern and coloring:\n");
            out.push_str(&crate::display::plain(spy));
        }
        out.trim_end().to_string()
    }

    fn repr(&self) -> String {
        format!("Explanation of {}", self.title)
    }

    fn field(&self, name: &str) -> Option<Value> {
        let int = |k: usize| Value::Int(k as i64);
        match name {
            "mode" => Some(Value::str(self.mode)),
            "chunk" => Some(self.chunk.map_or(Value::Nothing, int)),
            "passes" => Some(int(self.passes)),
            "dense_passes" => Some(int(self.dense_passes)),
            "colors" => Some(self.colors.map_or(Value::Nothing, int)),
            "path" => Some(Value::str(self.path.join("\n"))),
            "result" => Some(self.result.clone()),
            "prep" => Some(self.prep.clone()),
            "stages" => Some(Value::named_tuple(
                self.stages
                    .iter()
                    .map(|s| (Name::new(s.name), Value::Float(s.seconds)))
                    .collect(),
            )),
            "spy" => self.spy.clone(),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec![
            "mode",
            "chunk",
            "passes",
            "dense_passes",
            "colors",
            "path",
            "result",
            "prep",
            "stages",
            "spy",
        ]
    }

    fn rich(&self) -> Vec<MimeData> {
        let escape = |s: &str| {
            s.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        let mut html = format!("<div><b>{}</b><ul>", escape(&self.title));
        for line in &self.path {
            html.push_str(&format!("<li>{}</li>", escape(line)));
        }
        html.push_str("</ul><table><tr><th>stage</th><th>time</th><th>allocated</th></tr>");
        for s in &self.stages {
            html.push_str(&format!(
                "<tr><td>{}</td><td style=\"white-space:nowrap\">{}</td><td style=\"white-space:nowrap\">{}</td></tr>",
                s.name,
                duration(s.seconds),
                crate::builtins::bench::format_bytes(s.bytes)
            ));
        }
        html.push_str("</table>");
        if let Some(svg) = self.spy.as_ref().and_then(crate::builtins::plots::svg_of) {
            html.push_str(&svg);
        }
        html.push_str("</div>");
        vec![("text/html".into(), html)]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

crate::builtins! {
    "explain" => explain_, false, "    explain(op, f, [prep,] backend, x, [contexts...])\n    explain(op, f!, y, backend, x)\n\nHow `op(f, backend, x)` is computed (`op` is `derivative`, `gradient`, `jacobian`, `hessian`, `pushforward`, `pullback`, `hvp` or `second_derivative`): it prepares the operator (or uses the preparation given), runs it, and shows the path that ran (mode, chunk size and passes, or sweeps, or Hessian-vector products; whether each call runs the function or a recording of it), for sparse backends the number of colors against the dense count of directions and the pattern coloured by group, and the time and memory of each stage (detection, coloring, tracing, recording, evaluation: the fastest of a few runs). Notebooks show it as HTML with the coloured spy plot. Its fields: `mode`, `chunk`, `passes`, `dense_passes`, `colors`, `stages` (seconds by stage), `path`, `result`, `prep`, `spy`.\n\n```\njulia> e = explain(jacobian, x -> diff(x .^ 2), AutoSparse(AutoForwardDiff()), rand(10));\n\njulia> e.colors, e.passes, e.dense_passes\n(2, 1, 1)\n\njulia> e.mode\n\"forward\"\n\njulia> e = explain(gradient, x -> sum(abs2, x), AutoForwardDiff(chunksize=3), ones(10));\n\njulia> e.chunk, e.passes\n(3, 4)\n```";
}
