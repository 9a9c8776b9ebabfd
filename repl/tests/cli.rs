//! The `difflab` binary as a user runs it: scripts, `-e`, exit codes and stderr.

use std::process::Command;

fn difflab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_difflab"))
}

#[test]
fn eval_prints_and_succeeds() {
    let out = difflab().args(["-e", "println(1 + 1)"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n");
}

#[test]
fn a_failing_script_exits_nonzero_with_the_error_on_stderr() {
    let dir = std::env::temp_dir().join(format!("difflab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("bad.dl");
    std::fs::write(&script, "x = 1\nprintln(x)\ny = x + undefined_name\n").unwrap();
    let out = difflab().arg(&script).output().unwrap();
    assert!(!out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ERROR: UndefVarError: `undefined_name` not defined"),
        "{err}"
    );
    assert!(
        err.contains(":3:9"),
        "the error names line 3, column 9: {err}"
    );
}

#[test]
fn a_script_shows_only_what_it_prints() {
    let out = difflab().args(["-e", "x = 41 + 1\nx"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
}

#[test]
fn parse_errors_exit_nonzero_with_the_span() {
    let out = difflab().args(["-e", "x = (1 + "]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("ERROR: LoadError"), "{err}");
}
