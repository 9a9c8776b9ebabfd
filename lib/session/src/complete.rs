//! Completion: names (variables, functions, builtins, keywords), keyword arguments inside a
//! call (`AutoReverseDiff(comp` → `compile=`), fields of library objects and named tuples, file
//! paths inside strings, and LaTeX-style Unicode input (`\alpha` → `α`, in [`crate::latex`]).
//!
//! [`complete`] first finds where the cursor is with a small lexical scan of the code before it
//! (`Lexical`: code, string or comment, and the innermost open call), then asks the matching
//! source of candidates. Offsets are bytes, as everywhere in the session.

use difflab_lang::{Interp, Value};
use difflab_syntax::{Name, Pattern};
use std::path::Path;

/// Completion candidates replacing the byte range `start..end` of the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completions {
    /// Candidates, sorted.
    pub matches: Vec<String>,
    /// First byte replaced.
    pub start: usize,
    /// One past the last byte replaced.
    pub end: usize,
}

impl Completions {
    /// No candidates at `cursor`.
    pub fn empty(cursor: usize) -> Completions {
        Completions {
            matches: Vec::new(),
            start: cursor,
            end: cursor,
        }
    }
}

/// The language's keywords (completed like names; frontends also use them for highlighting).
pub const KEYWORDS: &[&str] = &[
    "begin", "break", "catch", "const", "continue", "else", "elseif", "end", "false", "finally",
    "for", "function", "global", "if", "import", "in", "let", "local", "return", "true", "try",
    "using", "while",
];

/// True for characters that may appear in an identifier.
pub fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '!' || (!c.is_ascii() && !c.is_whitespace())
}

/// The byte range of the identifier touching `cursor`.
pub fn word_around(code: &str, cursor: usize) -> (usize, usize) {
    let cursor = cursor.min(code.len());
    let mut start = cursor;
    while let Some(c) = code[..start].chars().next_back() {
        if !is_ident_char(c) {
            break;
        }
        start -= c.len_utf8();
    }
    let mut end = cursor;
    while let Some(c) = code[end..].chars().next() {
        if !is_ident_char(c) || c == '!' && end > start {
            break;
        }
        end += c.len_utf8();
    }
    (start, end)
}

fn all_names(interp: &Interp) -> Vec<String> {
    let mut names: Vec<String> = interp
        .global_names()
        .into_iter()
        .map(|n| n.to_string())
        .chain(difflab_lang::builtins::all().map(|b| b.name.to_string()))
        .chain(KEYWORDS.iter().map(|k| k.to_string()))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Candidates at byte offset `cursor` (moved back to a character boundary if needed).
pub fn complete(interp: &Interp, code: &str, cursor: usize) -> Completions {
    let mut cursor = cursor.min(code.len());
    while !code.is_char_boundary(cursor) {
        cursor -= 1;
    }
    if let Some(c) = crate::latex::complete(code, cursor) {
        return c;
    }
    match scan(&code[..cursor]) {
        Lexical::Comment => Completions::empty(cursor),
        Lexical::String { content_start } => complete_path(code, content_start, cursor),
        Lexical::Code { call } => complete_code(interp, code, cursor, call),
    }
}

/// Names, fields and keyword arguments in code.
fn complete_code(interp: &Interp, code: &str, cursor: usize, call: Option<Call>) -> Completions {
    let (start, _) = word_around(code, cursor);
    let prefix = &code[start..cursor];
    // `object.fi|`: fields of a library object or named tuple held in a global.
    if code[..start].ends_with('.') {
        let (owner_start, _) = word_around(code, start - 1);
        let owner = &code[owner_start..start - 1];
        if let Some(fields) = field_names(interp, owner) {
            let matches = fields
                .into_iter()
                .filter(|f| f.starts_with(prefix))
                .collect();
            return Completions {
                matches,
                start,
                end: cursor,
            };
        }
    }
    // `f(x; ke|`: keyword arguments of the called function, when the word starts an argument.
    let mut matches: Vec<String> = match call {
        Some(call) if code[call.argument_start..start].trim().is_empty() => {
            keyword_names(interp, &code[call.callee.0..call.callee.1])
                .into_iter()
                .filter(|k| k.starts_with(prefix))
                .map(|k| format!("{k}="))
                .collect()
        }
        _ => Vec::new(),
    };
    if !prefix.is_empty() {
        matches.extend(
            all_names(interp)
                .into_iter()
                .filter(|n| n.starts_with(prefix)),
        );
    }
    Completions {
        matches,
        start,
        end: cursor,
    }
}

/// The fields of the global `owner`, if it is a library object or a named tuple.
fn field_names(interp: &Interp, owner: &str) -> Option<Vec<String>> {
    if owner.is_empty() {
        return None;
    }
    match interp.global(Name::new(owner))? {
        Value::Object(obj) => Some(obj.field_names().into_iter().map(str::to_string).collect()),
        Value::NamedTuple(fields) => Some(fields.iter().map(|(n, _)| n.to_string()).collect()),
        _ => None,
    }
}

/// The keyword parameters of the function called `callee`: a user function's `; kw = …`
/// parameters (every method), or the names after `;` in a builtin's signature lines.
fn keyword_names(interp: &Interp, callee: &str) -> Vec<String> {
    if callee.is_empty() {
        return Vec::new();
    }
    let name = Name::new(callee);
    let mut names = match interp.global(name) {
        Some(Value::Function(f)) => std::iter::once(f)
            .chain(f.methods.iter())
            .flat_map(|m| m.def.kwparams.iter())
            .filter_map(|p| match &p.pattern {
                Pattern::Name(n) => Some(n.to_string()),
                Pattern::Tuple(_) => None,
            })
            .collect(),
        Some(Value::Builtin(b)) => signature_keywords(b.name, b.doc),
        Some(_) => Vec::new(),
        None => difflab_lang::builtins::lookup(name)
            .map(|b| signature_keywords(b.name, b.doc))
            .unwrap_or_default(),
    };
    names.sort();
    names.dedup();
    names
}

/// The keyword names in the signature lines of a docstring (`    f(x; rtol=1e-3, by)` gives
/// `rtol` and `by`).
pub fn signature_keywords(name: &str, doc: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in doc.lines() {
        let Some(args) = line
            .strip_prefix("    ")
            .and_then(|l| l.strip_prefix(name))
            .and_then(|l| l.strip_prefix('('))
        else {
            continue;
        };
        // Split the argument list at top-level `;` and `,` (defaults may hold calls).
        let mut depth = 0usize;
        let mut after_semicolon = false;
        let mut item_start = 0;
        for (i, c) in args.char_indices() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth > 0 => depth -= 1,
                ')' | ';' | ',' if depth == 0 => {
                    if after_semicolon {
                        let item = args[item_start..i].split('=').next().unwrap_or("");
                        let item = item.trim().trim_end_matches("...");
                        if !item.is_empty() && item.chars().all(is_ident_char) {
                            names.push(item.to_string());
                        }
                    }
                    if c == ')' {
                        break;
                    }
                    after_semicolon |= c == ';';
                    item_start = i + 1;
                }
                _ => {}
            }
        }
    }
    names
}

/// Files and directories completing the path being typed in a string that starts at
/// `content_start`; directories end in `/`, hidden files show only after a typed `.`.
fn complete_path(code: &str, content_start: usize, cursor: usize) -> Completions {
    let typed = &code[content_start..cursor];
    let file_start = typed.rfind('/').map_or(0, |i| i + 1);
    let (dir, prefix) = typed.split_at(file_start);
    let listed = match dir {
        "" => ".".to_string(),
        d if d.starts_with("~/") => match std::env::var_os("HOME") {
            Some(home) => Path::new(&home)
                .join(&d[2..])
                .to_string_lossy()
                .into_owned(),
            None => d.to_string(),
        },
        d => d.to_string(),
    };
    let mut matches: Vec<String> = std::fs::read_dir(&listed)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            if !name.starts_with(prefix) || name.starts_with('.') && !prefix.starts_with('.') {
                return None;
            }
            let is_dir = entry.path().is_dir();
            Some(if is_dir { format!("{name}/") } else { name })
        })
        .collect();
    matches.sort();
    Completions {
        matches,
        start: content_start + file_start,
        end: cursor,
    }
}

/// Where the end of some code is, lexically.
#[derive(Debug, PartialEq)]
enum Lexical {
    /// In code, possibly inside the argument list of a call.
    Code {
        /// The innermost open call, if the innermost open bracket is a call's `(`.
        call: Option<Call>,
    },
    /// Inside a string literal whose text starts at `content_start`.
    String {
        /// First byte of the string's text (after the opening quote).
        content_start: usize,
    },
    /// Inside a comment.
    Comment,
}

/// An open call `callee(arg, …` around the end of the code.
#[derive(Debug, PartialEq, Clone, Copy)]
struct Call {
    /// The byte range of the called name.
    callee: (usize, usize),
    /// The byte after the last `(`, `,` or `;` of the argument list.
    argument_start: usize,
}

/// The state of [`scan`] at one point.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Code,
    Str { triple: bool, content_start: usize },
    LineComment,
    BlockComment(usize),
}

/// An open bracket met by [`scan`].
struct Open {
    bracket: char,
    position: usize,
    argument_start: usize,
    /// For `$(` inside a string, the string to return to at the closing `)`.
    resumes: Option<Mode>,
}

/// Scans `text` (the code before the cursor) as the lexer would, far enough to know whether its
/// end is in code, a string or a comment, and which brackets are open.
fn scan(text: &str) -> Lexical {
    let mut mode = Mode::Code;
    let mut open: Vec<Open> = Vec::new();
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        let rest = &text[i..];
        let mut step = c.len_utf8();
        match mode {
            Mode::Code => match c {
                '#' if rest.starts_with("#=") => {
                    mode = Mode::BlockComment(1);
                    step = 2;
                }
                '#' => mode = Mode::LineComment,
                '"' if rest.starts_with("\"\"\"") => {
                    mode = Mode::Str {
                        triple: true,
                        content_start: i + 3,
                    };
                    step = 3;
                }
                '"' => {
                    mode = Mode::Str {
                        triple: false,
                        content_start: i + 1,
                    }
                }
                '(' | '[' | '{' => open.push(Open {
                    bracket: c,
                    position: i,
                    argument_start: i + 1,
                    resumes: None,
                }),
                ')' | ']' | '}' => {
                    if let Some(Open {
                        resumes: Some(string),
                        ..
                    }) = open.pop()
                    {
                        mode = string;
                    }
                }
                ',' | ';' => {
                    if let Some(top) = open.last_mut() {
                        top.argument_start = i + 1;
                    }
                }
                _ => {}
            },
            Mode::LineComment => {
                if c == '\n' {
                    mode = Mode::Code;
                }
            }
            Mode::BlockComment(depth) => {
                if rest.starts_with("#=") {
                    mode = Mode::BlockComment(depth + 1);
                    step = 2;
                } else if rest.starts_with("=#") {
                    mode = if depth == 1 {
                        Mode::Code
                    } else {
                        Mode::BlockComment(depth - 1)
                    };
                    step = 2;
                }
            }
            Mode::Str { triple, .. } => match c {
                '\\' => step += rest[1..].chars().next().map_or(0, char::len_utf8),
                '"' if !triple => mode = Mode::Code,
                '"' if rest.starts_with("\"\"\"") => {
                    mode = Mode::Code;
                    step = 3;
                }
                '$' if rest.starts_with("$(") => {
                    open.push(Open {
                        bracket: '(',
                        position: i + 1,
                        argument_start: i + 2,
                        resumes: Some(mode),
                    });
                    mode = Mode::Code;
                    step = 2;
                }
                _ => {}
            },
        }
        i += step;
    }
    match mode {
        Mode::LineComment | Mode::BlockComment(_) => Lexical::Comment,
        Mode::Str { content_start, .. } => Lexical::String { content_start },
        Mode::Code => {
            let call = open.last().filter(|o| o.bracket == '(').and_then(|o| {
                // `f(` or the broadcast call `f.(`; a bare `(` groups or makes a tuple.
                let end = if text[..o.position].ends_with('.') {
                    o.position - 1
                } else {
                    o.position
                };
                let (start, _) = word_around(&text[..end], end);
                let callee = &text[start..end];
                let is_name = callee.chars().next().is_some_and(|c| !c.is_numeric());
                is_name.then_some(Call {
                    callee: (start, end),
                    argument_start: o.argument_start,
                })
            });
            Lexical::Code { call }
        }
    }
}

/// Known names close to `word` (for "did you mean" hints).
pub fn similar_names(interp: &Interp, word: &str) -> Vec<String> {
    let lower = word.to_lowercase();
    all_names(interp)
        .into_iter()
        .filter(|n| {
            let l = n.to_lowercase();
            l != lower
                && (l.contains(&lower) || (lower.len() > 3 && lower.contains(&l) && l.len() > 3))
        })
        .take(5)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{complete, scan, signature_keywords, Call, Lexical};
    use difflab_lang::{Capture, Config, Interp, Source};
    use std::rc::Rc;

    fn interp_after(code: &str) -> Interp {
        let mut interp = Interp::new(Config::default(), Box::new(Capture::default()));
        let program = difflab_syntax::parse(code).expect("the setup parses");
        let source = Rc::new(Source {
            name: "setup".into(),
            text: code.into(),
        });
        interp.run(&program, source).expect("the setup runs");
        interp
    }

    /// The candidates and the replaced text for `code` with the cursor at its end.
    fn at_end(interp: &Interp, code: &str) -> (Vec<String>, String) {
        let c = complete(interp, code, code.len());
        assert_eq!(c.end, code.len());
        (c.matches, code[c.start..c.end].to_string())
    }

    #[test]
    fn names_complete_by_prefix() {
        let interp = interp_after("printable = 1");
        let (matches, replaced) = at_end(&interp, "prin");
        assert_eq!(replaced, "prin");
        assert!(matches.contains(&"println".to_string()), "{matches:?}");
        assert!(matches.contains(&"printable".to_string()), "{matches:?}");
        assert!(
            matches.windows(2).all(|w| w[0] < w[1]),
            "sorted: {matches:?}"
        );
    }

    #[test]
    fn builtin_keyword_arguments_complete_inside_the_call() {
        let interp = interp_after("");
        let (matches, replaced) = at_end(&interp, "b = AutoReverseDiff(comp");
        assert_eq!(replaced, "comp");
        // Keyword arguments come first, then the other names (`compress`).
        assert_eq!(matches[0], "compile=");
        assert!(matches.contains(&"compress".to_string()), "{matches:?}");
        let (matches, _) = at_end(&interp, "AutoForwardDiff(; ");
        assert_eq!(matches, vec!["chunksize="]);
        let (matches, _) = at_end(&interp, "isapprox(a, b, ");
        assert_eq!(matches, vec!["atol=", "rtol="]);
        // Inside a nested call, the innermost one counts.
        let (matches, _) = at_end(&interp, "AutoSparse(AutoForwardDiff(chu");
        assert_eq!(matches, vec!["chunksize="]);
        // After the nested call closes, the outer one's keywords come back.
        let (matches, _) = at_end(&interp, "AutoSparse(AutoForwardDiff(); coloring_");
        assert_eq!(matches, vec!["coloring_algorithm="]);
    }

    #[test]
    fn keyword_names_only_start_an_argument() {
        let interp = interp_after("");
        // `x + rt` is not the start of an argument: no `rtol=` there.
        let (matches, _) = at_end(&interp, "isapprox(a, x + rt");
        assert!(matches.iter().all(|m| !m.ends_with('=')), "{matches:?}");
        // A parenthesized expression is not a call.
        let (matches, _) = at_end(&interp, "(rt");
        assert!(matches.iter().all(|m| !m.ends_with('=')), "{matches:?}");
    }

    #[test]
    fn user_function_keywords_complete() {
        let interp = interp_after("function solve(x; tol = 1e-6, maxiter = 10) x end");
        let (matches, _) = at_end(&interp, "solve(1.0; ");
        assert_eq!(matches, vec!["maxiter=", "tol="]);
        let (matches, _) = at_end(&interp, "solve(1.0, t");
        assert!(matches.contains(&"tol=".to_string()), "{matches:?}");
        assert!(matches.contains(&"true".to_string()), "{matches:?}");
    }

    #[test]
    fn signature_keywords_skip_positional_defaults() {
        let doc = "    GreedyColoringAlgorithm(order=NaturalOrder(); decompression=:direct, postprocessing=false)\n\ntext";
        assert_eq!(
            signature_keywords("GreedyColoringAlgorithm", doc),
            vec!["decompression", "postprocessing"]
        );
        assert_eq!(
            signature_keywords("norm", "    norm(x, p=2)"),
            Vec::<String>::new()
        );
        assert_eq!(
            signature_keywords("cat", "    cat(xs...; dims=k)"),
            vec!["dims"]
        );
    }

    #[test]
    fn fields_of_library_objects_and_named_tuples() {
        let interp = interp_after("b = AutoSparse(AutoForwardDiff()); nt = (alpha = 1, beta = 2)");
        let (matches, replaced) = at_end(&interp, "b.");
        assert_eq!((matches, replaced.as_str()), (vec!["dense_ad".into()], ""));
        let (matches, _) = at_end(&interp, "nt.al");
        assert_eq!(matches, vec!["alpha"]);
    }

    #[test]
    fn paths_complete_inside_strings() {
        let dir = std::env::temp_dir().join(format!("difflab-complete-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("data")).unwrap();
        std::fs::write(dir.join("demo.dl"), "1").unwrap();
        std::fs::write(dir.join("demo2.mtx"), "1").unwrap();
        std::fs::write(dir.join(".hidden"), "1").unwrap();
        let interp = interp_after("");
        let base = dir.to_string_lossy();

        let (matches, replaced) = at_end(&interp, &format!("include(\"{base}/de"));
        assert_eq!(
            (matches, replaced.as_str()),
            (vec!["demo.dl".into(), "demo2.mtx".into()], "de")
        );
        let (matches, _) = at_end(&interp, &format!("x = \"{base}/"));
        assert_eq!(matches, vec!["data/", "demo.dl", "demo2.mtx"]);
        let (matches, _) = at_end(&interp, &format!("x = \"{base}/."));
        assert_eq!(matches, vec![".hidden"]);
        // A closed string is code again; an interpolation inside a string is code.
        let (matches, _) = at_end(&interp, &format!("\"{base}/\" * prin"));
        assert!(matches.contains(&"println".to_string()), "{matches:?}");
        let (matches, _) = at_end(&interp, "\"value: $(prin");
        assert!(matches.contains(&"println".to_string()), "{matches:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_scan_knows_strings_comments_and_calls() {
        assert_eq!(scan("x = 1 # prin"), Lexical::Comment);
        assert_eq!(scan("#= a #= b =# c"), Lexical::Comment);
        assert_eq!(
            scan("#= a =# f(1, "),
            Lexical::Code {
                call: Some(Call {
                    callee: (8, 9),
                    argument_start: 12
                })
            }
        );
        assert_eq!(scan(r#"s = "a \" b"#), Lexical::String { content_start: 5 });
        assert_eq!(scan("s = \"\"\"\nab"), Lexical::String { content_start: 7 });
        assert_eq!(
            scan("f.(x"),
            Lexical::Code {
                call: Some(Call {
                    callee: (0, 1),
                    argument_start: 3
                })
            }
        );
        assert_eq!(scan("x[1, (2"), Lexical::Code { call: None });
    }

    #[test]
    fn comments_complete_nothing_and_cursors_inside_characters_are_safe() {
        let interp = interp_after("");
        assert!(at_end(&interp, "# prin").0.is_empty());
        let code = "α = prin";
        // Byte 1 is inside `α`: the cursor moves back to a boundary instead of panicking.
        let c = complete(&interp, code, 1);
        assert!(c.matches.is_empty());
    }
}
