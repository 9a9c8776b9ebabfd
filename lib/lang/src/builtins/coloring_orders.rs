//! SparseMatrixColorings' vertex orders as values: `NaturalOrder()`, `LargestFirst()`, the
//! dynamic degree-based orders (`SmallestLast`, `IncidenceDegree`, `DynamicLargestFirst` and
//! `DynamicDegreeBasedOrder{degtype, direction}`, each with `reproduce_colpack`),
//! `PerfectEliminationOrder()` and `RandomOrder(rng, seed)`.

use super::{to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use difflab_coloring::{Direction, DynamicDegree, DynamicOrder, Order};
use std::any::Any;

/// Where a random order comes from: a generator, and the seed it is drawn with (without one,
/// each use draws a new permutation from the generator).
#[derive(Clone)]
struct RandomSource {
    rng: Value,
    seed: Option<i64>,
}

/// A vertex order as a value.
pub struct OrderValue {
    /// The order (for a random one without a seed, the permutation drawn when it was made).
    pub order: Order,
    random: Option<RandomSource>,
}

impl OrderValue {
    /// The value of `order`.
    pub fn new(order: Order) -> OrderValue {
        OrderValue {
            order,
            random: None,
        }
    }

    /// The order to use now: a random order without a seed draws a new permutation from its
    /// generator at every use, as SparseMatrixColorings' does.
    pub fn resolve(&self, interp: &mut Interp) -> Order {
        match &self.random {
            Some(RandomSource { rng, seed: None }) => {
                Order::Random(super::random::draw_bits(interp, rng))
            }
            _ => self.order,
        }
    }
}

fn dynamic_name(spec: DynamicOrder) -> String {
    let name = match (spec.degree, spec.direction) {
        (DynamicDegree::Back, Direction::HighToLow) => "SmallestLast".to_string(),
        (DynamicDegree::Back, Direction::LowToHigh) => "IncidenceDegree".to_string(),
        (DynamicDegree::Forward, Direction::LowToHigh) => "DynamicLargestFirst".to_string(),
        (DynamicDegree::Forward, Direction::HighToLow) => {
            "DynamicDegreeBasedOrder{:forward, :high2low}".to_string()
        }
    };
    if spec.reproduce_colpack {
        format!("{name}(; reproduce_colpack=true)")
    } else {
        format!("{name}()")
    }
}

impl Object for OrderValue {
    fn type_name(&self) -> String {
        match self.order {
            Order::Dynamic(_) => "DynamicDegreeBasedOrder".into(),
            _ => self.show().split('(').next().unwrap_or("Order").to_string(),
        }
    }

    fn show(&self) -> String {
        match (self.order, &self.random) {
            (Order::Natural, _) => "NaturalOrder()".into(),
            (Order::LargestFirst, _) => "LargestFirst()".into(),
            (Order::Dynamic(spec), _) => dynamic_name(spec),
            (Order::PerfectElimination, _) => "PerfectEliminationOrder()".into(),
            // The session's generator is left out, as the calls that make these orders do.
            (Order::Random(_), Some(RandomSource { rng, seed }))
                if super::random::is_session_rng(rng) =>
            {
                format!(
                    "RandomOrder({})",
                    seed.map_or(String::new(), |s| s.to_string())
                )
            }
            (Order::Random(_), Some(RandomSource { rng, seed })) => {
                let seed = seed.map_or("nothing".to_string(), |s| s.to_string());
                format!("RandomOrder({}, {seed})", crate::display::repr(rng))
            }
            (Order::Random(seed), None) => format!("RandomOrder({seed})"),
        }
    }

    fn field(&self, name: &str) -> Option<Value> {
        let random = self.random.as_ref()?;
        match name {
            "rng" => Some(random.rng.clone()),
            "seed" => Some(random.seed.map_or(Value::Nothing, Value::Int)),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        match self.random {
            Some(_) => vec!["rng", "seed"],
            None => Vec::new(),
        }
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The order of value `v`, if it is one.
pub fn as_order(v: &Value) -> Option<&OrderValue> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<OrderValue>(),
        _ => None,
    }
}

fn natural_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("NaturalOrder", 0, 0)?;
    Ok(Value::object(OrderValue::new(Order::Natural)))
}

fn largest_first_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("LargestFirst", 0, 0)?;
    Ok(Value::object(OrderValue::new(Order::LargestFirst)))
}

fn perfect_elimination_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("PerfectEliminationOrder", 0, 0)?;
    Ok(Value::object(OrderValue::new(Order::PerfectElimination)))
}

/// A dynamic order with the `reproduce_colpack` keyword read from `args`.
fn dynamic(args: &Args, degree: DynamicDegree, direction: Direction) -> EvalResult {
    args.keywords("DynamicDegreeBasedOrder", &["reproduce_colpack"])?;
    Ok(Value::object(OrderValue::new(Order::Dynamic(
        DynamicOrder {
            degree,
            direction,
            reproduce_colpack: args.flag("reproduce_colpack", false)?,
        },
    ))))
}

macro_rules! named_dynamic_orders {
    ($($fname:ident => $name:literal, $degree:ident, $direction:ident);* $(;)?) => {
        $(fn $fname(_: &mut Interp, args: Args) -> EvalResult {
            args.arity($name, 0, 0)?;
            dynamic(&args, DynamicDegree::$degree, Direction::$direction)
        })*
    };
}

named_dynamic_orders!(
    smallest_last_ => "SmallestLast", Back, HighToLow;
    incidence_degree_ => "IncidenceDegree", Back, LowToHigh;
    dynamic_largest_first_ => "DynamicLargestFirst", Forward, LowToHigh;
);

/// `DynamicDegreeBasedOrder{degtype, direction}(; reproduce_colpack)`: the type parameters
/// arrive as the first two arguments.
fn dynamic_degree_based_(_: &mut Interp, args: Args) -> EvalResult {
    let symbol = |k: usize| match args.pos.get(k) {
        Some(Value::Symbol(s)) => Some(s.as_str()),
        _ => None,
    };
    let degree = match symbol(0) {
        Some("back") => DynamicDegree::Back,
        Some("forward") => DynamicDegree::Forward,
        _ => return Err(parameters_error()),
    };
    let direction = match symbol(1) {
        Some("low2high") => Direction::LowToHigh,
        Some("high2low") => Direction::HighToLow,
        _ => return Err(parameters_error()),
    };
    if args.pos.len() != 2 {
        return Err(parameters_error());
    }
    dynamic(&args, degree, direction)
}

fn parameters_error() -> Flow {
    fail(
        ErrorKind::ArgumentError,
        "DynamicDegreeBasedOrder{degtype, direction}() takes degtype :back or :forward and direction :low2high or :high2low",
    )
}

fn random_order_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("RandomOrder", 0, 2)?;
    let is_rng = |v: &Value| super::random::as_rng(v).is_some() || super::random::is_session_rng(v);
    let seed_of = |v: &Value| -> Result<Option<i64>, Flow> {
        match v {
            Value::Nothing => Ok(None),
            other => to_int(other, "RandomOrder").map(Some),
        }
    };
    let (rng, seed) = match args.pos.as_slice() {
        [] => (super::random::default_rng(), None),
        [rng] if is_rng(rng) => (rng.clone(), None),
        // difflab's shorthand: the seed alone.
        [seed] => (super::random::default_rng(), seed_of(seed)?),
        [rng, seed] if is_rng(rng) => (rng.clone(), seed_of(seed)?),
        [other, _] => {
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "RandomOrder(rng, seed) takes a random generator first, got {}",
                    crate::display::repr(other)
                ),
            ))
        }
        _ => unreachable!("arity checked"),
    };
    // With a seed, the permutation depends on the seed alone: the generator is not reseeded
    // (SparseMatrixColorings reseeds it, changing its later draws).
    let order = match seed {
        Some(seed) => Order::Random(seed as u64),
        None => Order::Random(super::random::draw_bits(interp, &rng)),
    };
    Ok(Value::object(OrderValue {
        order,
        random: Some(RandomSource { rng, seed }),
    }))
}

crate::builtins! {
    "NaturalOrder" => natural_, false, "    NaturalOrder()\n\nVisit vertices by increasing index.\n\n```\njulia> GreedyColoringAlgorithm(NaturalOrder())\nGreedyColoringAlgorithm{:direct}(NaturalOrder(); postprocessing=false)\n```";
    "LargestFirst" => largest_first_, false, "    LargestFirst()\n\nVisit vertices by decreasing degree (distance-2 degree for column/row problems), ties by increasing index.\n\n```\njulia> GreedyColoringAlgorithm(LargestFirst())\nGreedyColoringAlgorithm{:direct}(LargestFirst(); postprocessing=false)\n```";
    "SmallestLast" => smallest_last_, false, "    SmallestLast(; reproduce_colpack=false)\n\nRepeatedly remove a vertex of smallest remaining degree and place it last (`DynamicDegreeBasedOrder{:back, :high2low}`). With `reproduce_colpack=true` the degree buckets are kept as ColPack keeps them, so orders and colors are ColPack's; by default, as SparseMatrixColorings keeps them.\n\n```\njulia> GreedyColoringAlgorithm(SmallestLast())\nGreedyColoringAlgorithm{:direct}(SmallestLast(); postprocessing=false)\n```";
    "IncidenceDegree" => incidence_degree_, false, "    IncidenceDegree(; reproduce_colpack=false)\n\nRepeatedly pick the vertex with the most already-ordered neighbours (`DynamicDegreeBasedOrder{:back, :low2high}`); `reproduce_colpack` as for `SmallestLast` (ColPack starts from the first vertex of largest degree).\n\n```\njulia> IncidenceDegree(; reproduce_colpack=true)\nIncidenceDegree(; reproduce_colpack=true)\n```";
    "DynamicLargestFirst" => dynamic_largest_first_, false, "    DynamicLargestFirst(; reproduce_colpack=false)\n\nRepeatedly pick the vertex with the most not-yet-ordered neighbours (`DynamicDegreeBasedOrder{:forward, :low2high}`); `reproduce_colpack` as for `SmallestLast`.\n\n```\njulia> GreedyColoringAlgorithm(DynamicLargestFirst())\nGreedyColoringAlgorithm{:direct}(DynamicLargestFirst(); postprocessing=false)\n```";
    "DynamicDegreeBasedOrder" => dynamic_degree_based_, false, "    DynamicDegreeBasedOrder{degtype, direction}(; reproduce_colpack=false)\n\nA dynamic degree-based vertex order, as in SparseMatrixColorings: `degtype` is `:back` (count the neighbors placed before a vertex) or `:forward` (after it); `direction` is `:low2high` (fill positions 1 to n, picking the largest degree) or `:high2low` (fill n to 1, picking the smallest). `SmallestLast` is `{:back, :high2low}`, `IncidenceDegree` `{:back, :low2high}`, `DynamicLargestFirst` `{:forward, :low2high}`. `reproduce_colpack=true` keeps the degree buckets as ColPack does. See also `vertices` and `valid_dynamic_order`.\n\n```\njulia> order = DynamicDegreeBasedOrder{:forward, :high2low}();\n\njulia> g = AdjacencyGraph(sparse([0 1 1; 1 0 0; 1 0 0]));\n\njulia> valid_dynamic_order(g, vertices(g, order), order)\ntrue\n```";
    "PerfectEliminationOrder" => perfect_elimination_, false, "    PerfectEliminationOrder()\n\nMaximum cardinality search: repeatedly the vertex with the most already-ordered neighbours. On a chordal graph this is the reverse of a perfect elimination order, and greedy coloring (star or acyclic) in it needs only as many colors as the largest clique; on other graphs it is a heuristic. For column and row problems it orders the distance-2 graph of that side.\n\n```\njulia> A = sparse([1 1 0 0; 1 1 1 0; 0 1 1 1; 0 0 1 1]);\n\njulia> ncolors(coloring(A, ColoringProblem(; structure=:symmetric), GreedyColoringAlgorithm(PerfectEliminationOrder(); decompression=:substitution)))\n2\n```";
    "RandomOrder" => random_order_, false, "    RandomOrder(rng=default_rng(), seed=nothing)\n    RandomOrder(seed)\n\nA random vertex order drawn from the generator `rng`: without a seed every use draws a new permutation (advancing `rng`; a `GreedyColoringAlgorithm` draws its own when it is made); with one, the permutation depends on the seed alone (the same seed always gives the same order, and `rng` is left as it is). Fields `rng` and `seed`.\n\n```\njulia> RandomOrder(StableRNG(0), 6).seed\n6\n\njulia> GreedyColoringAlgorithm(RandomOrder(0))\nGreedyColoringAlgorithm{:direct}(RandomOrder(0); postprocessing=false)\n```";
}
