//! Language tests as data: every `tests/data/*.dl` transcript must replay exactly.
//!
//! Set `UPDATE_TRANSCRIPTS=1` to rewrite the files with what the session now prints (then
//! review the diff: it is the snapshot).

use difflab_tests::run_transcript;
use std::path::Path;

#[test]
fn every_transcript_replays_exactly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "dl"))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no transcripts found in {}",
        dir.display()
    );
    let update = std::env::var_os("UPDATE_TRANSCRIPTS").is_some();
    let mut failures = Vec::new();
    for file in &files {
        let expected = std::fs::read_to_string(file).expect("readable transcript");
        let actual = run_transcript(&expected);
        if actual.trim_end() != expected.trim_end() {
            if update {
                std::fs::write(file, &actual).expect("writable transcript");
            } else {
                failures.push(format!(
                    "{}:\n--- expected\n{}\n--- actual\n{}",
                    file.display(),
                    expected.trim_end(),
                    actual.trim_end()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
