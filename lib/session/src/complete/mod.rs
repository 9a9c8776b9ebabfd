//! Completion: names (variables, functions, builtins, keywords), keyword arguments inside a
//! call (`AutoReverseDiff(comp` → `compile=`), fields of library objects and named tuples, file
//! paths inside strings, and LaTeX-style Unicode input (`\alpha` → `α`, in [`crate::latex`]).
//!
//! [`complete`] first finds where the cursor is with the language's lexer ([`context`]: code,
//! string or comment, the innermost open call, the identifier at the cursor), then asks the
//! matching source of candidates. Offsets are bytes, as everywhere in the session.

mod context;

pub use context::word_around;
use context::{context, Call, Lexical};
use difflab_lang::{Interp, Value};
use difflab_syntax::lexer::{single_token, Keyword, TokenKind};
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

fn all_names(interp: &Interp) -> Vec<String> {
    let mut names: Vec<String> = interp
        .global_names()
        .into_iter()
        .map(|n| n.to_string())
        .chain(difflab_lang::builtins::all().map(|b| b.name.to_string()))
        .chain(Keyword::SUPPORTED.iter().map(|k| k.as_str().to_string()))
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
    match context(&code[..cursor]) {
        Lexical::Comment => Completions::empty(cursor),
        Lexical::String { content_start } => complete_path(code, content_start, cursor),
        Lexical::Code { call } => complete_code(interp, code, cursor, call),
    }
}

/// Names, fields and keyword arguments in code.
fn complete_code(interp: &Interp, code: &str, cursor: usize, call: Option<Call>) -> Completions {
    let (start, _) = word_around(code, cursor);
    let prefix = &code[start..cursor];
    if prefix.starts_with('@') {
        let matches = difflab_lang::eval::macros::MACROS
            .iter()
            .map(|m| format!("@{m}"))
            .filter(|m| m.starts_with(prefix))
            .collect();
        return Completions {
            matches,
            start,
            end: cursor,
        };
    }
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
                        if matches!(single_token(item), Some(TokenKind::Ident(_))) {
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
    use super::{complete, signature_keywords};
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
    fn comments_complete_nothing_and_cursors_inside_characters_are_safe() {
        let interp = interp_after("");
        assert!(at_end(&interp, "# prin").0.is_empty());
        let code = "α = prin";
        // Byte 1 is inside `α`: the cursor moves back to a boundary instead of panicking.
        let c = complete(&interp, code, 1);
        assert!(c.matches.is_empty());
    }
}
