//! The differentiation library of the language: backends ([`backends`]), contexts
//! ([`contexts`]), the operators and their variants ([`operators`]), preparation ([`prep`])
//! the recordings preparations run instead of the function ([`recording`]) and those
//! repeated sparsity detections run on ([`detection_recordings`]). The mathematics lives in `difflab_ad::di`; this module adapts interpreted
//! functions and language values to it.

pub mod backends;
pub mod benchmarking;
pub mod compare;
pub mod contexts;
pub mod custom_rule;
pub mod detection_recordings;
pub mod differentiate_with;
pub mod explain;
pub mod formula;
pub mod implicit;
pub mod implicit_prep;
pub mod implicit_solvers;
pub mod operators;
pub mod package_apis;
pub mod prep;
pub mod recommend;
pub mod recording;
pub mod scenarios;
pub mod sparse_ad;
pub mod tracers;
