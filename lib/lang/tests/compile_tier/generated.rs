//! Scalar functions generated from a grammar of the language (arithmetic, branches, loops,
//! local closures, generators), each run with the tier on and off; the tier must agree and
//! compile a good share of them.

use super::agree;

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Scalar functions from a grammar of the language: literals of every kind (overflowing ones
/// too), the operators, math calls, calls of earlier functions, branches, loops, `return`,
/// `break` and `continue`, variables that may change type or exist on some paths only, and
/// local closures (capturing, assigning and shadowing the function's variables) called in
/// expressions.
struct Generator {
    rng: Rng,
    functions: Vec<String>,
    /// The local closures of the function being made, with their arities.
    closures: Vec<(String, usize)>,
    /// Only `Float64` literals and arithmetic, as numeric code is usually written: these
    /// functions mostly compile, so the compiled code itself is what is compared.
    floats: bool,
    /// `while` counters made so far.
    counters: usize,
}

impl Generator {
    fn expr(&mut self, depth: usize) -> String {
        // A lambda called by a builtin per element, or a comprehension: it captures the
        // function's variables, which the evaluator reads from its frame at each call.
        if depth > 0 && self.rng.below(12) == 0 {
            let body = self.expr(depth - 1);
            let op = self.rng.pick(&["+", "*", "-"]);
            return match self.rng.below(3) {
                0 => format!("sum(p -> ({body}) {op} p, 0:2)"),
                // The same as a generator and as a comprehension over an array: compiled
                // loops keyed by the comprehension's body.
                1 => format!("sum(({body}) {op} p for p in 0:2)"),
                _ => format!("sum([({body}) {op} p for p in [0.5, 1, 2.5]])"),
            };
        }
        if depth > 0 && !self.closures.is_empty() && self.rng.below(6) == 0 {
            let (h, arity) = self.closures[self.rng.below(self.closures.len())].clone();
            let args: Vec<String> = (0..arity).map(|_| self.expr(depth - 1)).collect();
            return format!("{h}({})", args.join(", "));
        }
        if self.floats && (depth == 0 || self.rng.below(4) == 0) {
            return match self.rng.below(3) {
                0 => self.rng.pick(&["0.0", "0.5", "1.5", "-2.25", "3.0"]).into(),
                _ => self.rng.pick(&["a", "b", "x", "y", "z"]).into(),
            };
        }
        if self.floats {
            let d = depth - 1;
            return match self.rng.below(6) {
                0..=3 => {
                    let op = self.rng.pick(&["+", "-", "*", "/"]);
                    format!("({} {op} {})", self.expr(d), self.expr(d))
                }
                4 => format!(
                    "{}({})",
                    self.rng.pick(&["sin", "exp", "abs", "tanh"]),
                    self.expr(d)
                ),
                _ => format!(
                    "{}({}, {})",
                    self.rng.pick(&["max", "min"]),
                    self.expr(d),
                    self.expr(d)
                ),
            };
        }
        if depth == 0 || self.rng.below(4) == 0 {
            return match self.rng.below(6) {
                0 => self
                    .rng
                    .pick(&[
                        "0",
                        "1",
                        "2",
                        "-3",
                        "7",
                        "4611686018427387904",
                        "true",
                        "false",
                    ])
                    .into(),
                1 => self
                    .rng
                    .pick(&[
                        "0.0", "-0.0", "0.5", "1.5", "-2.25", "1e308", "NaN", "Inf", "π",
                    ])
                    .into(),
                _ => self.rng.pick(&["a", "b", "x", "y", "z"]).into(),
            };
        }
        let d = depth - 1;
        match self.rng.below(9) {
            0..=3 => {
                let op = self.rng.pick(&[
                    "+", "-", "*", "/", "^", "÷", "%", "==", "<", "<=", "!=", ">", "&", "|",
                ]);
                format!("({} {op} {})", self.expr(d), self.expr(d))
            }
            4 => format!("({}{})", self.rng.pick(&["-", "!"]), self.expr(d)),
            5 => {
                let f = self
                    .rng
                    .pick(&["sin", "sqrt", "abs", "exp", "log", "float", "abs2", "tanh"]);
                format!("{f}({})", self.expr(d))
            }
            6 => {
                let f = self.rng.pick(&["max", "min"]);
                format!("{f}({}, {})", self.expr(d), self.expr(d))
            }
            7 if !self.functions.is_empty() => {
                let g = self.functions[self.rng.below(self.functions.len())].clone();
                format!("{g}({}, {})", self.expr(d), self.expr(d))
            }
            _ => format!(
                "({} {} {})",
                self.expr(d),
                self.rng.pick(&["&&", "||"]),
                self.expr(d)
            ),
        }
    }

    fn condition(&mut self, depth: usize) -> String {
        format!(
            "({} {} {})",
            self.expr(depth),
            self.rng.pick(&["<", ">=", "=="]),
            self.expr(depth)
        )
    }

    fn statements(&mut self, depth: usize, in_loop: bool, out: &mut String) {
        for _ in 0..1 + self.rng.below(3) {
            let var = self.rng.pick(&["x", "y", "z"]);
            match self.rng.below(if depth == 0 { 3 } else { 9 }) {
                0 | 1 => out.push_str(&format!("{var} = {}\n", self.expr(2))),
                2 => out.push_str(&format!(
                    "{var} {} {}\n",
                    self.rng.pick(&["+=", "-=", "*="]),
                    self.expr(2)
                )),
                3 => {
                    out.push_str(&format!("if {}\n", self.condition(1)));
                    self.statements(depth - 1, in_loop, out);
                    if self.rng.below(2) == 0 {
                        out.push_str(&format!("elseif {}\n", self.condition(1)));
                        self.statements(depth - 1, in_loop, out);
                    }
                    if self.rng.below(2) == 0 {
                        out.push_str("else\n");
                        self.statements(depth - 1, in_loop, out);
                    }
                    out.push_str("end\n");
                }
                4 => {
                    let (lo, hi) = (self.rng.below(3), self.rng.below(6));
                    let step = self.rng.pick(&["", ":1", ":2", ":-1"]);
                    out.push_str(&format!("for i in {lo}{step}:{hi}\n"));
                    self.statements(depth - 1, true, out);
                    out.push_str("end\n");
                }
                5 => {
                    // A counter of its own, so nested loops cannot reset each other's.
                    self.counters += 1;
                    let w = format!("w{}", self.counters);
                    out.push_str(&format!(
                        "{w} = 0\nwhile {w} < {}\n{w} += 1\n",
                        self.rng.below(5)
                    ));
                    self.statements(depth - 1, true, out);
                    out.push_str("end\n");
                }
                7 => self.closure(out),
                6 if in_loop => out.push_str(&format!(
                    "{} && {}\n",
                    self.condition(1),
                    self.rng.pick(&["break", "continue"])
                )),
                _ => out.push_str(&format!(
                    "{} && return {}\n",
                    self.condition(1),
                    self.expr(2)
                )),
            }
        }
    }

    /// `h = (params) -> body`, its body reading a parameter and the function's variables,
    /// sometimes assigning one of them.
    fn closure(&mut self, out: &mut String) {
        let name = format!("h{}", self.closures.len());
        let (params, arity) = [("p", 1), ("p, x", 2), ("x, p", 2), ("p, q", 2)][self.rng.below(4)];
        let body = match self.rng.below(3) {
            0 => format!("{} + p", self.expr(1)),
            1 => format!("(z = {}; z * p)", self.expr(1)),
            _ => format!("p - {}", self.expr(1)),
        };
        out.push_str(&format!("{name} = ({params}) -> {body}\n"));
        self.closures.push((name, arity));
    }

    fn function(&mut self) -> String {
        let name = format!("f{}", self.functions.len());
        self.closures.clear();
        let mut body = String::new();
        self.floats = self.rng.below(2) == 0;
        if self.floats || self.rng.below(2) == 0 {
            body.push_str("x = a\ny = b\nz = 0.0\n");
        } else {
            body.push_str("x = 1\ny = 2\nz = 3\n");
        }
        if self.rng.below(2) == 0 {
            self.closure(&mut body);
        }
        self.statements(3, false, &mut body);
        let text = format!("function {name}(a, b)\n{body}return {}\nend", self.expr(2));
        self.functions.push(name);
        text
    }
}

#[test]
fn generated_scalar_functions_agree() {
    let mut generator = Generator {
        rng: Rng(0x9e37_79b9_7f4a_7c15),
        functions: Vec::new(),
        closures: Vec::new(),
        floats: false,
        counters: 0,
    };
    let arguments = [
        "1.0, 2.5",
        "0.0, -1.0",
        "3, 0.0",
        "-7, 1e10",
        "true, 2",
        "2.5, 4",
    ];
    let mut compiled = 0;
    let total = 3000;
    for _ in 0..total / 10 {
        generator.functions.clear();
        let mut steps = Vec::new();
        for _ in 0..10 {
            let f = generator.function();
            steps.push(f);
            let name = generator.functions.last().expect("just made").clone();
            for args in arguments {
                steps.push(format!("{name}({args})"));
            }
        }
        let steps: Vec<&str> = steps.iter().map(String::as_str).collect();
        compiled += agree(&steps);
    }
    // Each function is called with several argument types; the float-only half of them
    // mostly compiles. Fewer than a quarter compiling means the tier refuses what it is
    // meant to run.
    assert!(
        compiled * 4 >= total,
        "only {compiled} of {total} functions compiled"
    );
}
