//! Help reaches notebooks as Markdown with text beside it: `?name`, `name?`, `help(name)`
//! and `help()` give a result whose `text/markdown` has the docstring's fences as Julia code
//! blocks, and whose `text/plain` is the docstring as a terminal shows it. A session that
//! defines its own `help` calls it.

use difflab_session::{Event, ExecuteOptions, MimeBundle, Session};

fn result(session: &mut Session, code: &str) -> MimeBundle {
    let (outcome, events) = session.execute_collect(code, &ExecuteOptions::default());
    assert!(!outcome.failed, "{events:?}");
    events
        .into_iter()
        .find_map(|e| match e {
            Event::Result(b) => Some(b),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{code} has a result"))
}

#[test]
fn help_is_markdown_with_text_beside_it() {
    let mut session = Session::new();
    for code in ["?diff", "diff?", "help(diff)", "help(\"diff\")"] {
        let b = result(&mut session, code);
        let plain = b.plain();
        let markdown = b.get("text/markdown").expect("markdown");
        assert!(plain.starts_with("    diff(x; dims=1)"), "{code}: {plain}");
        assert!(plain.contains("```\njulia> diff("), "{code}: {plain}");
        assert!(
            markdown.starts_with("    diff(x; dims=1)"),
            "{code}: {markdown}"
        );
        assert!(
            markdown.contains("```julia\njulia> diff("),
            "{code}: {markdown}"
        );
        assert_eq!(
            markdown.matches("```").count(),
            plain.matches("```").count()
        );
    }
    let overview = result(&mut session, "help()");
    assert!(overview.plain().contains("?gradient"), "{overview:?}");
    assert!(overview.get("text/markdown").is_some());
}

#[test]
fn a_help_of_ones_own_is_called() {
    let mut session = Session::new();
    result(&mut session, "help(x) = 2x");
    let b = result(&mut session, "help(21)");
    assert_eq!(b.plain(), "42");
    assert!(b.get("text/markdown").is_none());
}
