//! The parser never panics and never overflows its stack, whatever the input: thousands of
//! random strings, random bytes and random mutations of valid programs (from a seeded
//! generator, so failures reproduce), nesting of every kind far beyond the limit, and a check
//! that a 1,000-line file parses quickly.

mod common;

use difflab_syntax::{parse, ParseErrorKind};

/// A small seeded generator (64-bit LCG, high bits), so that runs are reproducible.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Parses `src` and checks the result: spans inside the source on character boundaries, and
/// errors with a message.
fn parse_checked(src: &str) {
    match parse(src) {
        Ok(block) => common::check_spans(src, &block),
        Err(e) => {
            let (start, end) = (e.span.start as usize, e.span.end as usize);
            assert!(
                start <= end && end <= src.len(),
                "error span {:?} in {src:?}",
                e.span
            );
            assert!(
                src.is_char_boundary(start) && src.is_char_boundary(end),
                "error span {:?} splits a character in {src:?}",
                e.span
            );
            assert!(!e.message().is_empty());
        }
    }
}

/// Valid snippets to mutate.
const SNIPPETS: &[&str] = &[
    "f(x) = sum(abs2, x)\nx = float.(1:5)\ng = gradient(f, back, x)",
    "for i in 1:n, j in 1:m\n  A[i, j] = i + j\nend",
    "[Scenario{:gradient,:out}(f, x; res1=2x) for x in xs if length(x) > 0]",
    "function f(x, y=2; k=1)\n  return x[end-1]' * y + k\nend",
    "\"\"\"\n    doc $(x)\n\"\"\"\ng(x) = 2x^2 - 3(x + 1)",
    "y, z = (a -> a .+ 1).(v), [1 -2; 3 4]",
    "try\n  @assert x > 0 \"msg $x\"\ncatch e\n  println(e)\nfinally\n  done()\nend",
    "@b hessian($f, $p1, $back1, $xbig)\nlet a = 1, b = :sym\n  c ? a : b\nend",
    "x = c ? 1:2 : 3 #= comment #= nested =# =#\nwhile i < 3; i += 1; end",
    "if a ≈ b && !c || d ∈ s\n  x .+= 1\nelseif e\n  y = Float64[]\nelse\n  z = x |> f ∘ g\nend",
];

#[test]
fn random_text_never_panics() {
    let alphabet: Vec<char> = "()[]{}\"',;:$@#=+-*/\\^<>!&|?._ \n\t0123456789abcxyzEef \
        endforinifelse πα≈∈√÷∘⋅₁ŷé😀\u{301}"
        .chars()
        .collect();
    let words = [
        "function", "end", "if", "else", "elseif", "for", "while", "try", "catch", "finally",
        "begin", "let", "return", "global", "using", "import", "in", "\"\"\"", "#=", "=#", "...",
        "->", "=>", ".=", ".+", "x'", "2x", "$(", "@time ", "1e", "0x", "::",
    ];
    let mut rng = Lcg(0x5eed);
    for _ in 0..6000 {
        let len = rng.below(60);
        let mut src = String::new();
        for _ in 0..len {
            if rng.below(4) == 0 {
                let word: &&str = rng.pick(&words);
                src.push_str(word);
            } else {
                src.push(*rng.pick(&alphabet));
            }
        }
        parse_checked(&src);
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Lcg(42);
    for _ in 0..3000 {
        let len = rng.below(100);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        parse_checked(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn mutated_programs_never_panic() {
    let mut rng = Lcg(7);
    for _ in 0..6000 {
        let mut chars: Vec<char> = rng.pick(SNIPPETS).chars().collect();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(chars.len() + 1);
            match rng.below(4) {
                0 if at < chars.len() => {
                    let n = 1 + rng.below(6).min(chars.len() - at - 1);
                    chars.drain(at..at + n);
                }
                1 => {
                    let c = *rng.pick(&[
                        '(', ')', '[', ']', '"', '$', '\n', ' ', ':', ',', ';', '\'', '#', '=',
                    ]);
                    chars.insert(at, c);
                }
                2 if at < chars.len() => {
                    let end = (at + 1 + rng.below(12)).min(chars.len());
                    let piece: Vec<char> = chars[at..end].to_vec();
                    let to = rng.below(chars.len() + 1);
                    chars.splice(to..to, piece);
                }
                _ if at < chars.len() => {
                    let other = rng.below(chars.len());
                    chars.swap(at, other);
                }
                _ => {}
            }
        }
        let src: String = chars.into_iter().collect();
        parse_checked(&src);
    }
}

#[test]
fn every_prefix_of_the_snippets_is_handled() {
    for snippet in SNIPPETS {
        for (i, _) in snippet.char_indices() {
            parse_checked(&snippet[..i]);
        }
    }
}

/// Nesting shapes: `open` repeated, then `middle`, then `close` repeated.
const SHAPES: &[(&str, &str, &str)] = &[
    ("(", "x", ")"),
    ("[", "x", "]"),
    ("f(", "x", ")"),
    ("x[", "1", "]"),
    ("T{", "x", "}"),
    ("(x, ", "y", ")"),
    ("(a; ", "b", ")"),
    ("[1 ", "2", "]"),
    ("[x for x in ", "y", "]"),
    ("-", "x", ""),
    ("!", "x", ""),
    ("x^", "y", ""),
    ("2^-", "x", ""),
    ("x = ", "1", ""),
    ("a ? b : ", "c", ""),
    ("x ? ", "y", " : z"),
    ("x -> ", "x", ""),
    ("a || ", "b", ""),
    ("a => ", "b", ""),
    ("1 + ", "1", ""),
    ("a < ", "b", ""),
    ("", "x", "'"),
    ("x'", "x", ""),
    ("2", "√x", ""),
    ("2(", "x", ")"),
    ("", "x", ".y"),
    ("", "f", "(1)"),
    ("begin ", "x", " end"),
    ("if c ", "x", " end"),
    ("while c ", "x", " end"),
    ("for i in 1:2 ", "x", " end"),
    ("let ", "", " end"),
    ("function f()\n", "x", "\nend"),
    ("try\n", "x", "\ncatch\nend"),
    ("\"$(", "x", ")\""),
    ("@m ", "x", ""),
    ("@m(", "x", ")"),
    ("@m $(", "x", ")"),
    ("@m $", "x", ""),
    ("for ((", "i", "), j) in x end"),
    ("f((", "a", ")) = 1"),
    ("(f(x = ", "1", ") = 1)"),
    ("\"\"\"$(", "x", ")\"\"\""),
];

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    // Run where the stack is small: 2 MiB, Rust's default for spawned threads.
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            for (open, middle, close) in SHAPES {
                for n in [1usize, 10, 30, 100, 300, 600, 3000] {
                    let src = format!("{}{}{}", open.repeat(n), middle, close.repeat(n));
                    match parse(&src) {
                        Ok(block) => {
                            assert!(n <= 500, "{open:?} x{n} parsed beyond the depth limit");
                            common::check_spans(&src, &block);
                        }
                        Err(e) => assert!(n > 1, "{open:?} x{n} failed: {}", e.message()),
                    }
                }
            }
        })
        .expect("spawn");
    handle.join().expect("no stack overflow or panic");
}

#[test]
fn very_deep_input_is_an_error() {
    for (open, close) in [("(", ")"), ("[", "]"), ("if c ", " end"), ("\"$(", ")\"")] {
        let src = format!("{}x{}", open.repeat(100_000), close.repeat(100_000));
        assert_eq!(
            parse(&src).unwrap_err().kind,
            ParseErrorKind::TooDeep,
            "{open:?}"
        );
    }
    // Nested `for` clauses nest the tree they become (flatten of generators).
    let clauses = " for i in a".repeat(100_000);
    for (open, close) in [("(x", ")"), ("[x", "]"), ("sum(x", ")")] {
        let src = format!("{open}{clauses}{close}");
        assert_eq!(
            parse(&src).unwrap_err().kind,
            ParseErrorKind::TooDeep,
            "{open:?}"
        );
    }
    assert!(parse(&format!("(x{})", " for i in a".repeat(160))).is_ok());
    let limit = format!("(x{})", " for i in a".repeat(170));
    assert_eq!(parse(&limit).unwrap_err().kind, ParseErrorKind::TooDeep);
}

#[test]
fn long_literals_are_shortened_in_messages() {
    let e = parse(&"9".repeat(10_000)).unwrap_err();
    assert!(e.message().len() < 100, "{}", e.message());
}

#[test]
fn modest_nesting_parses() {
    for (open, middle, close) in SHAPES {
        let src = format!("{}{}{}", open.repeat(12), middle, close.repeat(12));
        if let Err(e) = parse(&src) {
            // `let` and the `for`/`f((…))` pattern shapes are only valid once.
            assert!(
                matches!(*open, "let " | "for ((" | "f(("),
                "{open:?} x12: {}",
                e.message()
            );
        }
    }
}

#[test]
fn long_flat_inputs_parse() {
    let sum = vec!["1"; 400].join(" + ");
    assert!(parse(&sum).is_ok());
    let sum = vec!["1"; 20_000].join(" + ");
    assert_eq!(parse(&sum).unwrap_err().kind, ParseErrorKind::TooDeep);
    let statements = "x += 1\n".repeat(50_000);
    assert_eq!(parse(&statements).unwrap().len(), 50_000);
    let vector = format!("[{}]", vec!["1.5"; 50_000].join(", "));
    assert!(parse(&vector).is_ok());
    let string = format!("\"{}\"", "abc $x ".repeat(10_000));
    assert!(parse(&string).is_ok());
}

#[test]
fn a_thousand_lines_parse_quickly() {
    let unit = "\
function f(x; k=1)
    s = 0.0
    for i in 1:length(x)-1
        s += (x[i+1] - x[i]^2)^2 + k * x[i]'
    end
    return s
end
g(x) = [2x[1] -x[2]; x[2] 3x[1]]
y = map(v -> v^2, [1.0, 2.0, 3.0])
@assert f(y) > 0 \"f must be positive: $(f(y))\"
";
    let src = unit.repeat(100);
    assert_eq!(src.lines().count(), 1000);
    let mut best = std::time::Duration::MAX;
    for _ in 0..5 {
        let start = std::time::Instant::now();
        let block = parse(&src).expect("parses");
        best = best.min(start.elapsed());
        assert_eq!(block.len(), 400);
    }
    // Unoptimized test builds are several times slower than release builds.
    let limit_ms = if cfg!(debug_assertions) { 60 } else { 10 };
    assert!(best.as_millis() < limit_ms, "1,000 lines took {best:?}");
}
