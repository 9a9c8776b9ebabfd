//! Benchmarking support for `@b` and `@btime`: formatting durations and the sample object.

use crate::object::Object;
use crate::value::Value;
use std::any::Any;
use std::rc::Rc;
use std::time::Duration;

/// A duration as Julia's benchmarking tools print it: `12.345 μs`, `1.200 ms`, `3.000 ns`.
pub fn format_duration(d: Duration) -> String {
    let ns = d.as_secs_f64() * 1e9;
    if ns < 1e3 {
        format!("{ns:.3} ns")
    } else if ns < 1e6 {
        format!("{:.3} μs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.3} ms", ns / 1e6)
    } else {
        format!("{:.3} s", ns / 1e9)
    }
}

/// The result of `@b expr`: the fastest time over `samples` runs.
pub struct Sample {
    /// The fastest run.
    pub time: Duration,
    /// How many runs were timed.
    pub samples: usize,
}

impl Object for Sample {
    fn type_name(&self) -> String {
        "Sample".into()
    }

    fn show(&self) -> String {
        format_duration(self.time)
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "time" => Some(Value::Float(self.time.as_secs_f64())),
            "samples" => Some(Value::Int(self.samples as i64)),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["time", "samples"]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A `Sample` value.
pub fn sample(time: Duration, samples: usize) -> Value {
    Value::Object(Rc::new(Box::new(Sample { time, samples })))
}

crate::builtins! {}
