//! Derivatives as formulas: the Jacobian entries that the symbolic backend derives from a
//! traced program, written as expressions over the inputs, in Unicode text for terminals and
//! in LaTeX for notebooks. A subexpression used more than once is named (`t₁`, `t₂`, …) and
//! defined once, as the program computes it once.

use super::derivative::Tangent;
use super::program::Program;
use super::{Graph, Node};
use crate::ops::{BinaryFn, UnaryFn};
use std::collections::HashMap;
use std::rc::Rc;

/// Why a derivative is not shown as a formula.
#[derive(Debug, Clone, PartialEq)]
pub enum NoFormula {
    /// It would take more than the given number of operations to write.
    TooLarge(usize),
    /// A derivative has no symbolic form (it is chosen by value: `max`, `abs` at a kink, …).
    NoSymbolicForm,
}

impl std::fmt::Display for NoFormula {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoFormula::TooLarge(limit) => write!(
                f,
                "its derivative takes more than {limit} operations to write; differentiate a smaller piece, or use jacobian to get the numbers"
            ),
            NoFormula::NoSymbolicForm => f.write_str(
                "a derivative in it is chosen by value (max, min, abs, mod, …), which a formula cannot show",
            ),
        }
    }
}

/// One nonzero derivative `∂yᵢ/∂xⱼ` as text and LaTeX.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The output's position (0-based, column-major).
    pub output: usize,
    /// The input's position (0-based, column-major).
    pub input: usize,
    /// The expression in Unicode text.
    pub text: String,
    /// The expression in LaTeX.
    pub latex: String,
}

/// The derivatives of a traced function as formulas.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    /// Named subexpressions, in order of definition: (name, text, LaTeX name, LaTeX).
    pub definitions: Vec<(String, String, String, String)>,
    /// The nonzero entries, by output then input.
    pub entries: Vec<Entry>,
    /// The number of inputs and outputs (how entries are named).
    pub inputs: usize,
    /// The number of outputs.
    pub outputs: usize,
}

impl Program {
    /// The nonzero derivatives of this program as formulas, written with at most `limit`
    /// operations.
    pub fn formula(&self, limit: usize) -> Result<Formula, NoFormula> {
        let budget = limit.saturating_mul(8).max(1024);
        let (graph, outputs) = self.regraph(budget).ok_or(NoFormula::TooLarge(limit))?;
        let tangents =
            super::derivative::tangents(&graph, &outputs, budget).map_err(|e| match e {
                crate::AdError::NoRule { .. } => NoFormula::NoSymbolicForm,
                _ => NoFormula::TooLarge(limit),
            })?;
        let roots: Vec<(usize, usize, u32)> = outputs
            .iter()
            .enumerate()
            .flat_map(|(i, &o)| {
                let tangent: &Tangent = &tangents[o as usize];
                tangent
                    .iter()
                    .map(move |&(input, node)| (i, input as usize, node))
                    .collect::<Vec<_>>()
            })
            .collect();
        Writer::new(&graph, self.inputs, limit).write(&roots, self.inputs, outputs.len())
    }
}

/// Writes expressions of one graph, naming shared subexpressions.
struct Writer<'g> {
    graph: &'g Rc<Graph>,
    inputs: usize,
    limit: usize,
    uses: HashMap<u32, usize>,
    names: HashMap<u32, usize>,
    definitions: Vec<(String, String, String, String)>,
}

/// How tightly an expression binds, for parentheses.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Precedence {
    Sum,
    Product,
    Unary,
    Power,
    Atom,
}

/// An expression written both ways.
struct Written {
    text: String,
    latex: String,
    precedence: Precedence,
}

impl<'g> Writer<'g> {
    fn new(graph: &'g Rc<Graph>, inputs: usize, limit: usize) -> Writer<'g> {
        Writer {
            graph,
            inputs,
            limit,
            uses: HashMap::new(),
            names: HashMap::new(),
            definitions: Vec::new(),
        }
    }

    fn write(
        mut self,
        roots: &[(usize, usize, u32)],
        inputs: usize,
        outputs: usize,
    ) -> Result<Formula, NoFormula> {
        self.count_uses(roots.iter().map(|r| r.2))?;
        let mut entries = Vec::new();
        for &(output, input, node) in roots {
            let w = self.expression(node, true);
            entries.push(Entry {
                output,
                input,
                text: w.text,
                latex: w.latex,
            });
        }
        Ok(Formula {
            definitions: self.definitions,
            entries,
            inputs,
            outputs,
        })
    }

    /// Counts how often each operation is used by the roots' expressions (each shared one
    /// counted once below its first use), refusing more than `limit` operations.
    fn count_uses(&mut self, roots: impl Iterator<Item = u32>) -> Result<(), NoFormula> {
        let mut stack: Vec<u32> = roots.collect();
        let mut operations = 0;
        while let Some(id) = stack.pop() {
            let node = self.graph.node(id);
            if matches!(node, Node::Input | Node::Const(_)) {
                continue;
            }
            let count = self.uses.entry(id).or_insert(0);
            *count += 1;
            if *count > 1 {
                continue;
            }
            operations += 1;
            if operations > self.limit {
                return Err(NoFormula::TooLarge(self.limit));
            }
            match node {
                Node::Unary(_, a) => stack.push(a),
                Node::Binary(_, a, b) => stack.extend([a, b]),
                Node::Input | Node::Const(_) => {}
            }
        }
        Ok(())
    }

    /// The expression of node `id`; a shared operation is written by its name (defined at its
    /// first use) unless it is the root being written.
    fn expression(&mut self, id: u32, root: bool) -> Written {
        if !root && self.uses.get(&id).copied().unwrap_or(0) > 1 {
            return self.named(id);
        }
        match self.graph.node(id) {
            Node::Input => {
                let (text, latex) = input_name(id as usize, self.inputs);
                atom(text, latex)
            }
            Node::Const(c) => number(c),
            Node::Unary(f, a) => {
                let a = self.expression(a, false);
                unary(f, a)
            }
            Node::Binary(f, a, b) => {
                let a = self.expression(a, false);
                let b = self.expression(b, false);
                binary(f, a, b)
            }
        }
    }

    fn named(&mut self, id: u32) -> Written {
        let k = match self.names.get(&id) {
            Some(&k) => k,
            None => {
                let body = self.expression(id, true);
                let k = self.definitions.len() + 1;
                self.definitions.push((
                    format!("t{}", subscript(k)),
                    body.text,
                    format!("t_{{{k}}}"),
                    body.latex,
                ));
                self.names.insert(id, k);
                k
            }
        };
        atom(format!("t{}", subscript(k)), format!("t_{{{k}}}"))
    }
}

/// The name of input `k` of `n`: `x` alone, else `x₁`, `x₂`, …
fn input_name(k: usize, n: usize) -> (String, String) {
    if n == 1 {
        ("x".into(), "x".into())
    } else {
        (format!("x{}", subscript(k + 1)), format!("x_{{{}}}", k + 1))
    }
}

/// `k` in subscript digits.
pub fn subscript(k: usize) -> String {
    k.to_string()
        .chars()
        .map(|c| char::from_u32(0x2080 + c.to_digit(10).expect("a digit")).expect("a subscript"))
        .collect()
}

fn superscript(k: i64) -> Option<String> {
    if !(2..=9).contains(&k) {
        return None;
    }
    Some(["²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"][(k - 2) as usize].to_string())
}

fn atom(text: String, latex: String) -> Written {
    Written {
        text,
        latex,
        precedence: Precedence::Atom,
    }
}

fn number(c: f64) -> Written {
    let text = if c == c.trunc() && c.abs() < 1e15 {
        format!("{}", c as i64)
    } else {
        format!("{c}")
    };
    let precedence = if c < 0.0 {
        Precedence::Unary
    } else {
        Precedence::Atom
    };
    Written {
        latex: text.clone(),
        text,
        precedence,
    }
}

/// `w` in parentheses when it binds less tightly than `at`.
fn wrapped(w: &Written, at: Precedence) -> (String, String) {
    if w.precedence < at {
        (
            format!("({})", w.text),
            format!("\\left({}\\right)", w.latex),
        )
    } else {
        (w.text.clone(), w.latex.clone())
    }
}

fn unary(f: UnaryFn, a: Written) -> Written {
    // `polygamma(2, x)`, `besselj(3, x)`: the order is part of the function.
    if let Some(order) = match f {
        UnaryFn::Special(special) => special.order(),
        _ => None,
    } {
        let name = f.name();
        return atom(
            format!("{name}({order}, {})", a.text),
            format!(
                "\\operatorname{{{name}}}\\left({order}, {}\\right)",
                a.latex
            ),
        );
    }
    match f {
        UnaryFn::Neg => {
            // `-(a·b)` is `-a·b`.
            let at = if a.precedence == Precedence::Product && !a.text.starts_with('-') {
                Precedence::Product
            } else {
                Precedence::Power
            };
            let (t, l) = wrapped(&a, at);
            Written {
                text: format!("-{t}"),
                latex: format!("-{l}"),
                precedence: Precedence::Unary,
            }
        }
        UnaryFn::Abs2 => power(a, "²", "2"),
        UnaryFn::Sqrt => Written {
            text: format!("√{}", wrapped(&a, Precedence::Atom).0),
            latex: format!("\\sqrt{{{}}}", a.latex),
            precedence: Precedence::Atom,
        },
        UnaryFn::Abs => atom(
            format!("|{}|", a.text),
            format!("\\left|{}\\right|", a.latex),
        ),
        UnaryFn::Inv => Written {
            text: format!("1 / {}", wrapped(&a, Precedence::Power).0),
            latex: format!("\\frac{{1}}{{{}}}", a.latex),
            precedence: Precedence::Product,
        },
        _ => {
            let name = f.name();
            let latex_name = match f {
                UnaryFn::Sin
                | UnaryFn::Cos
                | UnaryFn::Tan
                | UnaryFn::Sinh
                | UnaryFn::Cosh
                | UnaryFn::Tanh
                | UnaryFn::Sec
                | UnaryFn::Csc
                | UnaryFn::Cot
                | UnaryFn::Exp
                | UnaryFn::Log => format!("\\{name}"),
                _ => format!("\\operatorname{{{name}}}"),
            };
            atom(
                format!("{name}({})", a.text),
                format!("{latex_name}\\left({}\\right)", a.latex),
            )
        }
    }
}

fn power(base: Written, text_exponent: &str, latex_exponent: &str) -> Written {
    let (t, l) = wrapped(&base, Precedence::Atom);
    Written {
        text: format!("{t}{text_exponent}"),
        latex: format!("{l}^{{{latex_exponent}}}"),
        precedence: Precedence::Power,
    }
}

fn binary(f: BinaryFn, a: Written, b: Written) -> Written {
    match f {
        // `a + -b` is written `a - b`.
        BinaryFn::Add if b.precedence >= Precedence::Product && b.text.starts_with('-') => {
            let (ta, la) = wrapped(&a, Precedence::Sum);
            Written {
                text: format!("{ta} - {}", &b.text[1..]),
                latex: format!("{la} - {}", b.latex.strip_prefix('-').unwrap_or(&b.latex)),
                precedence: Precedence::Sum,
            }
        }
        // `-1·b` and `b·-1` are written `-b`.
        BinaryFn::Mul if a.text == "-1" => unary(UnaryFn::Neg, b),
        BinaryFn::Mul if b.text == "-1" => unary(UnaryFn::Neg, a),
        BinaryFn::Add | BinaryFn::Sub => {
            let (ta, la) = wrapped(&a, Precedence::Sum);
            // The right operand of `-` needs parentheses around a sum.
            let right = if f == BinaryFn::Sub {
                Precedence::Product
            } else {
                Precedence::Sum
            };
            let (tb, lb) = wrapped(&b, right);
            let op = if f == BinaryFn::Add { "+" } else { "-" };
            Written {
                text: format!("{ta} {op} {tb}"),
                latex: format!("{la} {op} {lb}"),
                precedence: Precedence::Sum,
            }
        }
        BinaryFn::Mul => {
            let (ta, la) = wrapped(&a, Precedence::Product);
            // Products associate: `a·(b·c)` is `a·b·c`; a quotient or a negation on the
            // right keeps its parentheses.
            let right = if b.text.contains(" / ") || b.precedence == Precedence::Unary {
                Precedence::Power
            } else {
                Precedence::Product
            };
            let (tb, lb) = wrapped(&b, right);
            Written {
                text: format!("{ta}·{tb}"),
                latex: format!("{la} \\cdot {lb}"),
                precedence: Precedence::Product,
            }
        }
        BinaryFn::Div => {
            let (ta, _) = wrapped(&a, Precedence::Product);
            let (tb, _) = wrapped(&b, Precedence::Unary);
            Written {
                text: format!("{ta} / {tb}"),
                latex: format!("\\frac{{{}}}{{{}}}", a.latex, b.latex),
                precedence: Precedence::Product,
            }
        }
        BinaryFn::Pow => {
            let exponent = b.text.parse::<i64>().ok().and_then(superscript);
            match exponent {
                Some(sup) => {
                    let latex = b.latex.clone();
                    power(a, &sup, &latex)
                }
                None => {
                    let (ta, la) = wrapped(&a, Precedence::Atom);
                    let (tb, _) = wrapped(&b, Precedence::Atom);
                    Written {
                        text: format!("{ta}^{tb}"),
                        latex: format!("{la}^{{{}}}", b.latex),
                        precedence: Precedence::Power,
                    }
                }
            }
        }
        _ => {
            let name = f.name();
            atom(
                format!("{name}({}, {})", a.text, b.text),
                format!(
                    "\\operatorname{{{name}}}\\left({}, {}\\right)",
                    a.latex, b.latex
                ),
            )
        }
    }
}
