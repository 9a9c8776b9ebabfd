//! `formula(f, x)`: the derivative the symbolic backend records for `f`, shown as a formula
//! (Unicode text at the terminal, LaTeX in notebooks), with shared subexpressions named.

use super::sparse_ad::tensor_function;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::{MimeData, Object};
use crate::value::convert::operand;
use crate::value::Value;
use difflab_ad::symbolic::{subscript, Formula, Program};
use std::any::Any;
use std::rc::Rc;

/// The most operations a formula is written with.
const MAX_OPERATIONS: usize = 80;

/// A derivative written as a formula, as a value.
struct FormulaValue {
    formula: Formula,
    /// The function's name, for `∂f/∂x`.
    name: String,
    /// True when the function returns a number (entries are `∂f/∂xⱼ`, not `∂yᵢ/∂xⱼ`).
    scalar_output: bool,
}

impl FormulaValue {
    /// `(text, LaTeX)` of the left side of entry `(output, input)`.
    fn left_side(&self, output: usize, input: usize) -> (String, String) {
        let (x, x_latex) = if self.formula.inputs == 1 {
            ("x".to_string(), "x".to_string())
        } else {
            (
                format!("x{}", subscript(input + 1)),
                format!("x_{{{}}}", input + 1),
            )
        };
        let (y, y_latex) = if self.scalar_output {
            (self.name.clone(), latex_name(&self.name))
        } else {
            (
                format!("y{}", subscript(output + 1)),
                format!("y_{{{}}}", output + 1),
            )
        };
        (
            format!("∂{y}/∂{x}"),
            format!("\\frac{{\\partial {y_latex}}}{{\\partial {x_latex}}}"),
        )
    }

    fn zero_note(&self) -> Option<&'static str> {
        let total = self.formula.inputs * self.formula.outputs;
        match self.formula.entries.len() {
            0 => Some("every derivative is 0"),
            n if n < total => Some("every other derivative is 0"),
            _ => None,
        }
    }
}

fn latex_name(name: &str) -> String {
    if name.chars().count() == 1 {
        name.to_string()
    } else {
        format!("\\mathrm{{{}}}", name.replace('_', "\\_"))
    }
}

impl Object for FormulaValue {
    fn type_name(&self) -> String {
        "Formula".into()
    }

    fn show(&self) -> String {
        let mut lines = Vec::new();
        for e in &self.formula.entries {
            let (left, _) = self.left_side(e.output, e.input);
            lines.push(format!("{left} = {}", e.text));
        }
        if let Some(note) = self.zero_note() {
            lines.push(format!("({note})"));
        }
        if !self.formula.definitions.is_empty() {
            lines.push("where".into());
            for (name, text, _, _) in &self.formula.definitions {
                lines.push(format!("  {name} = {text}"));
            }
        }
        lines.join("\n")
    }

    fn repr(&self) -> String {
        format!("Formula of {} entries", self.formula.entries.len())
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "text" => Some(Value::str(self.show())),
            "latex" => Some(Value::str(self.latex())),
            "entries" => Some(Value::list(
                self.formula
                    .entries
                    .iter()
                    .map(|e| {
                        Value::tuple(vec![
                            Value::Int(e.output as i64 + 1),
                            Value::Int(e.input as i64 + 1),
                            Value::str(e.text.clone()),
                        ])
                    })
                    .collect(),
            )),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["text", "latex", "entries"]
    }

    fn rich(&self) -> Vec<MimeData> {
        vec![("text/latex".into(), format!("$$\n{}\n$$", self.latex()))]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl FormulaValue {
    fn latex(&self) -> String {
        let mut rows = Vec::new();
        for e in &self.formula.entries {
            let (_, left) = self.left_side(e.output, e.input);
            rows.push(format!("{left} &= {}", e.latex));
        }
        if let Some(note) = self.zero_note() {
            rows.push(format!("&\\text{{({note})}}"));
        }
        for (_, _, name, latex) in &self.formula.definitions {
            rows.push(format!("{name} &= {latex}"));
        }
        format!(
            "\\begin{{aligned}}\n{}\n\\end{{aligned}}",
            rows.join(" \\\\\n")
        )
    }
}

fn argument_error(message: impl Into<String>) -> Flow {
    fail(ErrorKind::ArgumentError, message)
}

fn formula_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("formula", 2, 2)?;
    let f = args.pos[0].clone();
    let Some(x) = operand(&args.pos[1])? else {
        return Err(argument_error(format!(
            "formula: the input x must be a number or an array of numbers, got a {}",
            args.pos[1].type_name()
        )));
    };
    let (t, scalar) = (x.tensor().clone(), x.scalar);
    let y = tensor_function(interp, &f, None, scalar)(&t)?;
    let traced = match Program::record(tensor_function(interp, &f, None, scalar), &t, &y) {
        Ok(traced) => traced,
        Err(Flow::Error(e)) if e.kind != ErrorKind::InterruptException => {
            return Err(argument_error(format!(
                "formula: the function cannot be traced symbolically: tracing it raised {}",
                e.headline()
            )))
        }
        Err(other) => return Err(other),
    };
    let program = traced.map_err(|why| {
        argument_error(format!(
            "formula: the function cannot be traced symbolically: {why}"
        ))
    })?;
    let formula = program
        .formula(MAX_OPERATIONS)
        .map_err(|why| argument_error(format!("formula: {why}")))?;
    let name = match &f {
        Value::Function(c) => c
            .def
            .name
            .map(|n| n.to_string())
            .filter(|n| !n.starts_with('#'))
            .unwrap_or_else(|| "f".to_string()),
        Value::Builtin(b) => b.name.to_string(),
        _ => "f".to_string(),
    };
    Ok(Value::Object(Rc::new(Box::new(FormulaValue {
        formula,
        name,
        scalar_output: y.shape().is_empty(),
    }))))
}

crate::builtins! {
    "formula" => formula_, false, "    formula(f, x)\n\nThe derivative of `f` that the symbolic backend (`AutoFastDifferentiation()`) records, written as a formula: `f` is traced at `x` (a number or a small array; the formula holds wherever the function takes the same operations), differentiated symbolically, and every nonzero entry `∂f/∂xⱼ` (or `∂yᵢ/∂xⱼ` for a function returning an array) is shown, with subexpressions used more than once named `t₁, t₂, …` and defined below, as the compiled derivative computes them once. Notebooks show it in LaTeX; `.text`, `.latex` and `.entries` give its parts. A function that branches on values cannot be traced, and a derivative longer than 80 operations is not shown: both are an `ArgumentError` saying so.\n\n```\njulia> f(x) = x^3 + sin(x);\n\njulia> formula(f, 1.0)\n∂f/∂x = 3·x² + cos(x)\n\njulia> formula(x -> [x[1] * x[2], x[2]^2], [1.0, 2.0])\n∂y₁/∂x₁ = x₂\n∂y₁/∂x₂ = x₁\n∂y₂/∂x₂ = 2·x₂\n(every other derivative is 0)\n```";
}
