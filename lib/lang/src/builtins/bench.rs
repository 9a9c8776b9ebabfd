//! Benchmarking support for `@time`, `@b` and `@btime`: formatting durations and allocations
//! as Julia's tools print them, and the sample object.

use crate::allocator::Allocations;
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

/// A byte count as Julia prints it: `240 bytes`, `78.172 KiB`, `7.629 MiB`.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.3} {}", UNITS[unit])
}

/// `3 allocations: 240 bytes` (BenchmarkTools and `@time`), or `3 allocs: 240 bytes` (Chairmarks).
pub fn format_allocations(a: Allocations, word: &str) -> String {
    let plural = if a.count == 1 { "" } else { "s" };
    format!("{} {word}{plural}: {}", a.count, format_bytes(a.bytes))
}

/// The result of `@b expr`: the fastest time over `samples` runs and what that run allocated.
pub struct Sample {
    /// The fastest run.
    pub time: Duration,
    /// What the fastest run allocated.
    pub allocations: Allocations,
    /// How many runs were timed.
    pub samples: usize,
}

impl Object for Sample {
    fn type_name(&self) -> String {
        "Sample".into()
    }

    fn show(&self) -> String {
        if self.allocations.count == 0 {
            return format_duration(self.time);
        }
        format!(
            "{} ({})",
            format_duration(self.time),
            format_allocations(self.allocations, "alloc")
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "time" => Some(Value::Float(self.time.as_secs_f64())),
            "samples" => Some(Value::Int(self.samples as i64)),
            "allocs" => Some(Value::Int(self.allocations.count as i64)),
            "bytes" => Some(Value::Int(self.allocations.bytes as i64)),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["time", "allocs", "bytes", "samples"]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A `Sample` value.
pub fn sample(time: Duration, allocations: Allocations, samples: usize) -> Value {
    Value::Object(Rc::new(Box::new(Sample {
        time,
        allocations,
        samples,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_and_allocations_print_as_in_julia() {
        assert_eq!(format_bytes(240), "240 bytes");
        assert_eq!(format_bytes(80_048), "78.172 KiB");
        assert_eq!(format_bytes(8_000_000), "7.629 MiB");
        let one = Allocations {
            count: 1,
            bytes: 16,
        };
        assert_eq!(
            format_allocations(one, "allocation"),
            "1 allocation: 16 bytes"
        );
        let three = Allocations {
            count: 3,
            bytes: 240,
        };
        assert_eq!(format_allocations(three, "alloc"), "3 allocs: 240 bytes");
    }
}

crate::builtins! {}
