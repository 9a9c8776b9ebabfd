//! Random numbers from the session's seeded generator: `rand`, `randn`, `rand!`, `randn!`,
//! `seed!`, `randperm`, and generators of one's own (`MersenneTwister(seed)`, `Xoshiro(seed)`,
//! `StableRNG(seed)`) passed first to any of them.
//!
//! A fresh session starts from a fixed seed, so scripts are reproducible; `seed!(k)` (also
//! `Random.seed!(k)`) restarts the stream. Every generator is difflab's xoshiro256++ seeded
//! with the given seed: the same seed gives the same numbers, but not Julia's numbers.

use super::{dims_from, to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::Value;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::cell::RefCell;

/// A random generator of the user's (`MersenneTwister(1)`), named as it was made.
pub struct RngValue {
    name: &'static str,
    /// The seed it was made with.
    pub seed: u64,
    state: RefCell<Xoshiro256PlusPlus>,
}

impl crate::object::Object for RngValue {
    fn type_name(&self) -> String {
        self.name.into()
    }
    fn show(&self) -> String {
        format!("{}({})", self.name, self.seed)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The user's generator when `v` is one.
pub fn as_rng(v: &Value) -> Option<&RngValue> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<RngValue>(),
        _ => None,
    }
}

/// The session's own generator as a value (Julia's `Random.default_rng()`, a `TaskLocalRNG`):
/// passed to `rand` and friends, it draws from the session's stream.
struct SessionRng;

impl crate::object::Object for SessionRng {
    fn type_name(&self) -> String {
        "TaskLocalRNG".into()
    }
    fn show(&self) -> String {
        "TaskLocalRNG()".into()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

thread_local! {
    /// One value for the session's generator, so that `default_rng() === default_rng()`.
    static SESSION_RNG: Value = Value::object(SessionRng);
}

/// The session's generator as a value (`default_rng()`).
pub fn default_rng() -> Value {
    SESSION_RNG.with(Value::clone)
}

/// Whether `v` is the session's generator (`default_rng()`).
pub fn is_session_rng(v: &Value) -> bool {
    matches!(v, Value::Object(o) if o.as_any().is::<SessionRng>())
}

/// 64 random bits from generator `rng` (the user's or the session's), advancing it.
pub fn draw_bits(interp: &mut Interp, rng: &Value) -> u64 {
    note_draw(interp);
    match as_rng(rng) {
        Some(r) => r.state.borrow_mut().random(),
        None => interp.rng.random(),
    }
}

/// A recording of a function that draws random numbers would replay the same numbers.
fn note_draw(interp: &Interp) {
    interp.note_effect(|| "it draws random numbers".into());
}

/// Runs `draw` with the generator given first in `args` (removing it), else the session's.
pub(crate) fn with_generator<T>(
    interp: &mut Interp,
    args: &mut Args,
    draw: impl FnOnce(&mut Interp, &mut Xoshiro256PlusPlus, &Args) -> T,
) -> T {
    note_draw(interp);
    if args.pos.first().is_some_and(is_session_rng) {
        args.pos.remove(0);
    }
    match args.pos.first().and_then(as_rng).map(|r| r.state.clone()) {
        Some(state) => {
            let first = args.pos.remove(0);
            let mut rng = state.into_inner();
            let result = draw(interp, &mut rng, args);
            if let Some(r) = as_rng(&first) {
                *r.state.borrow_mut() = rng;
            }
            result
        }
        None => {
            let mut rng = interp.rng.clone();
            let result = draw(interp, &mut rng, args);
            interp.rng = rng;
            result
        }
    }
}

fn generator(name: &'static str, args: &Args) -> EvalResult {
    args.arity(name, 0, 1)?;
    let seed = match args.pos.first() {
        Some(v) => to_int(v, name)? as u64,
        None => crate::eval::DEFAULT_SEED,
    };
    Ok(Value::object(RngValue {
        name,
        seed,
        state: RefCell::new(Xoshiro256PlusPlus::seed_from_u64(seed)),
    }))
}

fn mersenne_twister_(_: &mut Interp, args: Args) -> EvalResult {
    generator("MersenneTwister", &args)
}

fn xoshiro_(_: &mut Interp, args: Args) -> EvalResult {
    generator("Xoshiro", &args)
}

fn stable_rng_(_: &mut Interp, args: Args) -> EvalResult {
    generator("StableRNG", &args)
}

/// `rand!(x)`, `randn!(x)`: fills the array `x` in place.
fn fill_random(interp: &mut Interp, mut args: Args, name: &str, gaussian: bool) -> EvalResult {
    with_generator(interp, &mut args, |_, rng, args| {
        args.arity(name, 1, 1)?;
        let Value::Array(a) = &args.pos[0] else {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching {name}(::{})", args.pos[0].type_name()),
            ));
        };
        let mut a = a.borrow_mut();
        let shape = a.data.shape().to_vec();
        let n: usize = shape.iter().product();
        let data: Vec<f64> = (0..n).map(|_| draw(rng, gaussian)).collect();
        a.data = difflab_ad::Tensor::from_col_major(&shape, data);
        a.eltype = ElType::Float64;
        Ok(args.pos[0].clone())
    })
}

fn rand_bang(interp: &mut Interp, args: Args) -> EvalResult {
    fill_random(interp, args, "rand!", false)
}

fn randn_bang(interp: &mut Interp, args: Args) -> EvalResult {
    fill_random(interp, args, "randn!", true)
}

/// One uniform or standard normal number.
fn draw(rng: &mut Xoshiro256PlusPlus, gaussian: bool) -> f64 {
    if gaussian {
        normal(rng)
    } else {
        rng.random()
    }
}

/// A standard normal sample (Box–Muller on the session generator).
fn normal(rng: &mut Xoshiro256PlusPlus) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

fn sample(
    interp: &mut Interp,
    rng: &mut Xoshiro256PlusPlus,
    args: &Args,
    name: &str,
    gaussian: bool,
) -> EvalResult {
    let mut pos = args.pos.as_slice();
    // `rand(Float64)`, and `rand(typeof(x))` for a number carrying derivatives (or a tracer):
    // a plain number, which depends on nothing, as ForwardDiff and SparseConnectivityTracer
    // give.
    let real = crate::types::Type::named("Real");
    let is_real_type = |v: &Value| {
        !matches!(v, Value::Builtin(b) if b.name != "Float64")
            && crate::types::Type::from_value(v).is_some_and(|t| t.is_subtype(&real))
    };
    if pos.first().is_some_and(is_real_type) {
        pos = &pos[1..];
    }
    // `rand(1:6)` or `rand(collection)`: one element of it; `rand(1:6, dims...)`: an array
    // of them.
    if let [v @ (Value::Range(_) | Value::List(_) | Value::Tuple(_)), dims @ ..] = pos {
        let items = match v {
            Value::Range(r) => Err(r.len),
            other => Ok(crate::value::iterate::elements(other)?),
        };
        let count = items.as_ref().map_or_else(|&n| n, Vec::len);
        if count == 0 {
            return Err(fail(
                ErrorKind::ArgumentError,
                "collection must be non-empty",
            ));
        }
        let mut pick = || match (&items, v) {
            (Ok(items), _) => items[rng.random_range(0..count)].clone(),
            (Err(_), Value::Range(r)) => {
                crate::value::convert::range_element(r, rng.random_range(0..count))
            }
            _ => unreachable!("a range's elements are drawn by position"),
        };
        if dims.is_empty() {
            return Ok(pick());
        }
        let shape = dims_from(dims, name)?;
        let n: usize = shape.iter().product();
        interp.check_alloc(n)?;
        let mut drawn = Vec::with_capacity(n);
        for k in 0..n {
            if k % difflab_ad::broadcast::BLOCK == 0 {
                interp.check_interrupt()?;
            }
            drawn.push(pick());
        }
        return crate::eval::collections::collect_values(interp, drawn, &shape);
    }
    let shape = dims_from(pos, name)?;
    if shape.is_empty() {
        return Ok(Value::Float(draw(rng, gaussian)));
    }
    let n: usize = shape.iter().product();
    interp.check_alloc(n)?;
    let mut data: Vec<f64> = Vec::with_capacity(n);
    while data.len() < n {
        // Drawn in blocks, so an interrupt stops `rand(10^9)` within a block.
        interp.check_interrupt()?;
        let block = difflab_ad::broadcast::BLOCK.min(n - data.len());
        data.extend((0..block).map(|_| draw(rng, gaussian)));
    }
    Ok(super::array(ElType::Float64, &shape, data))
}

fn rand_(interp: &mut Interp, mut args: Args) -> EvalResult {
    with_generator(interp, &mut args, |interp, rng, args| {
        sample(interp, rng, args, "rand", false)
    })
}

fn randn_(interp: &mut Interp, mut args: Args) -> EvalResult {
    with_generator(interp, &mut args, |interp, rng, args| {
        sample(interp, rng, args, "randn", true)
    })
}

fn default_rng_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("default_rng", 0, 0)?;
    Ok(default_rng())
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

/// A uniformly random permutation of `0..n` (Fisher–Yates).
fn permutation(rng: &mut Xoshiro256PlusPlus, n: usize) -> Vec<usize> {
    let mut perm: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.random_range(0..=i);
        perm.swap(i, j);
    }
    perm
}

fn randperm_(interp: &mut Interp, mut args: Args) -> EvalResult {
    with_generator(interp, &mut args, |interp, rng, args| {
        args.arity("randperm", 1, 1)?;
        let n = super::to_size(&args.pos[0], "randperm")?;
        interp.check_alloc(n)?;
        let perm = permutation(rng, n)
            .into_iter()
            .map(|k| (k + 1) as f64)
            .collect();
        Ok(super::array(ElType::Int64, &[n], perm))
    })
}

/// `shuffle([rng,] v)`: the elements of `v` in a random order.
fn shuffle_(interp: &mut Interp, mut args: Args) -> EvalResult {
    with_generator(interp, &mut args, |interp, rng, args| {
        args.arity("shuffle", 1, 1)?;
        let n = super::arrays::length_of(&args.pos[0]).ok_or_else(|| {
            fail(
                ErrorKind::MethodError,
                format!("no method matching shuffle(::{})", args.pos[0].type_name()),
            )
        })?;
        interp.check_alloc(n)?;
        super::arrays::regather(&args.pos[0], &permutation(rng, n), "shuffle")
    })
}

/// `shuffle!([rng,] v)`: `v` with its elements put in a random order, in place.
fn shuffle_in_place(interp: &mut Interp, args: Args) -> EvalResult {
    let target = args.pos.last().cloned().unwrap_or(Value::Nothing);
    let shuffled = shuffle_(interp, args)?;
    interp.fill_all(&target, &shuffled)?;
    Ok(target)
}

crate::builtins! {
    "rand" => rand_, false, "    rand([rng,] [dims...])\n    rand(collection)\n\nUniform random numbers in [0, 1) from the session's seeded generator (a number, or an array of the given size), or a random element of a collection.\n\n```\njulia> seed!(1); x = rand(3); length(x)\n3\n```";
    "rand!" => rand_bang, false, "    rand!([rng,] x)\n\nFills the array `x` with uniform random numbers in [0, 1) and returns it.\n\n```\njulia> x = zeros(3); rand!(x) === x\ntrue\n```";
    "randn!" => randn_bang, false, "    randn!([rng,] x)\n\nFills the array `x` with standard normal random numbers and returns it.\n\n```\njulia> x = zeros(2, 2); size(randn!(x))\n(2, 2)\n```";
    "MersenneTwister" => mersenne_twister_, false, "    MersenneTwister(seed)\n\nA random generator of your own, passed first to `rand`, `randn`, `rand!`, `randn!` (or to `RandomOrder`). Like every difflab generator it is xoshiro256++ seeded with `seed`: the same seed gives the same numbers, though not Julia's.\n\n```\njulia> rand(MersenneTwister(1), 2) == rand(MersenneTwister(1), 2)\ntrue\n```";
    "Xoshiro" => xoshiro_, false, "    Xoshiro(seed)\n\nA random generator of your own (see `?MersenneTwister`).\n\n```\njulia> rng = Xoshiro(3); length(randn(rng, 4))\n4\n```";
    "StableRNG" => stable_rng_, false, "    StableRNG(seed)\n\nA random generator of your own whose numbers are the same on every machine and version of difflab (see `?MersenneTwister`).\n\n```\njulia> rand(StableRNG(0)) == rand(StableRNG(0))\ntrue\n```";
    "randn" => randn_, false, "    randn([rng,] [dims...])\n\nStandard normal random numbers.\n\n```\njulia> size(randn(2, 3))\n(2, 3)\n```";
    "default_rng" => default_rng_, false, "    default_rng()\n    Random.default_rng()\n\nThe session's own generator, the one `rand` draws from when given none; passing it first to `rand`, `randn`, `randperm`, … (or to `RandomOrder`) draws from the same stream.\n\n```\njulia> seed!(1); a = rand(default_rng()); seed!(1); a == rand()\ntrue\n\njulia> default_rng() === Random.default_rng()\ntrue\n```";
    "seed!" => seed_, false, "    seed!(k)\n    Random.seed!(k)\n\nRestarts the random stream from seed `k`: the same seed gives the same numbers.\n\n```\njulia> seed!(0); a = rand(); seed!(0); a == rand()\ntrue\n```";
    "shuffle" => shuffle_, false, "    shuffle([rng,] v)\n\nThe elements of the vector `v` in a random order (from the session's seeded generator, or `rng`).\n\n```\njulia> sort(shuffle([3, 1, 2]))\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
    "shuffle!" => shuffle_in_place, false, "    shuffle!([rng,] v)\n\nPuts the elements of the vector `v` in a random order, in place, and returns `v`.\n\n```\njulia> v = [1, 2, 3]; shuffle!(v) === v\ntrue\n\njulia> sort(v)\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
    "randperm" => randperm_, false, "    randperm([rng,] n)\n\nA random permutation of `1:n`.\n\n```\njulia> sort(randperm(3))\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
}
