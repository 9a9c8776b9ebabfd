//! Syntax errors: their messages, the spans they point at, and `is_incomplete`, which the REPL
//! and the notebook kernel use to decide whether to wait for more input.

mod common;

use common::error;
use difflab_syntax::{parse, ParseErrorKind};

/// Asserts that `src` fails with `message`, pointing at the text `at`.
fn check(src: &str, message: &str, at: &str) {
    let e = parse(src).expect_err(src);
    assert_eq!(e.message(), message, "source: {src:?}");
    let pointed = &src[e.span.start as usize..e.span.end as usize];
    assert_eq!(pointed, at, "span of the error in {src:?}");
}

#[test]
fn incomplete_inputs() {
    let incomplete = [
        "function f(x)",
        "function f(x)\n  x +",
        "x = [1, 2",
        "\"abc",
        "x = \"\"\"doc",
        "x +",
        "x = ",
        "x = 1 +\n",
        "f(x,",
        "(",
        "[1 2\n 3",
        "A[1, ",
        "T{",
        "a ?",
        "a ? b :",
        "a &&",
        "x ->",
        "a,",
        "x = 1,",
        "for i in 1:3",
        "for i in",
        "while true\n  x += 1",
        "if a\n  1\nelse\n  2",
        "if a\n  1\nelseif b",
        "try\n  x\ncatch",
        "try\n  x\ncatch e\n  y\nfinally",
        "begin",
        "let a = 1",
        "x = 1 #= open",
        "#= a #= b =#",
        "@assert x > 0 \"msg",
        "println(\"$(x\")",
        "\"$(f(\"",
        "using X:",
        "function f(x)\n  \"\"\"",
        "[x for x in",
        "f(x) =",
        "x[end",
    ];
    for src in incomplete {
        let e = parse(src).expect_err(src);
        assert!(
            e.is_incomplete(),
            "{src:?} should be incomplete, got {}",
            e.message()
        );
    }
}

#[test]
fn complete_but_wrong_inputs() {
    let wrong = [
        "end",
        "x = )",
        "1 2",
        ")",
        "]",
        "f(x)]",
        "else",
        "x = 1 end",
        "elseif",
        "if a 1 end end",
        "'ab'",
        "a ~ b",
        "module M end",
        "$x",
        "1 = x",
        "f (x)",
        "(1, 2]",
        "\"\\q\"",
        "99999999999999999999",
        "function f end",
        "@",
        "[1, 2; 3]",
        "x = \"a\" \"b\"",
    ];
    for src in wrong {
        let e = parse(src).expect_err(src);
        assert!(
            !e.is_incomplete(),
            "{src:?} should not be incomplete: {}",
            e.message()
        );
    }
}

/// (source, message, the text the error points at), as Julia reports them.
const MESSAGES: &[(&str, &str, &str)] = &[
    ("end", "unexpected \"end\"", "end"),
    ("x = )", "unexpected \")\"", ")"),
    ("1 2", "extra token \"2\" after end of expression", "2"),
    (
        "function f(x)",
        "incomplete: \"function\" at 1:1 requires end",
        "function",
    ),
    (
        "x = 1\nfor i in 1:3\n  x += i",
        "incomplete: \"for\" at 2:1 requires end",
        "for",
    ),
    ("f(x, [1, 2", "incomplete: \"[\" at 1:6 requires \"]\"", "["),
    ("x +", "unexpected end of input", ""),
    ("\"abc", "unterminated string literal", "\""),
    ("#= open", "unterminated multi-line comment #= ... =#", "#="),
    ("a ~ b", "invalid character \"~\"", "~"),
    (
        "99999999999999999999",
        "integer literal too large: \"99999999999999999999\"",
        "99999999999999999999",
    ),
    ("1e400", "overflow in numeric constant \"1e400\"", "1e400"),
    ("0x", "invalid numeric constant \"0x\"", "0x"),
    ("\"a\\qb\"", "invalid escape sequence \"\\q\"", "\\q"),
    (
        "\"cost $ 5\"",
        "invalid interpolation syntax: \"$\" must be followed by a name or \"(\"",
        "$",
    ),
    (
        "1 + $x",
        "\"$\" expression outside a string or a macro call",
        "$",
    ),
    ("1 = x", "invalid assignment location \"1\"", "1"),
    ("f(x) += 1", "invalid assignment location \"f(x)\"", "f(x)"),
    // `(; a, b) = x` destructures properties; a named tuple with values is no target.
    (
        "(a = 1, b = 2) = x",
        "invalid assignment location \"a = 1\"",
        "a = 1",
    ),
    (
        "(; a, b) += x",
        "invalid assignment location \"(; a, b)\"",
        "(; a, b)",
    ),
    ("f (x)", "space before \"(\" not allowed in \"f (\"", "("),
    ("(1, 2]", "expected \",\" or \")\", found \"]\"", "]"),
    ("module M end", "\"module\" not supported", "module"),
    (
        "function f(x) where 1\n x\nend",
        "\"1\" as a type variable not supported",
        "1",
    ),
    (
        "function f(x)::1\n x\nend",
        "expected a type name, found \"1\"",
        "1",
    ),
    ("''", "invalid empty character literal", "''"),
    (
        "'ab'",
        "character literal contains multiple characters",
        "'ab'",
    ),
    ("1 // 2", "rational numbers (\"//\") not supported", "//"),
    ("f(1) = 2", "\"1\" is not a valid function parameter", "1"),
    ("f(x; 1)", "invalid keyword argument \"1\"", "1"),
    (
        "for 1 in x end",
        "expected a loop variable, found \"1\"",
        "1",
    ),
    (
        "for i of x end",
        "expected \"in\", \"=\" or \"∈\", found \"of\"",
        "of",
    ),
    ("a.1", "expected a field name after \".\", found \"1\"", "1"),
    (
        "Float64[xs...]",
        "splatting in a typed array literal not supported",
        "Float64[xs...]",
    ),
];

#[test]
fn messages_read_like_julia() {
    for &(src, message, at) in MESSAGES {
        check(src, message, at);
    }
}

#[test]
fn errors_point_at_the_first_problem() {
    // A syntax error before an unterminated string is reported first.
    check("x = )\n\"abc", "unexpected \")\"", ")");
    // A lexing error after complete statements is reported.
    check("x = 1\ny = 2 ~ 3", "invalid character \"~\"", "~");
    // Inside an interpolation, positions are in the whole source.
    check("\"a $(1 +) b\"", "unexpected \")\"", ")");
}

#[test]
fn too_deep_is_an_error() {
    let src = format!("{}x{}", "(".repeat(10_000), ")".repeat(10_000));
    let e = parse(&src).expect_err("deep");
    assert_eq!(e.kind, ParseErrorKind::TooDeep);
    assert_eq!(e.message(), "expression too deeply nested");
    assert!(!e.is_incomplete());
}

#[test]
fn error_helper_reports_messages() {
    assert_eq!(error("end"), "unexpected \"end\"");
}
