//! Programs generated from a grammar of the language (structured input with `arbitrary`):
//! statements, expressions, and calls of builtins taken from the registry by position, with
//! plausible arguments (numbers, vectors, matrices, ranges, strings, lambdas, backends) and the
//! keywords builtins document, so a fuzzer spends its time inside builtins rather than in the
//! parser. Shared by the fuzz targets that run such programs.

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use std::fmt::Write;

#[derive(Arbitrary, Debug)]
pub enum Stmt {
    Assign(Var, Expr),
    Eval(Expr),
    For(Var, Expr, Vec<Stmt>),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    Function(Var, Vec<Var>, Vec<Stmt>),
    Try(Vec<Stmt>),
    IndexAssign(Var, Vec<Expr>, Expr),
}

#[derive(Arbitrary, Debug)]
pub enum Expr {
    Int(i8),
    Float(Float),
    Str(Word),
    Regex(Word, u8),
    Char(u32),
    Var(Var),
    Vector(Vec<Expr>),
    Matrix(u8, u8, Vec<i8>),
    Range(i8, i8),
    Tuple(Vec<Expr>),
    Binary(Op, Box<Expr>, Box<Expr>),
    Dotted(Op, Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Call(u16, Vec<Expr>, Vec<(u8, Expr)>),
    UserCall(u8, Vec<Expr>),
    DotCall(u16, Box<Expr>),
    Index(Box<Expr>, Vec<Expr>),
    Lambda(Var, Box<Expr>),
    /// `[body for v in over …]`, or with a reduction `sum(body for v in over …)` (a generator),
    /// its first clause followed by more, in the same group or nested.
    Comprehension(Box<Expr>, Box<Clause>, Vec<Clause>, Option<u8>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Backend(u8),
}

/// One clause of a comprehension: `v in over`, after the previous clause (`, v in over`) or in
/// a nested `for`; its filter is written where Julia allows one, at the end of a group.
#[derive(Arbitrary, Debug)]
pub struct Clause {
    var: Var,
    over: Expr,
    nested: bool,
    filter: Option<Expr>,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct Var(u8);

#[derive(Arbitrary, Debug)]
pub enum Float {
    Small(i16),
    Huge,
    Tiny,
    Nan,
    Inf,
    NegInf,
}

#[derive(Arbitrary, Debug)]
pub struct Word(u8);

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    LeftDiv,
    Lt,
    Eq,
    And,
    Pipe,
}

const WORDS: &[&str] = &["", "a", "αβ", "hello world", "1.5", ":x", "\\n", "é"];
/// Patterns of `r"…"` literals: valid ones, PCRE-only ones and broken ones.
const PATTERNS: &[&str] = &[
    "",
    "a+",
    "(\\w+)=(\\d+)",
    "(?<k>.)",
    "^$",
    "(",
    "(?=a)",
    "\\1",
    "a{1000000}",
    "[z-a]",
    "é|αβ",
];
const REGEX_FLAGS: &[&str] = &["", "i", "m", "s", "x", "imsx", "q"];
/// Calls that take a generator: the reductions that fold it as it runs, ones that collect it or
/// read its shape, and none (the generator as a value).
const REDUCTIONS: &[&str] = &[
    "sum(", "prod(", "maximum(", "minimum(", "any(", "all(", "count(", "collect(", "first(",
    "length(", "size(", "Set(", "Dict(", "(",
];
const KEYWORDS: &[&str] = &[
    "dims",
    "init",
    "rev",
    "by",
    "digits",
    "chunksize",
    "compile",
    "atol",
    "rtol",
    "length",
    "step",
    "kind",
    "strict",
    "linear_solver",
    "order",
];
const BACKENDS: &[&str] = &[
    "AutoForwardDiff()",
    "AutoReverseDiff()",
    "AutoReverseDiff(compile=true)",
    "AutoFiniteDiff()",
    "AutoFastDifferentiation()",
    "AutoSparse(AutoForwardDiff())",
    "SecondOrder(AutoForwardDiff(), AutoReverseDiff())",
    "AutoSymbolics()",
];

/// The builtins a program may call, in a fixed order (the registry's): all but those that wait
/// for input or time, write or delete files by name, and `also_skipped`.
pub fn callable_builtins(also_skipped: &[&str]) -> Vec<&'static str> {
    let skipped = [
        "readline",
        "include",
        "sleep",
        "writemtx",
        "benchmark_differentiation",
        // Files by name: a generated program must not write or delete files.
        "open",
        "write",
        "rm",
        "mkdir",
        "mkpath",
    ];
    difflab_lang::builtins::all()
        .map(|b| b.name)
        .filter(|n| !skipped.contains(n) && !also_skipped.contains(n))
        .collect()
}

/// The text of `program`: a prelude binding `v0` … `v5`, then its statements, calling the
/// builtins of `builtins` by position.
pub fn text(program: &[Stmt], builtins: &[&str]) -> String {
    let mut writer = Writer {
        text: "v0 = [1.0, 2.0, 3.0]; v1 = 2; v2 = [1.0 2.0; 3.0 4.0]; v3 = 1:4; v4 = \"ab\"; v5 = x -> x^2\n".into(),
        budget: 200,
        builtins,
    };
    writer.block(program, 0);
    writer.text
}

struct Writer<'b> {
    text: String,
    budget: usize,
    builtins: &'b [&'b str],
}

impl Writer<'_> {
    /// The builtin at position `k` of the registry, as a callee (`(>)` for an operator).
    fn builtin(&mut self, k: u16) {
        let name = self.builtins[k as usize % self.builtins.len()];
        if name.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            self.text.push_str(name);
        } else {
            let _ = write!(self.text, "({name})");
        }
    }

    fn var(&mut self, v: Var) {
        let _ = write!(self.text, "v{}", v.0 % 6);
    }

    fn block(&mut self, stmts: &[Stmt], depth: usize) {
        for s in stmts.iter().take(6) {
            self.stmt(s, depth);
            self.text.push('\n');
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        if depth > 4 || self.budget == 0 {
            self.text.push_str("nothing");
            return;
        }
        self.budget -= 1;
        match s {
            Stmt::Assign(v, e) => {
                self.var(*v);
                self.text.push_str(" = ");
                self.expr(e, depth + 1);
            }
            Stmt::Eval(e) => self.expr(e, depth + 1),
            Stmt::For(v, e, body) => {
                self.text.push_str("for ");
                self.var(*v);
                self.text.push_str(" in ");
                self.expr(e, depth + 1);
                self.text.push('\n');
                self.block(body, depth + 1);
                self.text.push_str("end");
            }
            Stmt::If(c, a, b) => {
                self.text.push_str("if ");
                self.expr(c, depth + 1);
                self.text.push('\n');
                self.block(a, depth + 1);
                self.text.push_str("else\n");
                self.block(b, depth + 1);
                self.text.push_str("end");
            }
            Stmt::Function(name, params, body) => {
                let _ = write!(self.text, "function f{}(", name.0 % 3);
                for (k, p) in params.iter().take(3).enumerate() {
                    if k > 0 {
                        self.text.push_str(", ");
                    }
                    self.var(*p);
                }
                self.text.push_str(")\n");
                self.block(body, depth + 1);
                self.text.push_str("end");
            }
            Stmt::Try(body) => {
                self.text.push_str("try\n");
                self.block(body, depth + 1);
                self.text.push_str("catch err\nend");
            }
            Stmt::IndexAssign(v, index, e) => {
                self.var(*v);
                self.args('[', index, ']', depth);
                self.text.push_str(" = ");
                self.expr(e, depth + 1);
            }
        }
    }

    fn args(&mut self, open: char, items: &[Expr], close: char, depth: usize) {
        self.text.push(open);
        for (k, e) in items.iter().take(4).enumerate() {
            if k > 0 {
                self.text.push_str(", ");
            }
            self.expr(e, depth + 1);
        }
        self.text.push(close);
    }

    fn expr(&mut self, e: &Expr, depth: usize) {
        if depth > 8 || self.budget == 0 {
            self.text.push('1');
            return;
        }
        self.budget -= 1;
        match e {
            Expr::Int(i) => {
                let _ = write!(self.text, "({i})");
            }
            Expr::Float(f) => self.text.push_str(&match f {
                Float::Small(x) => format!("({:?})", f64::from(*x) / 8.0),
                Float::Huge => "1e300".into(),
                Float::Tiny => "5e-324".into(),
                Float::Nan => "NaN".into(),
                Float::Inf => "Inf".into(),
                Float::NegInf => "(-Inf)".into(),
            }),
            Expr::Str(w) => {
                let _ = write!(self.text, "{:?}", WORDS[w.0 as usize % WORDS.len()]);
            }
            Expr::Regex(w, flags) => {
                let pattern = PATTERNS[w.0 as usize % PATTERNS.len()];
                let flags = REGEX_FLAGS[*flags as usize % REGEX_FLAGS.len()];
                let _ = write!(self.text, "r\"{pattern}\"{flags}");
            }
            // Any Unicode scalar value, written as Rust writes it (`'\''`, `'\u{1f600}'`).
            Expr::Char(code) => {
                let c = char::from_u32(*code % 0x11_0000).unwrap_or('x');
                let _ = write!(self.text, "{c:?}");
            }
            Expr::Var(v) => self.var(*v),
            Expr::Vector(items) => self.args('[', items, ']', depth),
            Expr::Matrix(m, n, values) => {
                let (m, n) = (1 + *m as usize % 4, 1 + *n as usize % 4);
                self.text.push('[');
                for i in 0..m {
                    if i > 0 {
                        self.text.push_str("; ");
                    }
                    for j in 0..n {
                        let x = values.get(i * n + j).copied().unwrap_or(1);
                        let _ = write!(self.text, "{}{x}.0", if j > 0 { " " } else { "" });
                    }
                }
                self.text.push(']');
            }
            Expr::Range(a, b) => {
                let _ = write!(self.text, "({a}):({b})");
            }
            Expr::Tuple(items) if items.is_empty() => self.text.push_str("()"),
            Expr::Tuple(items) => {
                self.args('(', items, ',', depth);
                self.text.push(')');
            }
            Expr::UserCall(k, args) => {
                let _ = write!(self.text, "f{}", k % 3);
                self.args('(', args, ')', depth);
            }
            Expr::Binary(op, a, b) | Expr::Dotted(op, a, b) => {
                let dot = if matches!(e, Expr::Dotted(..)) {
                    "."
                } else {
                    ""
                };
                let op = match op {
                    Op::Add => "+",
                    Op::Sub => "-",
                    Op::Mul => "*",
                    Op::Div => "/",
                    Op::Pow => "^",
                    Op::LeftDiv => "\\",
                    Op::Lt => "<",
                    Op::Eq => "==",
                    Op::And => "&",
                    Op::Pipe => "|>",
                };
                self.text.push('(');
                self.expr(a, depth + 1);
                let _ = write!(self.text, " {dot}{op} ");
                self.expr(b, depth + 1);
                self.text.push(')');
            }
            Expr::Neg(a) => {
                self.text.push_str("(-");
                self.expr(a, depth + 1);
                self.text.push(')');
            }
            Expr::Call(k, args, kwargs) => {
                self.builtin(*k);
                self.text.push('(');
                for (i, a) in args.iter().take(4).enumerate() {
                    if i > 0 {
                        self.text.push_str(", ");
                    }
                    self.expr(a, depth + 1);
                }
                for (i, (kw, v)) in kwargs.iter().take(2).enumerate() {
                    self.text.push_str(if i == 0 { "; " } else { ", " });
                    let _ = write!(self.text, "{}=", KEYWORDS[*kw as usize % KEYWORDS.len()]);
                    self.expr(v, depth + 1);
                }
                self.text.push(')');
            }
            Expr::DotCall(k, a) => {
                self.builtin(*k);
                self.text.push_str(".(");
                self.expr(a, depth + 1);
                self.text.push(')');
            }
            Expr::Index(a, index) => {
                self.text.push('(');
                self.expr(a, depth + 1);
                self.text.push(')');
                self.args('[', index, ']', depth);
            }
            Expr::Lambda(v, body) => {
                self.text.push('(');
                self.var(*v);
                self.text.push_str(" -> ");
                self.expr(body, depth + 1);
                self.text.push(')');
            }
            Expr::Comprehension(body, first, more, reduction) => {
                let (open, close) = match reduction {
                    Some(r) => (REDUCTIONS[usize::from(*r) % REDUCTIONS.len()], ")"),
                    None => ("[", "]"),
                };
                self.text.push_str(open);
                self.expr(body, depth + 1);
                let clauses: Vec<&Clause> = std::iter::once(&**first)
                    .chain(more.iter().take(2))
                    .collect();
                for (k, clause) in clauses.iter().enumerate() {
                    self.text.push_str(if k == 0 || clause.nested {
                        " for "
                    } else {
                        ", "
                    });
                    self.var(clause.var);
                    self.text.push_str(" in ");
                    self.expr(&clause.over, depth + 1);
                    let ends_group = clauses.get(k + 1).is_none_or(|next| next.nested);
                    if let (Some(filter), true) = (&clause.filter, ends_group) {
                        self.text.push_str(" if ");
                        self.expr(filter, depth + 1);
                    }
                }
                self.text.push_str(close);
            }
            Expr::Ternary(c, a, b) => {
                self.text.push('(');
                self.expr(c, depth + 1);
                self.text.push_str(" ? ");
                self.expr(a, depth + 1);
                self.text.push_str(" : ");
                self.expr(b, depth + 1);
                self.text.push(')');
            }
            Expr::Backend(k) => self.text.push_str(BACKENDS[*k as usize % BACKENDS.len()]),
        }
    }
}
