//! The reference packages' own test suites, ported: every `tests/conformance/*.dl` must run
//! without error (each counts its cases and fails on any that does not hold, see
//! `docs/conformance.md`) and print `ok` last.

use difflab_session::{Event, ExecuteOptions, Session};

#[test]
fn every_ported_suite_passes() {
    let dir = difflab_tests::package_dir().join("conformance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/conformance exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "dl"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "the ported suites are missing");
    for file in files {
        let code = std::fs::read_to_string(&file).expect("readable script");
        let options = ExecuteOptions {
            store_history: false,
            show_result: false,
            source_name: Some(file.display().to_string()),
        };
        let (outcome, events) = Session::new().execute_collect(&code, &options);
        let output = difflab_tests::render(&events);
        let errors = events.iter().any(|e| matches!(e, Event::Error(_)));
        assert!(!outcome.failed && !errors, "{}:\n{output}", file.display());
        assert!(
            output.trim_end().ends_with("ok"),
            "{}:\n{output}",
            file.display()
        );
    }
}
