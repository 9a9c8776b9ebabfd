//! Operators as function values: `reduce(+, x)`, `map(-, v)`, `+(a, b, c)`, `op = *`. Each
//! applies the interpreter's own infix operator, so `f(a, b)` means exactly `a op b`. A
//! comparison given one argument is Julia's `Base.Fix2`: `==(1)` is the function `y -> y == 1`.

use super::Args;
use crate::error::EvalResult;
use crate::eval::Interp;
use crate::value::Value;
use difflab_syntax::{BinOp, Name, UnaryOp};

/// `op(x)` of a comparison: the function `y -> y op x` (Julia's `Base.Fix2`).
struct Fix2 {
    op: BinOp,
    value: Value,
}

impl Drop for Fix2 {
    fn drop(&mut self) {
        crate::value::release([self.value.take()]);
    }
}

impl crate::object::Object for Fix2 {
    fn type_name(&self) -> String {
        format!("Base.Fix2{{typeof({})}}", self.op.symbol())
    }
    fn show(&self) -> String {
        format!(
            "({})({})",
            self.op.symbol(),
            crate::display::repr(&self.value)
        )
    }
    fn call(
        &self,
        interp: &mut Interp,
        args: Vec<Value>,
        _: Vec<(Name, Value)>,
    ) -> Option<EvalResult> {
        Some(match args.as_slice() {
            [y] => interp.binary(self.op, false, y, &self.value),
            _ => Err(crate::error::fail(
                crate::error::ErrorKind::MethodError,
                format!(
                    "no method matching {}(…) with {} arguments",
                    self.show(),
                    args.len()
                ),
            )),
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `a op b`, folded from the left over more arguments where Julia allows it (`+`, `*`).
fn apply(interp: &mut Interp, args: Args, op: BinOp, unary: Option<UnaryOp>) -> EvalResult {
    let variadic = matches!(op, BinOp::Add | BinOp::Mul | BinOp::Compose);
    let comparison = matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    );
    if comparison && args.pos.len() == 1 {
        args.arity(op.symbol(), 1, 1)?;
        let value = args.pos.into_iter().next().expect("one argument");
        return Ok(Value::object(Fix2 { op, value }));
    }
    let least = if unary.is_some() || variadic { 1 } else { 2 };
    args.arity(op.symbol(), least, if variadic { usize::MAX } else { 2 })?;
    let mut operands = args.pos.into_iter();
    let first = operands.next().expect("arity checked");
    let Some(second) = operands.next() else {
        return match unary {
            Some(u) => crate::builtins::value_operators::unary(u, false, &first),
            None => Ok(first),
        };
    };
    let mut result = interp.binary(op, false, &first, &second)?;
    for next in operands {
        result = interp.binary(op, false, &result, &next)?;
    }
    Ok(result)
}

/// `!` as a function value (`map(!, x)`): logical negation of one argument.
fn not(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("!", 1, 1)?;
    crate::builtins::value_operators::unary(UnaryOp::Not, false, &args.pos[0])
}

macro_rules! operator_values {
    ($($fname:ident => $op:ident $(, $unary:ident)?;)*) => {
        $(fn $fname(interp: &mut Interp, args: Args) -> EvalResult {
            apply(interp, args, BinOp::$op, None$(.or(Some(UnaryOp::$unary)))?)
        })*
    };
}

operator_values! {
    plus => Add, Plus;
    minus => Sub, Neg;
    times => Mul;
    divide => Div;
    left_divide => LeftDiv;
    power => Pow;
    int_divide => IntDiv;
    remainder => Rem;
    equal => Eq;
    not_equal => Ne;
    less => Lt;
    less_equal => Le;
    greater => Gt;
    greater_equal => Ge;
    composition => Compose;
}

crate::builtins! {
    "!" => not, false, "    !(x)\n\nLogical negation as a function value.\n\n```\njulia> map(!, [true, false]) == [false, true]\ntrue\n\njulia> filter(!iszero, [0, 1, 2]) == [1, 2]\ntrue\n```";
    "+" => plus, false, "    +(x, y...)\n\nAddition as a function value, as in `reduce(+, x)`; `+(a, b, c)` adds left to right.\n\n```\njulia> reduce(+, [1, 2, 3])\n6\n```";
    "-" => minus, false, "    -(x, [y])\n\nSubtraction (or negation with one argument) as a function value.\n\n```\njulia> map(-, [1, 2])\n2-element Vector{Int64}:\n -1\n -2\n```";
    "*" => times, false, "    *(x, y...)\n\nMultiplication (matrix product for matrices) as a function value.\n\n```\njulia> mapreduce(x -> x + 1, *, [1, 2, 3])\n24\n```";
    "/" => divide, false, "    /(x, y)\n\nDivision as a function value.\n\n```\njulia> /(1, 4)\n0.25\n```";
    "\\" => left_divide, false, "    \\(A, b)\n\nLeft division (a linear solve for a matrix `A`) as a function value.\n\n```\njulia> \\(2.0, 4.0)\n2.0\n```";
    "^" => power, false, "    ^(x, y)\n\nPower as a function value.\n\n```\njulia> ^(2, 10)\n1024\n```";
    "div" => int_divide, false, "    div(x, y)\n\nThe quotient of integer division, truncated toward zero (`x ÷ y`).\n\n```\njulia> div(7, 2)\n3\n\njulia> div(-7, 2)\n-3\n```";
    "÷" => int_divide, false, "    ÷(x, y)\n\nInteger division as a function value.\n\n```\njulia> ÷(7, 2)\n3\n```";
    "%" => remainder, false, "    %(x, y)\n\nThe remainder as a function value.\n\n```\njulia> %(7, 2)\n1\n```";
    "==" => equal, false, "    ==(x, y)\n    ==(x)\n\nEquality as a function value; with one argument, the function `y -> y == x` (also `!=`, `<`, `<=`, `>`, `>=`).\n\n```\njulia> ==(1, 1.0)\ntrue\n\njulia> filter(>(1), [1, 2, 3])\n2-element Vector{Int64}:\n 2\n 3\n```";
    "!=" => not_equal, false, "    !=(x, y)\n\nInequality as a function value.\n\n```\njulia> !=(1, 2)\ntrue\n```";
    "<" => less, false, "    <(x, y)\n\n`x < y` as a function value.\n\n```\njulia> <(1, 2)\ntrue\n```";
    "<=" => less_equal, false, "    <=(x, y)\n\n`x <= y` as a function value.\n\n```\njulia> <=(1, 1)\ntrue\n```";
    ">" => greater, false, "    >(x, y)\n\n`x > y` as a function value.\n\n```\njulia> >(2, 1)\ntrue\n```";
    "∘" => composition, false, "    ∘(f, g...)\n\nFunction composition as a function value: `∘(f, g)` is `f ∘ g`, the function `x -> f(g(x))`.\n\n```\njulia> ∘(sqrt, abs)(-16.0)\n4.0\n\njulia> reduce(∘, [x -> x + 1, x -> 2x])(3)\n7\n```";
    ">=" => greater_equal, false, "    >=(x, y)\n\n`x >= y` as a function value.\n\n```\njulia> >=(1, 2)\nfalse\n```";
}
