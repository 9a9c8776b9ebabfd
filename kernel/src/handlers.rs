//! The replies that need no execution: `kernel_info`, `complete`, `inspect`, `is_complete`,
//! `comm_info`, `shutdown`, and MIME bundles as JSON. Each takes a request's content and
//! returns the reply content; `execute` lives in [`crate::execute`], history in
//! [`crate::history`].

use crate::cursor;
use difflab_session::{Completeness, MimeBundle, Session};
use serde_json::{json, Map, Value};

/// The protocol version this kernel implements.
pub const PROTOCOL: &str = "5.3";

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The content of `kernel_info_reply`.
pub fn kernel_info() -> Value {
    json!({
        "status": "ok",
        "protocol_version": PROTOCOL,
        "implementation": "difflab",
        "implementation_version": VERSION,
        "language_info": {
            "name": "difflab",
            "version": VERSION,
            "mimetype": "text/x-difflab",
            "file_extension": ".dl",
            "pygments_lexer": "julia",
            "codemirror_mode": "julia",
            "nbconvert_exporter": "script",
        },
        "banner": format!(
            "difflab {VERSION}: automatic differentiation, interactively.\n\
             Type ?gradient for help on a function, ? for an overview."
        ),
        "help_links": [
            {"text": "difflab", "url": "https://github.com/difflab/difflab"},
        ],
        "debugger": false,
    })
}

/// The content of `complete_reply` (cursor positions in code points, both ways).
pub fn complete(session: &mut Session, content: &Value) -> Value {
    let code = content["code"].as_str().unwrap_or("");
    let cursor = cursor_pos(code, content);
    let found = session.complete(code, cursor::to_byte(code, cursor));
    json!({
        "status": "ok",
        "matches": found.matches,
        "cursor_start": cursor::to_code_points(code, found.start),
        "cursor_end": cursor::to_code_points(code, found.end),
        "metadata": {},
    })
}

/// The content of `inspect_reply`: the docstring of the name at the cursor, as Markdown (which
/// JupyterLab's Shift+Tab tooltip renders) and as text.
pub fn inspect(session: &mut Session, content: &Value) -> Value {
    let code = content["code"].as_str().unwrap_or("");
    let cursor = cursor_pos(code, content);
    match session.inspect(code, cursor::to_byte(code, cursor)) {
        Some(doc) => json!({
            "status": "ok",
            "found": true,
            "data": {
                "text/markdown": difflab_session::help::markdown(&doc),
                "text/plain": doc,
            },
            "metadata": {},
        }),
        None => json!({"status": "ok", "found": false, "data": {}, "metadata": {}}),
    }
}

/// The content of `is_complete_reply`.
pub fn is_complete(session: &Session, content: &Value) -> Value {
    match session.is_complete(content["code"].as_str().unwrap_or("")) {
        Completeness::Complete => json!({"status": "complete"}),
        Completeness::Incomplete(indent) => json!({"status": "incomplete", "indent": indent}),
        Completeness::Invalid => json!({"status": "invalid"}),
    }
}

/// The content of `comm_info_reply`: the kernel registers no comm targets.
pub fn comm_info() -> Value {
    json!({"status": "ok", "comms": {}})
}

/// The content of `shutdown_reply`: the request's `restart` flag echoed back.
pub fn shutdown(content: &Value) -> Value {
    json!({"status": "ok", "restart": content["restart"].as_bool().unwrap_or(false)})
}

/// The cursor of a request, in code points; the end of the code when absent.
fn cursor_pos(code: &str, content: &Value) -> usize {
    content["cursor_pos"]
        .as_u64()
        .map_or_else(|| code.chars().count(), |c| c as usize)
}

/// A MIME bundle as Jupyter's `data` object. JSON types (`application/json`, `…+json`) are
/// embedded as JSON, every other type is a string (binary ones already base64).
pub fn bundle(bundle: &MimeBundle) -> Value {
    let mut data = Map::new();
    for (mime, text) in &bundle.data {
        let is_json = mime == "application/json" || mime.ends_with("+json");
        let value = is_json
            .then(|| serde_json::from_str(text).ok())
            .flatten()
            .unwrap_or_else(|| Value::String(text.clone()));
        data.insert(mime.clone(), value);
    }
    Value::Object(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_info_describes_the_language() {
        let info = kernel_info();
        assert_eq!(info["status"], "ok");
        assert_eq!(info["protocol_version"], "5.3");
        let language = &info["language_info"];
        assert_eq!(language["name"], "difflab");
        assert_eq!(language["file_extension"], ".dl");
        assert_eq!(language["mimetype"], "text/x-difflab");
        assert_eq!(language["pygments_lexer"], "julia");
        assert_eq!(language["codemirror_mode"], "julia");
        assert!(info["banner"].as_str().unwrap().contains("difflab"));
    }

    #[test]
    fn bundles_embed_json_types() {
        let b = MimeBundle {
            data: vec![
                ("text/plain".into(), "2×2 Matrix".into()),
                ("image/png".into(), "iVBORw0KGgo=".into()),
                (
                    "application/vnd.vegalite.v5+json".into(),
                    r#"{"mark": "line"}"#.into(),
                ),
                ("application/json".into(), "not json".into()),
            ],
        };
        assert_eq!(
            bundle(&b),
            json!({
                "text/plain": "2×2 Matrix",
                "image/png": "iVBORw0KGgo=",
                "application/vnd.vegalite.v5+json": {"mark": "line"},
                "application/json": "not json",
            })
        );
    }

    #[test]
    fn completion_cursors_are_code_points() {
        let mut session = Session::new();
        // `α` is two bytes; the word being completed starts at code point 4.
        let reply = complete(&mut session, &json!({"code": "α = prin", "cursor_pos": 8}));
        assert_eq!(reply["status"], "ok");
        assert_eq!(reply["cursor_end"], 8);
        assert_eq!(reply["cursor_start"], 4);
        let matches: Vec<&str> = reply["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(matches.contains(&"println"), "{matches:?}");
    }

    #[test]
    fn inspection_finds_builtins() {
        let mut session = Session::new();
        let reply = inspect(&mut session, &json!({"code": "sin(x)", "cursor_pos": 1}));
        assert_eq!(reply["found"], true);
        assert!(reply["data"]["text/plain"]
            .as_str()
            .unwrap()
            .contains("sin"));
        let markdown = reply["data"]["text/markdown"].as_str().unwrap();
        assert!(markdown.contains("```julia\njulia> sin"), "{markdown}");
        let reply = inspect(
            &mut session,
            &json!({"code": "nosuchname", "cursor_pos": 3}),
        );
        assert_eq!(reply["found"], false);
    }
}
