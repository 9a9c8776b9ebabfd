//! Long builtins report progress while they run. A terminal frontend gets a stderr line
//! redrawn with `\r` that ends at 100% with the total time, each redraw blanking what is left
//! of a longer one; a frontend that takes progress itself (a notebook) gets updates of one bar
//! by id and no stderr text. `benchmark_differentiation` and `test_differentiation` show their
//! bars with `logging=true`, as DifferentiationInterfaceTest logs its progress.

use difflab_session::{Event, ExecuteOptions, Frontend, Progress, Session, StreamName};

const CODE: &str = "f(x) = sum(abs2, x)
    sc = [Scenario{:gradient, :out}(f, rand(n); res1=nothing) for n in [3, 4]]
    b = benchmark_differentiation([AutoForwardDiff(), AutoReverseDiff()], sc; logging=true)
    t = test_differentiation([AutoForwardDiff()], sc; logging=true)";

#[test]
fn benchmark_and_test_differentiation_draw_a_progress_bar_on_stderr() {
    let mut session = Session::new();
    let (outcome, events) = session.execute_collect(CODE, &ExecuteOptions::default());
    assert!(!outcome.failed, "{events:?}");
    let stderr: String = events
        .iter()
        .filter_map(|e| match e {
            Event::Stream {
                name: StreamName::Stderr,
                text,
            } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let redraws: Vec<&str> = stderr.split('\r').filter(|s| !s.is_empty()).collect();
    assert!(
        redraws[0].starts_with("benchmark_differentiation:   0%|"),
        "{stderr:?}"
    );
    assert!(redraws.iter().any(|r| r.contains("| 2/4 ")), "{stderr:?}");
    assert!(
        redraws
            .iter()
            .any(|r| r.starts_with("benchmark_differentiation: 100%|") && r.contains("4/4 in")),
        "{stderr:?}"
    );
    let last = redraws.last().expect("a redraw");
    assert!(
        last.starts_with("test_differentiation: 100%|") && last.trim_end().ends_with(" s"),
        "{stderr:?}"
    );
    assert!(last.ends_with('\n'), "{stderr:?}");
    // Each redraw covers every character of the longer one before it, within a bar.
    for pair in redraws.windows(2) {
        let same_bar = pair[0].split(':').next() == pair[1].split(':').next();
        if same_bar && !pair[0].ends_with('\n') {
            assert!(
                pair[1].trim_end_matches('\n').chars().count() >= pair[0].chars().count(),
                "{pair:?}"
            );
        }
    }
}

/// A frontend that keeps progress updates apart from the other events.
#[derive(Default)]
struct Notebook {
    events: Vec<Event>,
    progress: Vec<Progress>,
}

impl Frontend for Notebook {
    fn event(&mut self, event: Event) {
        self.events.push(event);
    }

    fn progress(&mut self, progress: Progress) {
        self.progress.push(progress);
    }
}

#[test]
fn a_notebook_frontend_gets_progress_updates_of_one_bar_by_id() {
    let mut session = Session::new();
    let mut notebook = Notebook::default();
    let outcome = session.execute(CODE, &ExecuteOptions::default(), &mut notebook);
    assert!(!outcome.failed, "{:?}", notebook.events);
    assert!(
        !notebook
            .events
            .iter()
            .any(|e| matches!(e, Event::Stream { .. })),
        "{:?}",
        notebook.events
    );
    let mut ids: Vec<u64> = notebook.progress.iter().map(|p| p.id).collect();
    ids.dedup();
    assert_eq!(ids.len(), 2, "one bar per call: {:?}", notebook.progress);
    for id in ids {
        let bar: Vec<&Progress> = notebook.progress.iter().filter(|p| p.id == id).collect();
        let total = bar[0].total;
        assert_eq!(
            bar.len(),
            total + 1,
            "a step per scenario and backend, then the end"
        );
        assert!(bar.iter().all(|p| !p.line.contains('\r')));
        let (last, rest) = bar.split_last().unwrap();
        assert!(last.finished && last.done == total, "{last:?}");
        assert!(rest.iter().all(|p| !p.finished));
        assert!(rest.windows(2).all(|w| w[0].done < w[1].done));
    }
}
