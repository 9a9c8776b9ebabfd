//! Every builtin of the registry, called with generated arguments (none, one, two and three of
//! them from a pool of ordinary, empty, huge, non-finite and wrongly typed values, and with a
//! keyword it does not document), returns a value or raises a typed language error: it never
//! panics. The registry is enumerated, not listed by hand, so a new builtin is covered at once.

use difflab_lang::{Capture, Config, Interp, Source};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::time::Instant;

/// Arguments as source text: numbers of every kind, empty and huge sizes, non-finite values,
/// strings, symbols, collections, functions, sparse matrices and library objects.
const POOL: &[&str] = &[
    "0",
    "-1",
    "3",
    "2.5",
    "-0.0",
    "NaN",
    "Inf",
    "10^12",
    "typemax(Int)",
    "true",
    "\"abc\"",
    ":central",
    "nothing",
    "[1.0, 2.0, 3.0]",
    "Float64[]",
    "[1 2; 3 4]",
    "zeros(0, 2)",
    "1:3",
    "(1, 2)",
    "(a = 1,)",
    "Any[1, \"a\"]",
    "sin",
    "x -> x",
    "sparse([1.0 0.0; 0.0 2.0])",
    "AutoForwardDiff()",
];

/// A smaller pool for the second argument, to keep the combinations few.
const SECOND: &[&str] = &["2", "1.5", "-1", "NaN", "[1.0, 2.0]", "\"b\"", "x -> x"];

/// The third arguments.
const THIRD: &[&str] = &["0", "2.5", "[1.0, 2.0]", "x -> x"];

/// Values given to every documented keyword.
const KEYWORD_VALUES: &[&str] = &["2", "-1", "NaN", "true", "\"s\"", ":x", "nothing", "[1, 2]"];

fn interp() -> Interp {
    let config = Config {
        memory_limit: 64 << 20,
        ..Config::default()
    };
    Interp::new(config, Box::new(Capture::default()))
}

/// Runs `code`; `Err` with a description when it panicked or raised an internal error.
fn run(interp: &mut Interp, code: &str) -> Result<(), String> {
    let parsed = difflab_syntax::parse(code).map_err(|e| format!("{code}: {}", e.message()))?;
    let source = Rc::new(Source {
        name: "generated".into(),
        text: code.into(),
    });
    match catch_unwind(AssertUnwindSafe(|| interp.run(&parsed, source))) {
        Ok(outcome) => {
            if std::env::var_os("DIFFLAB_ONLY").is_some() {
                eprintln!("  -> {:?}", outcome.map_err(|e| e.message));
            }
            Ok(())
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(format!("{code}: panicked: {what}"))
        }
    }
}

/// The keywords a docstring's signature lines document (`    f(x; dims=1, init)`).
fn documented_keywords(doc: &str) -> Vec<String> {
    let mut keywords = Vec::new();
    for line in doc.lines().filter(|l| l.starts_with("    ")) {
        let Some((_, after)) = line.split_once(';') else {
            continue;
        };
        let inside = after.split(')').next().unwrap_or("");
        for part in inside.split(',') {
            let word = part
                .split('=')
                .next()
                .unwrap_or("")
                .trim()
                .trim_end_matches("...");
            if !word.is_empty() && word.chars().all(|c| c.is_alphanumeric() || c == '_') {
                keywords.push(word.to_string());
            }
        }
    }
    keywords.sort();
    keywords.dedup();
    keywords
}

/// The calls generated for the builtin called `name`.
fn calls(name: &str, doc: &str) -> Vec<String> {
    let callee = if name.chars().next().is_some_and(char::is_alphabetic) {
        name.to_string()
    } else {
        format!("({name})")
    };
    let mut out = vec![format!("{callee}()")];
    for keyword in documented_keywords(doc) {
        for value in KEYWORD_VALUES {
            out.push(format!("{callee}(; {keyword}={value})"));
            for a in SECOND {
                out.push(format!("{callee}({a}; {keyword}={value})"));
            }
        }
    }
    for a in POOL {
        out.push(format!("{callee}({a})"));
        out.push(format!("{callee}({a}; undocumented_keyword=1)"));
        for b in SECOND {
            out.push(format!("{callee}({a}, {b})"));
        }
    }
    for a in THIRD {
        for b in THIRD {
            for c in THIRD {
                out.push(format!("{callee}({a}, {b}, {c})"));
            }
        }
    }
    out
}

#[test]
fn no_builtin_panics_on_generated_arguments() {
    // Builtins that write files by default write them here, not into the repository.
    let scratch =
        std::env::temp_dir().join(format!("difflab-every-builtin-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch directory");
    std::env::set_current_dir(&scratch).expect("enter the scratch directory");
    let mut failures = Vec::new();
    let mut slow = Vec::new();
    // Keywords that are also functions (`in`) are called as operators elsewhere.
    let mut builtins: Vec<(&str, &str)> = difflab_lang::builtins::all()
        .map(|b| (b.name, b.doc))
        .filter(|(n, _)| difflab_syntax::lexer::Keyword::from_word(n).is_none())
        .collect();
    builtins.sort_unstable();
    builtins.dedup_by_key(|(n, _)| *n);
    // `DIFFLAB_ONLY=name` runs one builtin's calls, printing each (to find a slow one).
    let only = std::env::var("DIFFLAB_ONLY").ok();
    for (name, doc) in builtins.into_iter().filter(|(n, _)| {
        !difflab_lang::builtins::ACTING_ON_THE_OUTSIDE.contains(n)
            && only.as_deref().is_none_or(|o| o == *n)
    }) {
        // A fresh interpreter per builtin: no state leaks from one builtin's calls to another's.
        let mut interp = interp();
        let started = Instant::now();
        for code in calls(name, doc) {
            if only.is_some() {
                eprintln!("{code}");
            }
            if let Err(failure) = run(&mut interp, &code) {
                failures.push(failure);
            }
        }
        let seconds = started.elapsed().as_secs_f64();
        if std::env::var_os("DIFFLAB_TIMINGS").is_some() {
            eprintln!("{name}: {seconds:.2} s");
        }
        if seconds > 5.0 {
            slow.push(format!("{name}: {seconds:.1} s"));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        failures.is_empty(),
        "{} generated calls panicked:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        slow.is_empty(),
        "builtins slow on generated arguments:\n{}",
        slow.join("\n")
    );
}
