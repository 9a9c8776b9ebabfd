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

/// Runs `difflab args…` with `stdin` piped in.
fn with_stdin(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = difflab()
        .args(args)
        .env("DIFFLAB_HISTORY", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn piped_input_runs_each_complete_input_and_shows_its_value() {
    let out = with_stdin(
        &[],
        "function f(x)\n    2x\nend\nf(2)\n\nprint(\"a\")\nf(3);\nans + 1\nspy(sparse([1, 2], [1, 2], [1.0, 2.0]))\n",
    );
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("f (generic function with 1 method)\n4\na\n7\n"),
        "{stdout}"
    );
    // A plot's text/plain is braille art: it just prints.
    assert!(stdout.contains('⣿'), "{stdout}");
    assert!(!stdout.contains("difflab>"), "no prompt: {stdout}");
}

#[test]
fn piped_input_goes_on_after_an_error_and_exits_nonzero() {
    let out = with_stdin(&[], "x = 1\nx + nope\nx + 1\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n2\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("UndefVarError: `nope` not defined"), "{err}");
    assert!(!err.contains("\x1b["), "no colours into a pipe: {err:?}");
}

#[test]
fn a_file_with_dash_i_then_reads_piped_input() {
    let dir = std::env::temp_dir().join(format!("difflab-cli-i-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("setup.dl");
    std::fs::write(&script, "base = 40\n").unwrap();
    let out = with_stdin(&[script.to_str().unwrap(), "-i"], "base + 2\n");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "42\n");
}

#[test]
fn help_names_the_modes_and_the_history_file() {
    let out = difflab().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for needle in ["-e CODE", "FILE", "-i", "DIFFLAB_HISTORY", "?name"] {
        assert!(help.contains(needle), "{needle}: {help}");
    }
    let out = difflab().arg("--bogus").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_reader_that_goes_away_ends_the_program_quietly() {
    // `difflab script.dl | head -1`: the rest of the output has nowhere to go.
    let mut child = difflab()
        .args(["-e", "for i in 1:200000 println(i) end"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut first,
    )
    .unwrap();
    assert_eq!(first, "1\n");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(output.status.success(), "{:?}", output.status);
}
