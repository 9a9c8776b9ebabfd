//! `history_request`: the session's stored inputs as `[session, line, input]` triples
//! (`[session, line, [input, output]]` with `output`), by `tail`, `range` or glob `search`.
//!
//! The kernel keeps no history across processes, so there is one session, numbered
//! [`SESSION`]; session `0` means it too (IPython's "current session"), and any other number
//! (earlier sessions, counted back with negatives) has no entries. Line `n` is the input that
//! got execution count `n`.

use serde_json::{json, Value};
use std::collections::HashMap;

/// The number this process's session has in history replies.
pub const SESSION: i64 = 1;

/// The entries answering `request` (the content of a `history_request`).
///
/// `inputs` are the stored inputs, oldest first; `outputs` the `text/plain` results by line.
pub fn query(inputs: &[String], outputs: &HashMap<usize, String>, request: &Value) -> Vec<Value> {
    let lines = inputs
        .iter()
        .enumerate()
        .map(|(i, code)| (i + 1, code.as_str()));
    let int = |key: &str| request[key].as_i64();
    let selected: Vec<(usize, &str)> = match request["hist_access_type"].as_str() {
        Some("tail") => tail(lines.collect(), int("n")),
        Some("range") => {
            let session = int("session").unwrap_or(0);
            if session != SESSION && session != 0 {
                Vec::new()
            } else {
                let len = inputs.len() as i64;
                let start = int("start").unwrap_or(1).max(1);
                // `stop` is exclusive; absent means to the end.
                let stop = int("stop").unwrap_or(len + 1);
                lines
                    .filter(|&(line, _)| (start..stop).contains(&(line as i64)))
                    .collect()
            }
        }
        Some("search") => {
            let pattern = request["pattern"].as_str().unwrap_or("*");
            let mut found: Vec<(usize, &str)> =
                lines.filter(|&(_, code)| glob(pattern, code)).collect();
            if request["unique"].as_bool().unwrap_or(false) {
                // Keep the latest occurrence of each input, in order.
                let mut seen = std::collections::HashSet::new();
                found.reverse();
                found.retain(|&(_, code)| seen.insert(code));
                found.reverse();
            }
            tail(found, int("n"))
        }
        _ => Vec::new(),
    };
    let with_output = request["output"].as_bool().unwrap_or(false);
    selected
        .into_iter()
        .map(|(line, code)| {
            if with_output {
                json!([SESSION, line, [code, outputs.get(&line)]])
            } else {
                json!([SESSION, line, code])
            }
        })
        .collect()
}

/// The last `n` entries (all of them when `n` is absent or not positive).
fn tail(mut entries: Vec<(usize, &str)>, n: Option<i64>) -> Vec<(usize, &str)> {
    if let Some(n) = n.filter(|&n| n > 0) {
        let keep = (n as usize).min(entries.len());
        entries.drain(..entries.len() - keep);
    }
    entries
}

/// Whether `text` matches the glob `pattern` as a whole (`*` any run, `?` one character,
/// `[abc]` one of a set), as IPython's SQLite `GLOB` does.
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // Iterative matching with one backtrack point for the last `*`.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        let step = match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
                continue;
            }
            Some('?') => Some(pi + 1),
            Some('[') => class(&p, pi, t[ti]),
            Some(&c) if c == t[ti] => Some(pi + 1),
            _ => None,
        };
        match (step, star) {
            (Some(next), _) => {
                pi = next;
                ti += 1;
            }
            (None, Some((sp, st))) => {
                pi = sp + 1;
                ti = st + 1;
                star = Some((sp, st + 1));
            }
            (None, None) => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Matches `c` against the class `[...]` starting at `p[start]`: the index after it, if it
/// matches. An unclosed `[` is a literal.
fn class(p: &[char], start: usize, c: char) -> Option<usize> {
    let Some(close) = p[start + 1..]
        .iter()
        .skip(1)
        .position(|&x| x == ']')
        .map(|i| start + 2 + i)
    else {
        return (c == '[').then_some(start + 1);
    };
    let set = &p[start + 1..close];
    let (negate, set) = match set.first() {
        Some('^') => (true, &set[1..]),
        _ => (false, set),
    };
    let mut hit = false;
    let mut i = 0;
    while i < set.len() {
        if i + 2 < set.len() && set[i + 1] == '-' {
            hit |= (set[i]..=set[i + 2]).contains(&c);
            i += 3;
        } else {
            hit |= set[i] == c;
            i += 1;
        }
    }
    (hit != negate).then_some(close + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs() -> Vec<String> {
        ["x = 1", "1 + 2", "x + 1", "1 + 2", "println(x)"]
            .map(String::from)
            .to_vec()
    }

    fn ask(request: Value) -> Vec<Value> {
        let outputs = HashMap::from([(2, "3".to_string())]);
        query(&inputs(), &outputs, &request)
    }

    #[test]
    fn tail() {
        let reply = ask(json!({"hist_access_type": "tail", "n": 2, "output": false}));
        assert_eq!(
            reply,
            vec![json!([1, 4, "1 + 2"]), json!([1, 5, "println(x)"])]
        );
        assert_eq!(ask(json!({"hist_access_type": "tail"})).len(), 5);
    }

    #[test]
    fn outputs() {
        let reply =
            ask(json!({"hist_access_type": "range", "start": 2, "stop": 4, "output": true}));
        assert_eq!(
            reply,
            vec![
                json!([1, 2, ["1 + 2", "3"]]),
                json!([1, 3, ["x + 1", null]])
            ]
        );
    }

    #[test]
    fn range() {
        let reply = ask(json!({"hist_access_type": "range", "session": 1, "start": 3, "stop": 4}));
        assert_eq!(reply, vec![json!([1, 3, "x + 1"])]);
        let current = ask(json!({"hist_access_type": "range", "session": 0, "start": 4}));
        assert_eq!(current.len(), 2);
        assert!(ask(json!({"hist_access_type": "range", "session": 7})).is_empty());
        assert!(ask(json!({"hist_access_type": "range", "session": -1})).is_empty());
    }

    #[test]
    fn search() {
        let all = ask(json!({"hist_access_type": "search", "pattern": "1 + ?"}));
        assert_eq!(all, vec![json!([1, 2, "1 + 2"]), json!([1, 4, "1 + 2"])]);
        let unique = ask(json!({"hist_access_type": "search", "pattern": "1 + ?", "unique": true}));
        assert_eq!(unique, vec![json!([1, 4, "1 + 2"])]);
        let last = ask(json!({"hist_access_type": "search", "pattern": "*x*", "n": 2}));
        assert_eq!(
            last,
            vec![json!([1, 3, "x + 1"]), json!([1, 5, "println(x)"])]
        );
    }

    #[test]
    fn globs() {
        assert!(glob("*", ""));
        assert!(glob("a*c", "abbbc"));
        assert!(glob("a?c", "abc"));
        assert!(!glob("a?c", "ac"));
        assert!(glob("*x*", "println(x)"));
        assert!(!glob("x", "x + 1"));
        assert!(glob("[0-9] + [a-z]", "1 + x"));
        assert!(glob("[^0-9]*", "x1"));
        assert!(!glob("[^0-9]*", "1x"));
        assert!(glob("a[b", "a[b"));
        assert!(glob("∇*", "∇f"));
    }
}
