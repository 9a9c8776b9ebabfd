//! Matrix Market files (being written).

crate::builtins! {}
