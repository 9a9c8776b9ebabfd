//! Version numbers: `v"1.10.2"` literals, `VersionNumber(…)`, `VERSION`, compared as Julia
//! compares them (a pre-release such as `v"1.0.0-rc1"` before its release).

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use std::cmp::Ordering;

/// The Julia version whose behaviour the language follows, as `VERSION` reports it.
const LANGUAGE_VERSION: (i64, i64, i64) = (1, 11, 0);

/// A semantic version: three numbers, pre-release and build identifiers.
#[derive(Clone, PartialEq, Eq)]
pub struct VersionNumber {
    numbers: [i64; 3],
    prerelease: Vec<Identifier>,
    build: Vec<Identifier>,
}

/// A dot-separated part of a pre-release or build: numeric parts order before words.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Identifier {
    Number(i64),
    Word(String),
}

impl std::fmt::Display for Identifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Identifier::Number(n) => write!(f, "{n}"),
            Identifier::Word(w) => f.write_str(w),
        }
    }
}

impl VersionNumber {
    /// The version `v"text"` names: `1`, `1.2`, `1.2.3`, with `-pre.release` and `+build`.
    pub fn parse(text: &str) -> Result<VersionNumber, Flow> {
        let invalid = || {
            fail(
                ErrorKind::ArgumentError,
                format!("invalid version string: {text}"),
            )
        };
        let trimmed = text.trim().strip_prefix('v').unwrap_or(text.trim());
        let (rest, build) = match trimmed.split_once('+') {
            Some((rest, build)) => (rest, identifiers(build).ok_or_else(invalid)?),
            None => (trimmed, Vec::new()),
        };
        let (core, prerelease) = match rest.split_once('-') {
            Some((core, pre)) => (core, identifiers(pre).ok_or_else(invalid)?),
            None => (rest, Vec::new()),
        };
        let parts: Vec<&str> = core.split('.').collect();
        if parts.len() > 3 {
            return Err(invalid());
        }
        let mut numbers = [0; 3];
        for (slot, part) in numbers.iter_mut().zip(&parts) {
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(invalid());
            }
            *slot = part.parse().map_err(|_| invalid())?;
        }
        Ok(VersionNumber {
            numbers,
            prerelease,
            build,
        })
    }

    fn value(self) -> Value {
        Value::object(self)
    }
}

/// The identifiers of a pre-release or build: dot-separated, each a number or a word of
/// letters, digits and hyphens.
fn identifiers(text: &str) -> Option<Vec<Identifier>> {
    text.split('.')
        .map(|part| {
            let valid =
                !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
            valid.then(|| match part.parse() {
                Ok(n) => Identifier::Number(n),
                Err(_) => Identifier::Word(part.to_string()),
            })
        })
        .collect()
}

impl Ord for VersionNumber {
    fn cmp(&self, other: &Self) -> Ordering {
        // A version with a pre-release comes before the release itself.
        let release = |v: &VersionNumber| v.prerelease.is_empty();
        self.numbers
            .cmp(&other.numbers)
            .then_with(|| release(self).cmp(&release(other)))
            .then_with(|| self.prerelease.cmp(&other.prerelease))
            .then_with(|| self.build.cmp(&other.build))
    }
}

impl PartialOrd for VersionNumber {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Object for VersionNumber {
    fn type_name(&self) -> String {
        "VersionNumber".into()
    }

    fn show(&self) -> String {
        format!("v\"{}\"", self.print())
    }

    fn print(&self) -> String {
        let [major, minor, patch] = self.numbers;
        let mut text = format!("{major}.{minor}.{patch}");
        let joined = |ids: &[Identifier]| {
            ids.iter()
                .map(Identifier::to_string)
                .collect::<Vec<_>>()
                .join(".")
        };
        if !self.prerelease.is_empty() {
            text += &format!("-{}", joined(&self.prerelease));
        }
        if !self.build.is_empty() {
            text += &format!("+{}", joined(&self.build));
        }
        text
    }

    fn field(&self, name: &str) -> Option<Value> {
        let parts = |ids: &[Identifier]| {
            Value::tuple(
                ids.iter()
                    .map(|id| match id {
                        Identifier::Number(n) => Value::Int(*n),
                        Identifier::Word(w) => Value::str(w.as_str()),
                    })
                    .collect(),
            )
        };
        Some(match name {
            "major" => Value::Int(self.numbers[0]),
            "minor" => Value::Int(self.numbers[1]),
            "patch" => Value::Int(self.numbers[2]),
            "prerelease" => parts(&self.prerelease),
            "build" => parts(&self.build),
            _ => return None,
        })
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["major", "minor", "patch", "prerelease", "build"]
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn equals(&self, other: &dyn Object) -> Option<bool> {
        let other = other.as_any().downcast_ref::<VersionNumber>()?;
        Some(self == other)
    }

    fn order(&self, other: &dyn Object) -> Option<Ordering> {
        let other = other.as_any().downcast_ref::<VersionNumber>()?;
        Some(self.cmp(other))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `VERSION`.
pub fn language_version() -> Value {
    let (major, minor, patch) = LANGUAGE_VERSION;
    VersionNumber {
        numbers: [major, minor, patch],
        prerelease: Vec::new(),
        build: Vec::new(),
    }
    .value()
}

/// `v"1.2.3"`.
pub fn literal(text: &str) -> EvalResult {
    VersionNumber::parse(text).map(VersionNumber::value)
}

/// `VersionNumber("1.2.3")`, `VersionNumber(major, minor = 0, patch = 0)`.
fn version_number_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("VersionNumber", 1, 3)?;
    if let [Value::Str(text)] = &args.pos[..] {
        return literal(text);
    }
    let mut numbers = [0; 3];
    for (slot, v) in numbers.iter_mut().zip(&args.pos) {
        *slot = super::to_int(v, "VersionNumber")?;
        if *slot < 0 {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("invalid negative version number: {slot}"),
            ));
        }
    }
    Ok(VersionNumber {
        numbers,
        prerelease: Vec::new(),
        build: Vec::new(),
    }
    .value())
}

crate::builtins! {
    "VersionNumber" => version_number_, false, "    VersionNumber(major, minor = 0, patch = 0)\n    VersionNumber(text)\n    v\"1.2.3\"\n\nA version number, as Julia's: three numbers with optional pre-release (`-rc1`) and build (`+b2`) parts, compared numerically (`v\"1.10\" > v\"1.9\"`), a pre-release before its release. `VERSION` is the Julia version whose behaviour the language follows; its fields are `major`, `minor`, `patch`, `prerelease` and `build`.\n\n```\njulia> v\"1.10\" > v\"1.9\", v\"1.0.0-rc1\" < v\"1.0.0\", VersionNumber(1, 2)\n(true, true, v\"1.2.0\")\n\njulia> VERSION >= v\"1.6\"\ntrue\n```";
}
