//! Progress bars as Jupyter shows them: one display per bar, updated in place.
//!
//! The first redraw of a bar is a `display_data` whose `transient.display_id` names the bar;
//! every later redraw is an `update_display_data` with the same id, which JupyterLab, classic
//! Notebook and nbclient apply to that one output. Nothing is written to stderr, so no `\r`
//! line of a longer redraw can survive in the output area.

use serde_json::{json, Value};
use std::collections::HashMap;

use difflab_session::Progress;

/// The display ids of the bars one execution has shown, by bar.
#[derive(Default)]
pub struct ProgressDisplays {
    ids: HashMap<u64, String>,
}

impl ProgressDisplays {
    /// The IOPub message (type and content) that shows this redraw of its bar.
    pub fn message(&mut self, progress: &Progress) -> (&'static str, Value) {
        let (msg_type, display_id) = match self.ids.get(&progress.id) {
            Some(id) => ("update_display_data", id.clone()),
            None => {
                let id = format!("difflab-progress-{}", uuid::Uuid::new_v4());
                self.ids.insert(progress.id, id.clone());
                ("display_data", id)
            }
        };
        let content = json!({
            "data": data(progress),
            "metadata": {},
            "transient": {"display_id": display_id},
        });
        (msg_type, content)
    }
}

/// The bar as `text/plain` (its line) and `text/html` (a `<progress>` element and the line
/// without its text bar).
fn data(progress: &Progress) -> Value {
    let line = match progress.line.split_once('|') {
        Some((head, rest)) => rest
            .split_once('|')
            .map_or(progress.line.clone(), |(_, tail)| format!("{head}{tail}")),
        None => progress.line.clone(),
    };
    let escaped = line
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let html = format!(
        "<div class=\"difflab-progress\" style=\"white-space: pre; font-family: monospace\">\
         <progress value=\"{}\" max=\"{}\" style=\"vertical-align: middle\"></progress> {escaped}</div>",
        progress.done,
        progress.total.max(1),
    );
    json!({"text/plain": progress.line, "text/html": html})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(id: u64, done: usize, line: &str) -> Progress {
        Progress {
            id,
            done,
            total: 2,
            line: line.into(),
            finished: done == 2,
            terminal_text: format!("\r{line}"),
        }
    }

    #[test]
    fn a_bar_is_one_display_updated_in_place() {
        let mut displays = ProgressDisplays::default();
        let (first, shown) = displays.message(&bar(7, 0, "t:   0%|  | 0/2 a <long> one"));
        let (second, updated) = displays.message(&bar(7, 2, "t: 100%|██| 2/2 in 0.1 s"));
        let (other, elsewhere) = displays.message(&bar(8, 0, "u:   0%| 0/2"));
        assert_eq!(
            (first, second, other),
            ("display_data", "update_display_data", "display_data")
        );
        let id = |v: &Value| v["transient"]["display_id"].as_str().unwrap().to_string();
        assert_eq!(id(&shown), id(&updated));
        assert_ne!(id(&shown), id(&elsewhere));
        assert_eq!(updated["data"]["text/plain"], "t: 100%|██| 2/2 in 0.1 s");
        let html = updated["data"]["text/html"].as_str().unwrap();
        assert!(
            html.ends_with("</progress> t: 100% 2/2 in 0.1 s</div>"),
            "{html}"
        );
        let html = shown["data"]["text/html"].as_str().unwrap();
        assert!(html.contains("<progress value=\"0\" max=\"2\""), "{html}");
        assert!(html.contains("a &lt;long&gt; one"), "{html}");
        assert!(!updated["data"]["text/plain"]
            .as_str()
            .unwrap()
            .contains('\r'));
    }
}
