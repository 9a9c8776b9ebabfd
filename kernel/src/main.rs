//! The difflab Jupyter kernel.
fn main() {}
