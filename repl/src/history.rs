//! Where the prompt's history lives: `$DIFFLAB_HISTORY` if set (an empty value turns the file
//! off), else `$XDG_DATA_HOME/difflab/history`, else `~/.local/share/difflab/history`.
//!
//! The file is rustyline's (one entry per input, newlines escaped), appended after every input
//! under a file lock, so sessions running side by side share it.

use std::ffi::OsString;
use std::path::PathBuf;

/// The history file, given a way to read environment variables; `None` turns history off.
pub fn path(var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    if let Some(explicit) = var("DIFFLAB_HISTORY") {
        return (!explicit.is_empty()).then(|| PathBuf::from(explicit));
    }
    // The XDG base directory specification ignores relative values.
    let data_home = var("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            var("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".local").join("share"))
        })?;
    Some(data_home.join("difflab").join("history"))
}

/// The history file of this process's environment.
pub fn from_env() -> Option<PathBuf> {
    path(|name| std::env::var_os(name))
}

#[cfg(test)]
mod tests {
    use super::path;
    use std::ffi::OsString;
    use std::path::PathBuf;

    fn with(vars: &[(&str, &str)]) -> Option<PathBuf> {
        path(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(v))
        })
    }

    #[test]
    fn the_override_wins_and_an_empty_one_turns_history_off() {
        let vars = [("DIFFLAB_HISTORY", "/tmp/h"), ("HOME", "/home/u")];
        assert_eq!(with(&vars), Some(PathBuf::from("/tmp/h")));
        assert_eq!(with(&[("DIFFLAB_HISTORY", ""), ("HOME", "/home/u")]), None);
    }

    #[test]
    fn xdg_data_home_then_the_home_directory() {
        assert_eq!(
            with(&[("XDG_DATA_HOME", "/data"), ("HOME", "/home/u")]),
            Some(PathBuf::from("/data/difflab/history"))
        );
        assert_eq!(
            with(&[("XDG_DATA_HOME", "relative"), ("HOME", "/home/u")]),
            Some(PathBuf::from("/home/u/.local/share/difflab/history"))
        );
        assert_eq!(with(&[]), None);
    }
}
