//! A clone of the repository is all that its tests, benchmarks and notebooks need: no file in it
//! refers to material beside the checkout (a `shared/` directory next to it, which a user's
//! clone does not have). The data they read lives in `tests/fixtures/`, the peer benchmark in
//! `tests/peers/`. Build output, virtual environments and version-control metadata are skipped.

use std::path::{Path, PathBuf};

/// Directories that hold no source of the project.
const SKIPPED_DIRECTORIES: &[&str] = &[
    ".git",
    "target",
    ".venv",
    "__pycache__",
    ".ipynb_checkpoints",
    "corpus",
    "artifacts",
];

/// Ways of reaching the directory beside the checkout. Built from pieces, so that this file
/// does not match them itself.
fn needles() -> Vec<String> {
    let shared = "shared";
    vec![
        format!("../{shared}"),
        format!("{shared}/data"),
        format!("{shared}/bench"),
        format!("{shared}/seeds"),
        format!("next to {shared}"),
        // The quoted name as a path component, as in the language's `joinpath("..", …)`.
        format!("\"{shared}\","),
    ]
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.expect("a readable directory entry");
        let path = entry.path();
        let name = entry.file_name();
        let file_type = entry.file_type().expect("a file type");
        if file_type.is_dir() {
            if !SKIPPED_DIRECTORIES.iter().any(|skip| name == *skip) {
                files_under(&path, out);
            }
        } else if file_type.is_file() {
            out.push(path);
        }
    }
}

#[test]
fn no_file_refers_outside_the_repository() {
    let tests = difflab_tests::package_dir();
    let root = tests.parent().expect("tests/ is inside the repository");
    // `tests/self_contained` names the copy it made, to prove the copy is what gets read.
    if let Some(expected) = std::env::var_os("DIFFLAB_EXPECTED_ROOT") {
        assert_eq!(
            root.canonicalize().expect("the root exists"),
            Path::new(&expected)
                .canonicalize()
                .expect("the expected root exists"),
            "the test reads another checkout than the one under test"
        );
    }
    let mut files = Vec::new();
    files_under(root, &mut files);
    files.sort();
    assert!(
        files.len() > 100,
        "the walk found only {} files",
        files.len()
    );
    let needles = needles();
    let mut offenders = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read(file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&text);
        let relative = file
            .strip_prefix(root)
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/");
        for (number, line) in text.lines().enumerate() {
            if let Some(needle) = needles.iter().find(|n| line.contains(n.as_str())) {
                offenders.push(format!("{relative}:{}: {needle}", number + 1));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "these lines refer to files outside the repository (keep such data in tests/fixtures):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_fixtures_say_where_they_come_from() {
    let fixtures = difflab_tests::package_dir().join("fixtures");
    for required in [
        "README.md",
        "matrices/SOURCES.md",
        "matrices/colpack_counts.tsv",
        "pglib/SOURCES.md",
        "pglib/LICENSE",
    ] {
        assert!(
            fixtures.join(required).is_file(),
            "tests/fixtures/{required} is missing"
        );
    }
    let sources = std::fs::read_to_string(fixtures.join("pglib/SOURCES.md")).expect("readable");
    assert!(sources.contains("Creative Commons Attribution 4.0"));
}
