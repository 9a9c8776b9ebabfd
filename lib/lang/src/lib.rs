//! difflab-lang: the evaluator, values and builtin library of the difflab language.
//!
//! Source text is parsed by `difflab-syntax`; [`eval::Interp`] walks the tree producing
//! [`value::Value`]s; array arithmetic runs as whole-array primitives of `difflab-ad`, so the
//! same user function runs on plain numbers or on numbers carrying derivatives. Builtins live
//! in [`builtins`], one module per family, each with its docstring. [`display`] and [`show`]
//! turn values into text as Julia prints them.
//!
//! Start with [`eval`] (the evaluator), then [`value`] and [`builtins`].

pub mod allocator;
pub mod builtins;
pub mod compile;
pub mod display;
pub mod error;
pub mod eval;
pub mod object;
pub mod output;
pub mod show;
pub mod types;
pub mod value;

pub use error::{ErrorKind, LangError, Source};
pub use eval::{Config, Interp};
pub use output::{Capture, Output, Stream};
pub use value::Value;
