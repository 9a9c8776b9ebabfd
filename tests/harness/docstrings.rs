//! The examples of the help run: every `julia>` example in the docstrings of the builtin
//! registry, of the macros and of the keywords `?` explains is evaluated, and what it shows must
//! be the output written under it, as Julia's doctests check theirs.
//!
//! The registry is enumerated, not listed by hand, so a new builtin's example is checked at
//! once. The examples of one docstring run in order in one fresh session (later ones use
//! earlier definitions); an input ending in `;` shows nothing, so examples with random or
//! timed output end that way or print a property of the value instead.

use difflab_session::{Event, ExecuteOptions, Session, StreamName};

const PROMPT: &str = "julia> ";
/// Continuation lines of a multi-line example are indented to the prompt's width.
const CONTINUATION: &str = "       ";

/// One example: its input and the output written under it.
struct Example {
    input: String,
    expected: String,
}

/// The examples of a docstring, from its fenced code blocks.
fn examples(doc: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    let mut in_input = false;
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            examples.extend(current.take());
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(code) = line.strip_prefix(PROMPT) {
            examples.extend(current.take());
            current = Some(Example {
                input: code.to_string(),
                expected: String::new(),
            });
            in_input = true;
            continue;
        }
        let Some(example) = current.as_mut() else {
            continue;
        };
        match line.strip_prefix(CONTINUATION) {
            Some(rest) if in_input && !line.trim().is_empty() => {
                example.input.push('\n');
                example.input.push_str(rest);
            }
            _ => {
                in_input = false;
                example.expected.push_str(line);
                example.expected.push('\n');
            }
        }
    }
    examples.extend(current);
    examples
}

/// Output lines compared as Julia's doctests compare them: trailing blanks and blank lines at
/// the end do not count.
fn normalized(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |k| k + 1);
    lines[..end].join("\n")
}

/// The docstrings to check: `(topic, docstring)`.
fn docstrings() -> Vec<(String, &'static str)> {
    let mut docs: Vec<(String, &'static str)> = difflab_lang::builtins::all()
        .map(|b| (b.name.to_string(), b.doc))
        .collect();
    for name in difflab_lang::eval::macros::MACROS {
        let doc = difflab_lang::eval::macros::macro_doc(&format!("@{name}"));
        docs.push((
            format!("@{name}"),
            doc.expect("every listed macro is documented"),
        ));
    }
    for name in difflab_lang::builtins::DOCUMENTED_CONSTANTS {
        let doc = difflab_lang::builtins::constant_doc(name);
        docs.push((
            name.to_string(),
            doc.expect("every listed constant is documented"),
        ));
    }
    for topic in difflab_lang::eval::keyword_help::KEYWORD_TOPICS {
        let doc = difflab_lang::eval::keyword_help::keyword_doc(topic);
        docs.push((
            topic.to_string(),
            doc.expect("every listed keyword is documented"),
        ));
    }
    docs
}

/// The examples of `doc` that show something else than written, with what they showed.
fn mismatches(doc: &str) -> Vec<String> {
    let mut session = Session::new();
    let mut found = Vec::new();
    for (k, example) in examples(doc).iter().enumerate() {
        let options = ExecuteOptions {
            source_name: Some(format!("REPL[{}]", k + 1)),
            ..ExecuteOptions::default()
        };
        let (_, events) = session.execute_collect(&example.input, &options);
        // Progress bars and warnings go to stderr; an example shows what stdout and the
        // result show.
        let events: Vec<Event> = events
            .into_iter()
            .filter(|e| {
                !matches!(
                    e,
                    Event::Stream {
                        name: StreamName::Stderr,
                        ..
                    }
                )
            })
            .collect();
        let shown = normalized(&difflab_tests::render(&events));
        let expected = normalized(&example.expected);
        if !matches(&shown, &expected) {
            found.push(format!(
                "julia> {}\n--- written:\n{expected}\n--- shown:\n{shown}",
                example.input
            ));
        }
    }
    found
}

/// True when `shown` is what `written` says: line by line, where a written line ending in
/// `...` stands for any line starting with what precedes it, and a last written line `...` for
/// any lines that follow. An error matches on the lines written, as doctests written against
/// Julia's own stack traces do: what follows them (the span, the trace) is the session's.
fn matches(shown: &str, written: &str) -> bool {
    let shown: Vec<&str> = shown.lines().collect();
    let mut written: Vec<&str> = written.lines().collect();
    let open_ended =
        written.last() == Some(&"...") || written.first().is_some_and(|l| l.starts_with("ERROR:"));
    if written.last() == Some(&"...") {
        written.pop();
    }
    let lengths_fit = if open_ended {
        shown.len() >= written.len()
    } else {
        shown.len() == written.len()
    };
    lengths_fit
        && shown
            .iter()
            .zip(&written)
            .all(|(s, w)| match w.strip_suffix("...") {
                Some(prefix) => s.starts_with(prefix),
                None => s == w,
            })
}

#[test]
fn every_docstring_example_shows_what_it_says() {
    // Examples name files by their path in the repository.
    std::env::set_current_dir(difflab_tests::package_dir().join(".."))
        .expect("the repository is there");
    let docs = docstrings();
    let total: usize = docs.iter().map(|(_, d)| examples(d).len()).sum();
    assert!(
        total > 300,
        "only {total} examples found: is the parser right?"
    );
    let mut failures = Vec::new();
    for (topic, doc) in &docs {
        for mismatch in mismatches(doc) {
            failures.push(format!("?{topic}\n{mismatch}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} docstring examples differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn examples_are_read_as_julia_writes_them() {
    let doc = "    f(x)\n\nText.\n\n```\njulia> a = 1;\n\njulia> function g(y)\n           y + a\n       end;\n\njulia> g(2)\n3\n\njulia> [1, 2]\n2-element Vector{Int64}:\n 1\n 2\n```";
    let found = examples(doc);
    assert_eq!(found.len(), 4);
    assert_eq!(found[1].input, "function g(y)\n    y + a\nend;");
    assert_eq!(normalized(&found[2].expected), "3");
    assert_eq!(
        normalized(&found[3].expected),
        "2-element Vector{Int64}:\n 1\n 2"
    );
    assert!(mismatches(doc).is_empty());
    assert_eq!(mismatches("```\njulia> 1 + 1\n3\n```").len(), 1);
    assert!(
        mismatches("```\njulia> [0.5, 1.0]\n2-element Vector{Float64}:\n 0.5...\n...\n```")
            .is_empty()
    );
    assert_eq!(
        mismatches("```\njulia> [0.5, 1.0]\n2-element Vector{Float64}:\n 0.4...\n...\n```").len(),
        1
    );
    assert!(mismatches("```\njulia> sqrt(-1.0)\nERROR: DomainError with -1.0:\n```").is_empty());
}
