//! The progress bar of long builtins (`benchmark_differentiation`, `test_differentiation`), as
//! ProgressMeter draws it. This module owns the bar's text and its updates; where they go is
//! the [`Output`](crate::output::Output) sink's choice: a terminal redraws one stderr line with
//! `\r` ([`ProgressUpdate::terminal_text`]), a notebook updates one display in place.

use crate::eval::Interp;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

const BAR: usize = 20;

/// Issues the ids of progress bars, unique in the process.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One redraw of a progress bar.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressUpdate {
    /// The bar this update redraws (the same for every update of one bar).
    pub id: u64,
    /// Steps done.
    pub done: usize,
    /// Steps in all.
    pub total: usize,
    /// The bar as one line of text, without `\r` or padding.
    pub line: String,
    /// The longest line drawn for this bar before this one, in characters: a terminal redraw
    /// pads to it so no tail of an earlier, longer line stays visible.
    pub clear: usize,
    /// The last update: the bar is full and shows the total time.
    pub finished: bool,
}

impl ProgressUpdate {
    /// The update as terminal text: `\r`, the line padded over the longest earlier one, and a
    /// newline when finished.
    pub fn terminal_text(&self) -> String {
        let pad = self.clear.saturating_sub(self.line.chars().count());
        let end = if self.finished { "\n" } else { "" };
        format!("\r{}{}{end}", self.line, " ".repeat(pad))
    }
}

/// Progress through `total` steps of the task `title`.
pub struct Progress {
    id: u64,
    title: &'static str,
    total: usize,
    done: usize,
    widest: usize,
    started: Instant,
}

impl Progress {
    /// A bar at 0 of `total` (drawn by the first step).
    pub fn start(title: &'static str, total: usize) -> Progress {
        Progress {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            title,
            total,
            done: 0,
            widest: 0,
            started: Instant::now(),
        }
    }

    /// Shows that the step `what` starts (the steps before it are done).
    pub fn step(&mut self, interp: &mut Interp, what: &str) {
        let update = self.update(what, false);
        interp.out.progress(&update);
        self.done = (self.done + 1).min(self.total);
    }

    /// The full bar with the elapsed time.
    pub fn finish(mut self, interp: &mut Interp) {
        self.done = self.total;
        let seconds = self.started.elapsed().as_secs_f64();
        let update = self.update(&format!("in {seconds:.1} s"), true);
        interp.out.progress(&update);
    }

    fn update(&mut self, what: &str, finished: bool) -> ProgressUpdate {
        let line = self.line(what);
        let clear = self.widest;
        self.widest = self.widest.max(line.chars().count());
        ProgressUpdate {
            id: self.id,
            done: self.done,
            total: self.total,
            line,
            clear,
            finished,
        }
    }

    fn line(&self, what: &str) -> String {
        let filled = (BAR * self.done).checked_div(self.total).unwrap_or(BAR);
        let percent = (100 * self.done).checked_div(self.total).unwrap_or(100);
        format!(
            "{}: {percent:>3}%|{}{}| {}/{} {what}",
            self.title,
            "█".repeat(filled),
            " ".repeat(BAR - filled),
            self.done,
            self.total
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_with_the_steps() {
        let mut p = Progress::start("benchmark", 4);
        p.done = 1;
        let line = p.line("AutoForwardDiff()");
        assert_eq!(
            line,
            "benchmark:  25%|█████               | 1/4 AutoForwardDiff()"
        );
    }

    #[test]
    fn a_shorter_line_clears_the_tail_of_a_longer_one_in_a_terminal() {
        let mut p = Progress::start("t", 2);
        let long = p.update("a rather long scenario with AutoFiniteDiff()", false);
        p.done = 2;
        let short = p.update("in 0.1 s", true);
        assert_eq!((long.id, long.clear), (short.id, 0));
        assert_eq!(short.clear, long.line.chars().count());
        // What a terminal shows after both: the short line, then blanks over the long tail.
        let text = short.terminal_text();
        assert!(text.starts_with(&format!("\r{}", short.line)), "{text:?}");
        assert!(text.ends_with('\n'));
        assert_eq!(
            text.trim_start_matches('\r')
                .trim_end_matches('\n')
                .chars()
                .count(),
            long.line.chars().count()
        );
        assert!(!long.terminal_text().ends_with('\n'));
    }

    #[test]
    fn every_bar_has_its_own_id() {
        let (a, b) = (Progress::start("a", 1), Progress::start("b", 1));
        assert_ne!(a.id, b.id);
    }
}
