//! The native Rust API on the peer benchmark's gradient task: `∇ sum(x.^2)` at
//! `x[i] = 1 + 0.5 sin(i)` (0-based i), reverse mode, forward mode and a hand-written loop, for
//! n = 10, 10³, 10⁴. Prints one JSON line per measurement (median seconds), like the peer
//! benchmark `tests/peers/peers.py`, so `tests/peers/report.py` can put them side by side.
//! Run: `cargo bench -p difflab-ad --bench gradient`.

use difflab_ad::di::{operators::value_and_gradient, Backend};
use difflab_ad::{ops, AdError, Tensor};
use std::time::Instant;

// The allocator the difflab programs use (see `difflab_lang::allocator`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn median_seconds(mut f: impl FnMut()) -> f64 {
    f();
    let mut inner = 1;
    loop {
        let t = Instant::now();
        for _ in 0..inner {
            f();
        }
        if t.elapsed().as_secs_f64() > 0.02 || inner > 1 << 20 {
            break;
        }
        inner *= 2;
    }
    let mut samples: Vec<f64> = (0..15)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..inner {
                f();
            }
            t.elapsed().as_secs_f64() / inner as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let f = |x: &Tensor| -> Result<Tensor, AdError> {
        ops::sum_all(&ops::binary(ops::BinaryFn::Mul, x, x)?)
    };
    for n in [10, 1000, 10_000] {
        let data: Vec<f64> = (0..n).map(|i| 1.0 + 0.5 * (i as f64).sin()).collect();
        let x = Tensor::from_col_major(&[n], data.clone());
        for (name, backend) in [
            ("reverse", Backend::Reverse { compile: false }),
            ("forward", Backend::Forward { chunk: None }),
        ] {
            if name == "forward" && n > 1000 {
                continue;
            }
            let mut g = f;
            let secs = median_seconds(|| {
                let out = value_and_gradient(&mut g, &backend, &x).expect("gradient");
                std::hint::black_box(out);
            });
            println!("{{\"peer\": \"difflab-rust-{name}\", \"task\": \"grad\", \"n\": {n}, \"seconds_median\": {secs:e}}}");
        }
        let secs = median_seconds(|| {
            let g: Vec<f64> = data.iter().map(|v| 2.0 * v).collect();
            std::hint::black_box(g);
        });
        println!("{{\"peer\": \"native-loop\", \"task\": \"grad\", \"n\": {n}, \"seconds_median\": {secs:e}}}");
    }
}
