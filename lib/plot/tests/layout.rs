//! Checks the crate's own house rules: every Rust file opens with a `//!` doc saying what it is
//! for, and stays short enough to read in one sitting.
//!
//! See the project's STYLE.md ("Every file opens with a `//!` doc").

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn every_file_opens_with_a_module_doc_and_stays_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "examples"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() >= 10);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.starts_with("//!"), "{} has no //! doc", file.display());
        let lines = text.lines().count();
        assert!(lines <= 500, "{} has {lines} lines", file.display());
    }
}
