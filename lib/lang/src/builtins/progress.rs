//! A progress bar for long builtins (`benchmark_differentiation`, `test_differentiation`), as
//! ProgressMeter draws it: one stderr line redrawn with `\r`, which terminals and Jupyter
//! frontends both overwrite in place, ending with the total time.

use crate::eval::Interp;
use crate::output::Stream;
use std::time::Instant;

const BAR: usize = 20;

/// Progress through `total` steps of the task `title`.
pub struct Progress {
    title: &'static str,
    total: usize,
    done: usize,
    started: Instant,
}

impl Progress {
    /// A bar at 0 of `total` (drawn by the first step).
    pub fn start(title: &'static str, total: usize) -> Progress {
        Progress {
            title,
            total,
            done: 0,
            started: Instant::now(),
        }
    }

    /// Shows that the step `what` starts (the steps before it are done).
    pub fn step(&mut self, interp: &mut Interp, what: &str) {
        interp.out.write(Stream::Stderr, &self.line(what));
        self.done = (self.done + 1).min(self.total);
    }

    /// The full bar with the elapsed time, and a newline.
    pub fn finish(mut self, interp: &mut Interp) {
        self.done = self.total;
        let seconds = self.started.elapsed().as_secs_f64();
        let line = self.line(&format!("in {seconds:.1} s"));
        interp
            .out
            .write(Stream::Stderr, &format!("{}\n", line.trim_end()));
    }

    fn line(&self, what: &str) -> String {
        let filled = (BAR * self.done).checked_div(self.total).unwrap_or(BAR);
        let percent = (100 * self.done).checked_div(self.total).unwrap_or(100);
        // Padding overwrites the end of a longer previous line.
        format!(
            "\r{}: {percent:>3}%|{}{}| {}/{} {what:<40}",
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
        let p = Progress {
            title: "benchmark",
            total: 4,
            done: 1,
            started: Instant::now(),
        };
        let line = p.line("AutoForwardDiff()");
        assert!(
            line.starts_with("\rbenchmark:  25%|█████               | 1/4 AutoForwardDiff()"),
            "{line:?}"
        );
    }
}
