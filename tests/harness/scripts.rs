//! Self-checking language scripts: every `tests/scripts/*.dl` must run without error (they
//! check their results with `@assert`) and print `ok` last.

use difflab_session::{Event, ExecuteOptions, Session};

#[test]
fn every_script_runs_and_its_assertions_hold() {
    let dir = difflab_tests::package_dir().join("scripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/scripts exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "dl"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let code = std::fs::read_to_string(&file).expect("readable script");
        let options = ExecuteOptions {
            store_history: false,
            show_result: false,
            source_name: Some(file.display().to_string()),
        };
        let (outcome, events) = Session::new().execute_collect(&code, &options);
        let output = difflab_tests::render(&events);
        let errors: Vec<_> = events
            .iter()
            .filter(|e| matches!(e, Event::Error(_)))
            .collect();
        assert!(
            !outcome.failed && errors.is_empty(),
            "{}:\n{output}",
            file.display()
        );
        assert!(
            output.trim_end().ends_with("ok"),
            "{}:\n{output}",
            file.display()
        );
    }
}
