//! Random numbers from the session's seeded generator: `rand`, `randn`, `seed!`, `randperm`.
//!
//! A fresh session starts from a fixed seed, so scripts are reproducible; `seed!(k)` (also
//! `Random.seed!(k)`) restarts the stream.

use super::{dims_from, to_int, Args};
use crate::error::ErrorKind;
use crate::eval::{fail, EvalResult, Interp};
use crate::show::ElType;
use crate::value::Value;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A standard normal sample (Box–Muller on the session generator).
fn normal(rng: &mut Xoshiro256PlusPlus) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

fn sample(interp: &mut Interp, args: &Args, name: &str, gaussian: bool) -> EvalResult {
    let mut pos = args.pos.as_slice();
    if let Some(Value::Builtin(b)) = pos.first() {
        if b.name == "Float64" {
            pos = &pos[1..];
        }
    }
    // `rand(1:6)` or `rand(collection)`: one element of it.
    if let [v @ (Value::Range(_) | Value::List(_) | Value::Tuple(_))] = pos {
        let items = crate::eval::iterate::elements(v)?;
        if items.is_empty() {
            return Err(fail(
                ErrorKind::ArgumentError,
                "collection must be non-empty",
            ));
        }
        let k = interp.rng.random_range(0..items.len());
        return Ok(items[k].clone());
    }
    let shape = dims_from(pos, name)?;
    if shape.is_empty() {
        return Ok(Value::Float(if gaussian {
            normal(&mut interp.rng)
        } else {
            interp.rng.random()
        }));
    }
    let n: usize = shape.iter().product();
    interp.check_alloc(n)?;
    let data: Vec<f64> = (0..n)
        .map(|_| {
            if gaussian {
                normal(&mut interp.rng)
            } else {
                interp.rng.random()
            }
        })
        .collect();
    Ok(super::array(ElType::Float64, &shape, data))
}

fn rand_(interp: &mut Interp, args: Args) -> EvalResult {
    sample(interp, &args, "rand", false)
}

fn randn_(interp: &mut Interp, args: Args) -> EvalResult {
    sample(interp, &args, "randn", true)
}

fn seed_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("seed!", 0, 1)?;
    let seed = match args.pos.first() {
        Some(v) => to_int(v, "seed!")? as u64,
        None => crate::eval::DEFAULT_SEED,
    };
    interp.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    Ok(Value::Nothing)
}

fn randperm_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("randperm", 1, 1)?;
    let n = super::to_size(&args.pos[0], "randperm")?;
    interp.check_alloc(n)?;
    let mut perm: Vec<f64> = (1..=n).map(|k| k as f64).collect();
    for i in (1..n).rev() {
        let j = interp.rng.random_range(0..=i);
        perm.swap(i, j);
    }
    Ok(super::array(ElType::Int64, &[n], perm))
}

crate::builtins! {
    "rand" => rand_, false, "    rand([dims...])\n    rand(collection)\n\nUniform random numbers in [0, 1) from the session's seeded generator (a number, or an array of the given size), or a random element of a collection.\n\n```\njulia> seed!(1); x = rand(3); length(x)\n3\n```";
    "randn" => randn_, false, "    randn([dims...])\n\nStandard normal random numbers.\n\n```\njulia> size(randn(2, 3))\n(2, 3)\n```";
    "seed!" => seed_, false, "    seed!(k)\n    Random.seed!(k)\n\nRestarts the random stream from seed `k`: the same seed gives the same numbers.\n\n```\njulia> seed!(0); a = rand(); seed!(0); a == rand()\ntrue\n```";
    "randperm" => randperm_, false, "    randperm(n)\n\nA random permutation of `1:n`.\n\n```\njulia> sort(randperm(3))\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
}
