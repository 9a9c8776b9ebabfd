//! Every Rust source file of this crate opens with a `//!` doc saying what it is for.

use std::path::Path;

fn check_dir(dir: &Path, missing: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("readable directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            check_dir(&path, missing);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("readable file");
            if !text.starts_with("//!") {
                missing.push(path.display().to_string());
            }
        }
    }
}

#[test]
fn every_source_file_has_a_module_doc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    for dir in ["src", "tests", "benches"] {
        check_dir(&root.join(dir), &mut missing);
    }
    assert!(
        missing.is_empty(),
        "files without a leading //! doc: {missing:?}"
    );
}
