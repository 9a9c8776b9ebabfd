//! The interactive prompt end to end: the real binary in a pseudo-terminal, typed at as a person
//! would (Enter is `\r`), with its history in a temporary file.

mod pty;

use pty::{bracketed_paste, temp_dir, Repl};
use std::time::Duration;

const PROMPT: &str = "difflab> ";
const ENTER: &str = "\r";
const CTRL_C: &str = "\x03";
const CTRL_D: &str = "\x04";
const UP: &str = "\x1b[A";

/// A prompt with its own history file, past the banner.
fn start(test: &str) -> (Repl, std::path::PathBuf) {
    let dir = temp_dir(test);
    let history = dir.join("history");
    let mut repl = Repl::start(&[], &history, |_| {});
    repl.expect(&format!("difflab {}", env!("CARGO_PKG_VERSION")));
    repl.expect("?gradient");
    repl.expect(PROMPT);
    (repl, history)
}

/// Types `input` and Enter, waits for `output` right below the input line, then for the next
/// prompt. (The editor redraws the line as it is typed, so only the line followed by its
/// output shows that the input ran.)
fn run(repl: &mut Repl, input: &str, output: &str) {
    repl.send(&format!("{input}{ENTER}"));
    repl.expect(&format!("{input}\n{output}"));
    repl.expect(PROMPT);
}

#[test]
fn the_banner_names_the_version_and_ctrl_d_exits() {
    let (mut repl, _) = start("banner");
    repl.send(CTRL_D);
    assert_eq!(repl.exit_status(), 0);
}

#[test]
fn a_pasted_seed_listing_runs_as_one_input() {
    let (mut repl, history) = start("paste");
    // Listing 1 of the DifferentiationInterface paper, with `f` spelled over several lines.
    let listing = "using DifferentiationInterface\n\
                   import ForwardDiff\n\
                   back = AutoForwardDiff()\n\
                   function f(x)\n    return sum(abs2, x)\nend\n\
                   x = float.(1:5)\n\
                   prep = prepare_gradient(f, back, zero(x))\n\
                   for iteration in 1:1000\n    x -= 0.1 * gradient(f, prep, back, x)\nend\n\
                   x\n";
    repl.send(&bracketed_paste(listing));
    repl.send(ENTER);
    let shown = repl.expect("5-element Vector{Float64}:\n 1.2302319221611202e-97");
    // One input: only its last value is shown, not the function's or the preparation's.
    assert!(!shown.contains("generic function"), "{shown}");
    assert!(!shown.contains("GradientPrep"), "{shown}");
    repl.expect(PROMPT);
    repl.send(CTRL_D);
    assert_eq!(repl.exit_status(), 0);
    // The history holds the listing as one entry (rustyline escapes its newlines).
    let saved = std::fs::read_to_string(&history).unwrap();
    assert!(
        saved.contains("import ForwardDiff\\nback = AutoForwardDiff()"),
        "{saved}"
    );
}

#[test]
fn typed_blocks_continue_with_indentation_until_complete() {
    let (mut repl, _) = start("typed-block");
    repl.send(&format!("function h(x){ENTER}"));
    // The unfinished input goes on with an indented line instead of running.
    repl.send(&format!("y = x + 1{ENTER}"));
    repl.expect("function h(x)\n    y = x + 1");
    // Typing `end` moves it back to the block's column, and the input then runs.
    repl.send(&format!("end{ENTER}"));
    repl.expect("end\nh (generic function with 1 method)");
    repl.expect(PROMPT);
    run(&mut repl, "h(41)", "42\n");
}

/// How a multi-line input reaches the prompt.
#[derive(Debug, Clone, Copy)]
enum Arrival {
    /// All of it in one write: a terminal without bracketed paste, or a program (an editor, a
    /// terminal multiplexer) writing code to the terminal.
    OneChunk,
    /// One write per line, Enter included: a fast typist, or code sent line by line.
    LineChunks,
    /// One key at a time, each after the prompt answered the one before.
    KeyByKey,
}

/// Enters `lines` (each followed by Enter) as `arrival` says.
fn enter_lines(repl: &mut Repl, lines: &[&str], arrival: Arrival) {
    let with_enter = |line: &&str| format!("{line}{ENTER}");
    match arrival {
        Arrival::OneChunk => repl.send(&lines.iter().map(with_enter).collect::<String>()),
        Arrival::LineChunks => lines.iter().for_each(|line| repl.send(&with_enter(line))),
        Arrival::KeyByKey => repl.type_keys(&lines.iter().map(with_enter).collect::<String>()),
    }
}

#[test]
fn blocks_arriving_in_chunks_or_key_by_key_end_up_the_same() {
    // The block as the prompt shows it once entered: indented one level per open block, closers
    // one level out.
    let shown = "function clamp01(v)\n    if v < 0\n        return 0.0\n    else\n        \
                 return min(v, 1.0)\n    end\nend\nclamp01 (generic function with 1 method)";
    // Typed relying on auto-indentation, and pasted (or sent by an editor) with its own.
    let typed = [
        "function clamp01(v)",
        "if v < 0",
        "return 0.0",
        "else",
        "return min(v, 1.0)",
        "end",
        "end",
    ];
    let pasted = [
        "function clamp01(v)",
        "    if v < 0",
        "        return 0.0",
        "    else",
        "        return min(v, 1.0)",
        "    end",
        "end",
    ];
    for arrival in [Arrival::OneChunk, Arrival::LineChunks, Arrival::KeyByKey] {
        for lines in [&typed, &pasted] {
            let (mut repl, _) = start(&format!("chunks-{arrival:?}"));
            enter_lines(&mut repl, lines, arrival);
            let before = repl.expect(shown);
            assert!(
                !before.contains("ERROR"),
                "{arrival:?}, {lines:?}:\n{before}"
            );
            repl.expect(PROMPT);
            // The next input goes on normally, after a block that arrived whole as well.
            enter_lines(&mut repl, &["clamp01.([-2, 0.5, 3])"], arrival);
            repl.expect("3-element Vector{Float64}:\n 0.0\n 0.5\n 1.0\n");
            repl.expect(PROMPT);
            repl.send(CTRL_D);
            assert_eq!(repl.exit_status(), 0, "{arrival:?}, {lines:?}");
        }
    }
}

#[test]
fn tab_completes_names_and_latex_symbols() {
    let (mut repl, _) = start("complete");
    // `prin` is the common prefix of `print` and `println`: Tab extends it to `print`, a second
    // Tab lists both, and the unique `printl` completes to `println`.
    repl.send("prin\t");
    repl.expect("print");
    repl.send("\t");
    repl.expect("println");
    repl.send(&format!("l\t(\"done\"){ENTER}"));
    repl.expect("println(\"done\")\ndone\n");
    repl.expect(PROMPT);
    // `\alpha<Tab>` becomes `α`, a name like any other.
    repl.send("\\alpha\t");
    repl.expect("α");
    repl.send(&format!(" = 0.25{ENTER}"));
    repl.expect("α = 0.25\n0.25\n");
    repl.expect(PROMPT);
    run(&mut repl, "4α", "1.0\n");
    // Keyword arguments of the function being called complete too.
    repl.send("AutoReverseDiff(compi\t");
    repl.expect("AutoReverseDiff(compile=");
    repl.send(&format!("true){ENTER}"));
    repl.expect("AutoReverseDiff(compile=true)\nAutoReverseDiff(compile=true)\n");
    repl.expect(PROMPT);
}

#[test]
fn history_survives_a_restart_with_prefix_search() {
    let dir = temp_dir("history");
    let history = dir.join("history");
    let mut first = Repl::start(&[], &history, |_| {});
    first.expect(PROMPT);
    run(&mut first, "marker_value = 12345", "12345\n");
    run(&mut first, "other_value = 7", "7\n");
    first.send(CTRL_D);
    assert_eq!(first.exit_status(), 0);

    let mut second = Repl::start(&[], &history, |_| {});
    second.expect(PROMPT);
    // Up on an empty line recalls the last input; with `mark` typed it finds the entry
    // starting with it, skipping the newer `other_value`.
    second.send(UP);
    second.expect("other_value = 7");
    second.send("\x15mark"); // Ctrl-U clears the line.
    second.send(UP);
    second.expect("marker_value = 12345");
    second.send(ENTER);
    second.expect("marker_value = 12345\n12345\n");
    second.expect(PROMPT);
}

#[test]
fn ctrl_c_interrupts_running_code_and_keeps_the_variables() {
    let (mut repl, _) = start("interrupt");
    run(&mut repl, "before = 41", "41\n");
    repl.send(&format!("while true end{ENTER}"));
    repl.expect("while true end\n");
    // The line editor has left raw mode when it echoes the newline, so this Ctrl-C raises
    // SIGINT; should it still be lost on a very busy machine, send it again.
    let mut interrupted = false;
    for _ in 0..6 {
        repl.send(CTRL_C);
        if repl
            .expect_within("InterruptException", Duration::from_secs(10))
            .is_some()
        {
            interrupted = true;
            break;
        }
    }
    assert!(interrupted, "no InterruptException:\n{}", repl.unconsumed());
    repl.expect(PROMPT);
    run(&mut repl, "before + 1", "42\n");
    // Ctrl-C at the prompt only drops the line being typed.
    repl.send(&format!("not_run = 1{CTRL_C}"));
    repl.expect(PROMPT);
    run(&mut repl, "not_run", "ERROR: UndefVarError");
    repl.send(CTRL_D);
    assert_eq!(repl.exit_status(), 0);
}

#[test]
fn an_error_is_red_with_a_caret_and_work_goes_on() {
    let (mut repl, _) = start("error");
    run(&mut repl, "x = 2", "2\n");
    run(
        &mut repl,
        "x + undefined_name",
        "ERROR: UndefVarError: `undefined_name` not defined\n  x + undefined_name\n      ^^^^^^^^^^^^^^",
    );
    let raw = String::from_utf8_lossy(&repl.raw()).into_owned();
    assert!(
        raw.contains("\x1b[1;31mERROR:"),
        "ERROR: is bold red: {raw:?}"
    );
    run(&mut repl, "x * 21", "42\n");
    // A syntax error is reported where it is, and the session goes on too.
    run(&mut repl, "y = (1 + ]", "ERROR: LoadError");
    run(&mut repl, "x", "2\n");
}

#[test]
fn no_color_turns_error_colours_off() {
    let dir = temp_dir("no-color");
    let mut repl = Repl::start(&[], &dir.join("history"), |c| {
        c.env("NO_COLOR", "1");
    });
    repl.expect(PROMPT);
    run(&mut repl, "undefined_name", "ERROR: UndefVarError");
    let raw = String::from_utf8_lossy(&repl.raw()).into_owned();
    assert!(!raw.contains("\x1b[1;31m"), "{raw:?}");
    assert!(
        !raw.contains("\x1b[35m"),
        "no syntax colours either: {raw:?}"
    );
}

#[test]
fn help_ans_semicolon_and_clear_output() {
    let (mut repl, _) = start("help");
    // The prompt turns into `help?>` while the line is a help query.
    repl.send("?gradien");
    repl.expect("help?> ");
    repl.send(&format!("t{ENTER}"));
    repl.expect("?gradient\n    gradient(f, [prep,] backend, x");
    repl.expect(PROMPT);
    run(&mut repl, "3 * 7", "21\n");
    // A trailing `;` hides the value (the prompt follows the blank line at once); `ans` still
    // holds it.
    run(&mut repl, "ans + 1;", "\n");
    run(&mut repl, "ans", "22\n");
    run(&mut repl, "clear_output()", "");
    let raw = String::from_utf8_lossy(&repl.raw()).into_owned();
    assert!(raw.contains("\x1b[2J"), "the screen is cleared");
}

#[test]
fn a_file_then_the_prompt_with_dash_i() {
    let dir = temp_dir("file-i");
    let script = dir.join("setup.dl");
    std::fs::write(&script, "from_file = 6\nprintln(\"loaded\")\n").unwrap();
    let script = script.to_string_lossy().into_owned();
    let mut repl = Repl::start(&[&script, "-i"], &dir.join("history"), |_| {});
    repl.expect("loaded\n");
    repl.expect(PROMPT);
    run(&mut repl, "from_file * 7", "42\n");
}

#[test]
fn plots_and_matrices_follow_the_terminal_size() {
    let (mut repl, _) = start("resize");
    repl.resize(140, 40);
    run(&mut repl, "displaysize()", "(40, 140)");
    let shown = |repl: &mut Repl, input: &str| {
        repl.send(&format!("{input}{ENTER}"));
        repl.expect(&format!("{input}\n"));
        repl.expect(PROMPT)
    };
    let wide = shown(&mut repl, "p = plot(1:50, (1:50) .^ 2)");
    repl.resize(60, 30);
    run(&mut repl, "displaysize()", "(30, 60)");
    let narrow = shown(&mut repl, "p");
    let widest = |text: &str| text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(
        widest(&wide) > 120,
        "a 140-column terminal gets a wide plot:\n{wide}"
    );
    assert!(
        widest(&narrow) <= 60,
        "a 60-column terminal gets a narrow plot:\n{narrow}"
    );
    // Julia truncates wide matrices to the terminal's width (60 columns here).
    run(
        &mut repl,
        "ones(2, 30)",
        "2×30 Matrix{Float64}:\n 1.0  1.0  1.0  1.0  1.0  1.0  …  1.0  1.0  1.0  1.0  1.0",
    );
}
