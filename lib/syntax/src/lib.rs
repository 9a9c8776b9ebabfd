//! difflab-syntax: the source text of the difflab language turned into an [`ast`].
//!
//! [`lexer`] makes tokens with byte spans, [`parser`] builds the tree by precedence climbing,
//! [`names`] interns identifiers, [`span`] maps byte offsets to lines and columns. Nothing here
//! evaluates anything; the evaluator lives in `difflab-lang`.

pub mod ast;
pub mod lexer;
pub mod names;
pub mod parser;
pub mod span;

pub use ast::{
    Arg, BinOp, Block, Expr, ExprKind, FunctionDef, Generator, GeneratorFunctions, Kwarg, Param,
    Pattern, StrPart, StructDef, TypeVar, UnaryOp,
};
pub use names::Name;
pub use parser::{parse, ParseError, ParseErrorKind};
pub use span::{line_col, line_text, Span};
