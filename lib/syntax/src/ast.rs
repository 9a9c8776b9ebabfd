//! The abstract syntax tree produced by [`crate::parser`] and walked by the evaluator (`difflab-lang`).
//!
//! Everything in the language is an expression ([`Expr`]); statements are expressions whose value
//! is usually ignored. Every node carries the byte [`Span`] of its source text so that errors can
//! point at it. Names are interned ([`Name`]) so the evaluator compares integers, not strings.

use crate::names::Name;
use crate::span::Span;

/// An expression with the byte range of its source.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Where it is in the source (byte offsets).
    pub span: Span,
}

/// A sequence of expressions: the body of a `begin`, a function, a loop, a branch or a cell.
pub type Block = Vec<Expr>;

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// `42`, `1_000`, `0xff`. Also `begin` inside an index (`x[begin]`), which is `1`: arrays
    /// are 1-based.
    Int(i64),
    /// `1.5`, `1e-3`, `.5`
    Float(f64),
    /// `true`, `false`
    Bool(bool),
    /// `"plain"` or `"with $x and $(f(x))"`: literal pieces and interpolated expressions.
    /// Triple-quoted strings `"""…"""` are dedented as in Julia; adjacent text is merged.
    Str(Vec<StrPart>),
    /// `'a'`, `'\n'`: a character.
    Char(char),
    /// `r"a+b"i`, `raw"…"`, `s"\1"`: a string macro (non-standard string literal) with its
    /// raw text and flags.
    PrefixedStr {
        /// The name before the quote.
        prefix: Name,
        /// The text as written.
        text: String,
        /// The letters after the closing quote.
        flags: String,
    },
    /// `:central` (also after a keyword: `:end`)
    Symbol(Name),
    /// `x`, `π`, `AutoForwardDiff`. An operator used as a value is the identifier spelled by
    /// the operator: `+` in `reduce(+, x)`, `*` in `*(A, B)` (a call of `*`).
    Ident(Name),
    /// A bare `:` inside an index, as in `A[:, j]`.
    Colon,
    /// `end` inside an index, as in `x[2:end]`: the length along the indexed dimension.
    End,
    /// `(a, b)`, `(a,)`, `()`, and bare `a, b` at statement level (`y, z = f(x)`,
    /// `return a, b`). A named tuple `(x = 1, y = 2)` is a tuple whose elements are
    /// `Assign { target: Ident, op: None, dotted: false, .. }` expressions (it is named when
    /// every element is `name = value`). `(x = 1)` alone is an assignment, as in Julia.
    Tuple(Vec<Arg>),
    /// `[a, b, c]` (elements may be splatted: `[xs...]`).
    Vector(Vec<Arg>),
    /// `[1 2; 3 4]`, `[a; b]`, `[a b]`: rows separated by `;` or newlines, elements by spaces.
    /// `[a; b]` is two rows of one element each (vertical concatenation). An element may be a
    /// [`ExprKind::Splat`].
    Concat(Vec<Vec<Expr>>),
    /// `Float64[]`, `Int[1, 2]`: a vector with a declared element type. Only built-in type
    /// names make one (`Float64`, `Int`, `Bool`, `Any`, `String`, `Symbol`, ...); `A[1, 2]` with
    /// any other name is indexing.
    TypedVector {
        /// The element type name (`Float64`, `Int`, `Any`, ...).
        eltype: Name,
        /// The elements.
        elements: Vec<Expr>,
    },
    /// `Bool[1 0; 0 1]`, `Float64[i^2 for i in 1:3]`: a matrix literal or a comprehension with
    /// a declared element type.
    TypedLiteral {
        /// The element type name.
        eltype: Name,
        /// The [`ExprKind::Concat`] or [`ExprKind::Comprehension`].
        literal: Box<Expr>,
    },
    /// `[f(i) for i in 1:n if cond]`, `[a + b for a in x, b in y]`. Generators written in
    /// parentheses or as a call's only argument (`sum(x^2 for x in xs)`) are comprehensions
    /// too (the span then covers the parentheses or the generator).
    Comprehension {
        /// The expression evaluated for each element.
        body: Box<Expr>,
        /// `for pattern in iter` clauses; the first varies fastest in the result (as in Julia).
        generators: Vec<Generator>,
        /// The `if` filter, if any.
        filter: Option<Box<Expr>>,
        /// True for `[f(i, j) for i in a for j in b]` (each `for` nested in the previous one,
        /// the results in one vector in iteration order) rather than `for i in a, j in b` (an
        /// array with a dimension per clause). Only array comprehensions of single clauses are
        /// flat: the parser writes generators of nested `for`s, and comprehensions whose nested
        /// groups have several clauses, as `Iterators.flatten` of generators, as Julia lowers
        /// them.
        flat: bool,
        /// True when written as a generator (`(f(x) for x in xs)`, or a call's only argument:
        /// `sum(f(x) for x in xs)`), Julia's lazy `Base.Generator`: the reductions `sum`,
        /// `prod`, `maximum`, `minimum`, `any`, `all`, `count`, `mean` and `first` take its
        /// elements one at a time; as a value it computes nothing until walked (`lazy` below).
        generator: bool,
        /// For `for x in a, y in b, …` clauses of distinct names without a filter, the body as
        /// the function `(x, y, …) -> body`, made once with the tree
        /// ([`ExprKind::comprehension`]) so that the evaluator can run it over the elements as
        /// compiled code, keyed by this definition.
        element: Option<std::rc::Rc<FunctionDef>>,
        /// For a generator, its body and filter as functions of the clause variables, made
        /// once with the tree: the generator's value is Julia's lazy `Base.Generator` of them
        /// over the iterables.
        lazy: Option<std::rc::Rc<GeneratorFunctions>>,
    },
    /// `a:b` and `a:s:b`.
    Range {
        /// First value.
        start: Box<Expr>,
        /// Step, when given (`a:s:b`).
        step: Option<Box<Expr>>,
        /// Last value.
        stop: Box<Expr>,
    },
    /// `a + b`, `a .* b` (dotted: broadcast).
    Binary {
        /// The operator.
        op: BinOp,
        /// True for the dotted form `.op`.
        dotted: bool,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `-x`, `!c`, `.-x`. Also `a ∉ b`, which is `!(a in b)`, and `a ≉ b`, which is
    /// `!(a ≈ b)`. `-2` is `Neg` of the literal `2`.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// True for the dotted form.
        dotted: bool,
        /// The operand.
        operand: Box<Expr>,
    },
    /// `a && b`. A chained comparison `a < b <= c` is `(a < b) && (b <= c)`, the middle
    /// operand appearing (and evaluated) twice.
    And(Box<Expr>, Box<Expr>),
    /// `a || b`
    Or(Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Ternary {
        /// The condition.
        cond: Box<Expr>,
        /// Value when true.
        then: Box<Expr>,
        /// Value when false.
        otherwise: Box<Expr>,
    },
    /// `f(x, y; k = 1)`, `f.(x)` (dotted: broadcast the call). `a isa T` is `isa(a, T)`,
    /// `a ⋅ b` is `dot(a, b)`, `+(a, b)` calls the identifier `+`.
    Call {
        /// The called expression (usually an identifier).
        callee: Box<Expr>,
        /// Positional arguments (possibly splatted).
        args: Vec<Arg>,
        /// Keyword arguments, after `;` or as `name = value` among the arguments.
        kwargs: Vec<Kwarg>,
        /// True for `f.(args)`.
        dotted: bool,
    },
    /// `Scenario{:gradient, :out}`: a name with curly-brace parameters (used as a constructor).
    Curly {
        /// The type-like name.
        name: Name,
        /// The parameters inside the braces.
        params: Vec<Expr>,
    },
    /// `x[i]`, `A[i, j]`, `x[2:end]`. An index may be [`ExprKind::Colon`],
    /// [`ExprKind::End`] (anywhere inside, as in `x[end - 1]`) or a [`ExprKind::Splat`].
    Index {
        /// The indexed value.
        target: Box<Expr>,
        /// One expression per dimension.
        indices: Vec<Expr>,
    },
    /// `row.time`, `Random.seed!`.
    Field {
        /// The value whose field is read.
        target: Box<Expr>,
        /// The field name.
        field: Name,
    },
    /// `x'` (adjoint).
    Adjoint(Box<Expr>),
    /// `x...` in a position where splatting is meaningful only through [`Arg`]; kept for errors.
    Splat(Box<Expr>),
    /// `x -> x^2`, `(x, y) -> x + y`, `() -> 1`, `function (x) ... end`.
    Lambda(std::rc::Rc<FunctionDef>),
    /// `function f(x; k = 1) ... end` and `f(x) = ...` (with an optional docstring before it).
    /// The short form is recognized wherever an assignment may be, from a name and `(` on the
    /// left of `=`.
    Function(std::rc::Rc<FunctionDef>),
    /// `begin ... end` or a parenthesized sequence `(a; b)`.
    Block(Block),
    /// `let a = 1, b ... end`: a new local scope with the given bindings.
    Let {
        /// `name = value` (or just `name`) bindings.
        bindings: Vec<(Name, Option<Expr>)>,
        /// The body.
        body: Block,
    },
    /// `if c ... elseif d ... else ... end`.
    If {
        /// `(condition, body)` for `if` and each `elseif`.
        branches: Vec<(Expr, Block)>,
        /// The `else` body.
        otherwise: Option<Block>,
    },
    /// `for i in 1:n, j in 1:m ... end` (several clauses nest, the first outermost).
    For {
        /// `pattern in iterable` clauses.
        generators: Vec<Generator>,
        /// The loop body.
        body: Block,
    },
    /// `while c ... end`.
    While {
        /// The condition.
        cond: Box<Expr>,
        /// The loop body.
        body: Block,
    },
    /// `break`
    Break,
    /// `continue`
    Continue,
    /// `return` or `return x`
    Return(Option<Box<Expr>>),
    /// `try ... catch e ... finally ... end`.
    Try {
        /// The protected body.
        body: Block,
        /// The variable bound to the exception in the catch block, if named.
        catch_var: Option<Name>,
        /// The catch block (`None` when there is no `catch`).
        catch_body: Option<Block>,
        /// The `finally` block.
        finally: Option<Block>,
    },
    /// `x = v`, `x += v`, `y[i] = v`, `y .= f.(x)`, `a, b = t`, `p.x = 1`. `const x = v` is
    /// parsed as `x = v`.
    Assign {
        /// The assigned place: an identifier, index, field, or tuple of places.
        target: Box<Expr>,
        /// For compound assignment (`+=`), the operator.
        op: Option<BinOp>,
        /// True for `.=` and dotted compound forms (`.+=`).
        dotted: bool,
        /// The assigned value.
        value: Box<Expr>,
    },
    /// `global x` or `local x = 1` declarations.
    Declare {
        /// `true` for `global`, `false` for `local`.
        global: bool,
        /// The declared names with optional initial values.
        bindings: Vec<(Name, Option<Expr>)>,
    },
    /// `@time expr`, `@assert c "msg"`, `@show x`, `@assert(c, "msg")`.
    Macro {
        /// The macro name without `@`.
        name: Name,
        /// Its arguments (space separated, or parenthesized).
        args: Vec<Expr>,
    },
    /// `$x` inside a macro argument (as in `@b f($x)`): evaluates to `x`.
    Interpolate(Box<Expr>),
    /// `using X`: accepted and ignored (the reference packages' names are all builtins).
    Using,
    /// `import M: a, b` (also `using M: a`): binds the names, and marks Base functions as
    /// extensible by user methods.
    Import {
        /// The module (`Base`, `ImplicitDifferentiation`, ...).
        module: Name,
        /// The imported names (operators spelled as written: `+`).
        names: Vec<Name>,
        /// The names imported under another name (`import M: a as b`): `(a, b)`.
        renamed: Vec<(Name, Name)>,
    },
    /// `import M as A, N as B`: `A.x` is `M.x`, `B.x` is `N.x`.
    ModuleAlias(Vec<(Name, Name)>),
    /// `x::T` in an expression: a type assertion (`x` when it is a `T`, else a `TypeError`).
    TypeAssert {
        /// The checked value.
        value: Box<Expr>,
        /// The type expression.
        ty: Box<Expr>,
    },
    /// `struct Name{T} <: Super; a::T; b; end` and `mutable struct …`.
    Struct(std::rc::Rc<StructDef>),
    /// `abstract type Name{T} <: Super end`.
    AbstractType {
        /// The type name.
        name: Name,
        /// Type parameter names.
        params: Vec<Name>,
        /// The supertype expression, if given.
        supertype: Option<Box<Expr>>,
    },
    /// `nothing` produced by an empty statement. The parser itself never produces it: an
    /// empty cell (or one of only `;` and comments) is an empty [`Block`].
    Nothing,
}

/// A piece of a string literal.
#[derive(Debug, Clone, PartialEq)]
pub enum StrPart {
    /// Literal text (escapes already decoded).
    Text(String),
    /// `$x` or `$(expr)`.
    Interp(Expr),
}

/// A positional argument or element, possibly splatted (`xs...`).
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// The argument expression.
    pub value: Expr,
    /// True for `value...`.
    pub splat: bool,
}

/// A keyword argument `name = value` (or `name` alone after `;`, meaning `name = name`), or
/// splatted keywords `kw...` (a named tuple or pairs of symbols and values).
#[derive(Debug, Clone, PartialEq)]
pub struct Kwarg {
    /// The keyword (`...` for splatted keywords).
    pub name: Name,
    /// Its value.
    pub value: Expr,
    /// True for `kw...`.
    pub splat: bool,
}

/// A generator's body and filter as functions of its clause variables: `(x, y, …) -> body`
/// and `(x, y, …) -> filter` (each parameter the clause's pattern, so `(i, v)` destructures).
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratorFunctions {
    /// The body as a function.
    pub element: std::rc::Rc<FunctionDef>,
    /// The filter as a function, if the generator has one.
    pub filter: Option<std::rc::Rc<FunctionDef>>,
}

/// One `pattern in iterable` clause of a `for` loop or comprehension (`=` and `∈` work too).
#[derive(Debug, Clone, PartialEq)]
pub struct Generator {
    /// The loop variable(s): an identifier or a tuple of identifiers (`(i, x)`).
    pub pattern: Pattern,
    /// The iterated expression.
    pub iter: Expr,
}

/// True for the items of `(; a, b)` (each `name = name`, as the parser reads the shorthand):
/// as an assignment target, it takes each name from the property of that name of the value.
pub fn is_property_destructuring(items: &[Arg]) -> bool {
    !items.is_empty()
        && items.iter().all(|item| match &item.value.kind {
            ExprKind::Assign {
                op: None,
                target,
                value,
                ..
            } => matches!(
                (&target.kind, &value.kind),
                (ExprKind::Ident(a), ExprKind::Ident(b)) if a == b
            ),
            _ => false,
        })
}

/// A binding pattern: a name or a (nested) tuple of names.
#[derive(Debug, Clone, PartialEq)]
pub enum Pattern {
    /// `x`
    Name(Name),
    /// `(i, x)` or `i, x`
    Tuple(Vec<Pattern>),
}

/// A struct definition.
#[derive(Debug, Clone, PartialEq)]
pub struct StructDef {
    /// The type name.
    pub name: Name,
    /// Type parameter names (`T` in `struct Dual{T}`).
    pub params: Vec<Name>,
    /// The supertype expression, if given (`<: Number`).
    pub supertype: Option<Box<Expr>>,
    /// The fields with their annotations.
    pub fields: Vec<(Name, Option<Expr>)>,
    /// Default values written after fields (`a::Int = 1`), which only `@kwdef` accepts.
    pub defaults: Vec<(Name, Expr)>,
    /// True for `mutable struct`.
    pub mutable: bool,
    /// The fields declared `const` (`const id::Int`): a mutable struct's constructors set them
    /// and nothing changes them after.
    pub const_fields: Vec<Name>,
    /// Constructors written inside the body (they may call `new(...)`).
    pub constructors: Vec<std::rc::Rc<FunctionDef>>,
    /// A docstring written right before the definition.
    pub doc: Option<String>,
    /// The span of the whole definition.
    pub span: Span,
}

/// A user function: `function name(params; kwparams) body end`, `name(x) = body`, or a lambda.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionDef {
    /// The function name (`None` for lambdas and callable-object methods).
    pub name: Option<Name>,
    /// The module the function is extended in: `Base` in `Base.show(io, x) = …` and
    /// `Base.:+(a, b) = …`.
    pub module: Option<Name>,
    /// For `(l::Layer)(x) = …`: the called object's parameter (a method of the type).
    pub callable: Option<Box<Param>>,
    /// Positional parameters; the last may be a vararg `args...`.
    pub params: Vec<Param>,
    /// Keyword parameters (after `;`).
    pub kwparams: Vec<Param>,
    /// The type variables of a `where` clause (`where {T <: Real}`), with their upper bounds.
    pub type_vars: Vec<TypeVar>,
    /// The declared return type (`function f(x)::Float64`): results are converted to it.
    pub return_type: Option<Box<Expr>>,
    /// The body.
    pub body: Block,
    /// A docstring written right before the definition.
    pub doc: Option<String>,
    /// The span of the whole definition.
    pub span: Span,
}

impl ExprKind {
    /// A comprehension (see [`ExprKind::Comprehension`]), with its element function when it
    /// has one.
    pub fn comprehension(
        body: Expr,
        generators: Vec<Generator>,
        filter: Option<Box<Expr>>,
        flat: bool,
        generator: bool,
    ) -> ExprKind {
        let names: Option<Vec<Name>> = generators
            .iter()
            .map(|g| match g.pattern {
                Pattern::Name(name) => Some(name),
                Pattern::Tuple(_) => None,
            })
            .collect();
        let element = match names {
            Some(names)
                if filter.is_none()
                    && !flat
                    && !names.is_empty()
                    && names
                        .iter()
                        .enumerate()
                        .all(|(k, name)| !names[..k].contains(name)) =>
            {
                let params = names
                    .into_iter()
                    .map(|name| Param {
                        pattern: Pattern::Name(name),
                        default: None,
                        vararg: false,
                        annotation: None,
                    })
                    .collect();
                Some(lambda_of(params, &body))
            }
            _ => None,
        };
        let lazy = (generator && !flat).then(|| {
            let params: Vec<Param> = generators
                .iter()
                .map(|g| Param {
                    pattern: g.pattern.clone(),
                    default: None,
                    vararg: false,
                    annotation: None,
                })
                .collect();
            std::rc::Rc::new(GeneratorFunctions {
                element: lambda_of(params.clone(), &body),
                filter: filter.as_deref().map(|f| lambda_of(params, f)),
            })
        });
        ExprKind::Comprehension {
            body: Box::new(body),
            generators,
            filter,
            flat,
            generator,
            element,
            lazy,
        }
    }
}

/// `(params…) -> body` as a definition.
fn lambda_of(params: Vec<Param>, body: &Expr) -> std::rc::Rc<FunctionDef> {
    match FunctionDef::lambda(params, Vec::new(), vec![body.clone()], body.span).kind {
        ExprKind::Lambda(def) => def,
        _ => unreachable!("FunctionDef::lambda makes a lambda"),
    }
}

impl FunctionDef {
    /// An anonymous function (`x -> …`, a `do` block) as an expression spanning `span`.
    pub fn lambda(params: Vec<Param>, kwparams: Vec<Param>, body: Block, span: Span) -> Expr {
        Expr {
            kind: ExprKind::Lambda(std::rc::Rc::new(FunctionDef {
                name: None,
                module: None,
                callable: None,
                params,
                kwparams,
                type_vars: Vec::new(),
                return_type: None,
                body,
                doc: None,
                span,
            })),
            span,
        }
    }
}

/// A function parameter: `x`, `x = 1` (default), `args...` (vararg), `(a, b)` (destructured).
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The bound name(s).
    pub pattern: Pattern,
    /// The default value, if any.
    pub default: Option<Expr>,
    /// True for `args...`.
    pub vararg: bool,
    /// The type annotation (`x::Float64`), if any.
    pub annotation: Option<Box<Expr>>,
}

/// A type variable of a method: `T` in `f(x::T) where {T <: Real}`.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeVar {
    /// The variable's name.
    pub name: Name,
    /// Its upper bound (`Real`), if given.
    pub bound: Option<Expr>,
}

/// Binary operators, in the spelling of the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `\` (left division / linear solve)
    LeftDiv,
    /// `^`
    Pow,
    /// `÷` (integer division)
    IntDiv,
    /// `%` (remainder)
    Rem,
    /// `==`
    Eq,
    /// `!=`, `≠`
    Ne,
    /// `<`
    Lt,
    /// `<=`, `≤`
    Le,
    /// `>`
    Gt,
    /// `>=`, `≥`
    Ge,
    /// `≈` (isapprox)
    Approx,
    /// `===`
    Identical,
    /// `!==`
    NotIdentical,
    /// `&` (bitwise/elementwise and)
    BitAnd,
    /// `|` (bitwise/elementwise or)
    BitOr,
    /// `=>` (pair)
    Pair,
    /// `∈`, `in` (membership, outside `for`)
    In,
    /// `|>` (pipe: `x |> f` is `f(x)`)
    Pipe,
    /// `∘` (function composition)
    Compose,
    /// `<:` (subtype test)
    Subtype,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `+x`
    Plus,
    /// `!x`
    Not,
    /// `√x`
    Sqrt,
}

impl UnaryOp {
    /// The function the operator calls (`-`, `+`, `!`, `sqrt`), for user methods.
    pub fn function_name(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Plus => "+",
            UnaryOp::Not => "!",
            UnaryOp::Sqrt => "sqrt",
        }
    }
}

impl BinOp {
    /// The operator as written (`"+"`, `"\\"`, `"≈"`), used for function names and messages.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::LeftDiv => "\\",
            BinOp::Pow => "^",
            BinOp::IntDiv => "÷",
            BinOp::Rem => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Approx => "≈",
            BinOp::Identical => "===",
            BinOp::NotIdentical => "!==",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::Pair => "=>",
            BinOp::In => "in",
            BinOp::Pipe => "|>",
            BinOp::Compose => "∘",
            BinOp::Subtype => "<:",
        }
    }
}
