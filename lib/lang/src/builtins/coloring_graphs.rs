//! The graphs SparseMatrixColorings colors, for users who inspect orders and degrees:
//! `AdjacencyGraph(A; has_diagonal)` and `BipartiteGraph(A; symmetric_pattern)` with
//! `nb_vertices`, `nb_edges`, `neighbors`, `degree`, `degree_dist2`, `maximum_degree`,
//! `minimum_degree`, `vertices` (in an order) and `valid_dynamic_order`; one greedy run in a
//! given vertex order (`partial_distance2_coloring`, `star_coloring`, `acyclic_coloring`); and
//! the coarse pattern check of decompression (`compatible_pattern`,
//! `check_compatible_pattern`). Vertices are 1-based, as in Julia; a bipartite graph's side is
//! `Val(1)` (rows) or `Val(2)` (columns).

use super::coloring::{int_vector, pattern_and_matrix};
use super::coloring_orders::as_order;
use super::{to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use difflab_coloring::{
    partial_distance2_colors, symmetric_colors, BipartiteGraph, ColoringError, Order, PatternGraph,
    Side, SparsityPattern,
};
use std::any::Any;

/// A graph value, with the pattern it was built from.
enum Graph {
    Adjacency(PatternGraph, SparsityPattern),
    Bipartite(BipartiteGraph, SparsityPattern),
}

impl Graph {
    fn pattern(&self) -> &SparsityPattern {
        match self {
            Graph::Adjacency(_, pattern) | Graph::Bipartite(_, pattern) => pattern,
        }
    }
}

impl Object for Graph {
    fn type_name(&self) -> String {
        match self {
            Graph::Adjacency(..) => "AdjacencyGraph".into(),
            Graph::Bipartite(..) => "BipartiteGraph".into(),
        }
    }

    fn show(&self) -> String {
        match self {
            Graph::Adjacency(g, _) => format!(
                "AdjacencyGraph with {} vertices and {} edges",
                g.nvertices(),
                g.nedges()
            ),
            Graph::Bipartite(g, _) => format!(
                "BipartiteGraph with {} rows, {} columns and {} edges",
                g.nvertices(Side::Rows),
                g.nvertices(Side::Columns),
                g.nedges()
            ),
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn graph_error(e: ColoringError) -> Flow {
    let kind = match e {
        ColoringError::NotSquare { .. } => ErrorKind::DimensionMismatch,
        _ => ErrorKind::ArgumentError,
    };
    fail(kind, e.to_string())
}

fn adjacency_graph_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("AdjacencyGraph", 1, 1)?;
    args.keywords("AdjacencyGraph", &["has_diagonal"])?;
    let (pattern, _) = pattern_and_matrix(&args.pos[0])?;
    let graph =
        PatternGraph::new(&pattern, args.flag("has_diagonal", true)?).map_err(graph_error)?;
    Ok(Value::object(Graph::Adjacency(graph, pattern)))
}

fn bipartite_graph_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("BipartiteGraph", 1, 1)?;
    args.keywords("BipartiteGraph", &["symmetric_pattern"])?;
    let (pattern, _) = pattern_and_matrix(&args.pos[0])?;
    // A symmetric pattern lets SMC reuse the columns as rows; it must then be square.
    if args.flag("symmetric_pattern", false)? {
        let (nrows, ncols) = pattern.shape();
        if nrows != ncols {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!("symmetric_pattern=true needs a square matrix, got {nrows}×{ncols}"),
            ));
        }
    }
    Ok(Value::object(Graph::Bipartite(
        BipartiteGraph::new(&pattern),
        pattern,
    )))
}

/// Whether `v` is an `AdjacencyGraph`.
pub fn is_adjacency_graph(v: &Value) -> bool {
    matches!(graph_of(v), Some(Graph::Adjacency(..)))
}

fn graph_of(v: &Value) -> Option<&Graph> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Graph>(),
        _ => None,
    }
}

/// The graph and (for a bipartite graph) the side named by the arguments of `name`:
/// `(g, rest...)` or `(bg, Val(side), rest...)`; returns the remaining arguments.
fn graph_and_side<'a>(
    args: &'a Args,
    name: &str,
) -> Result<(&'a Graph, Option<Side>, &'a [Value]), Flow> {
    let graph = args.pos.first().and_then(graph_of).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("{name} takes an AdjacencyGraph or a BipartiteGraph first"),
        )
    })?;
    match graph {
        Graph::Adjacency(..) => Ok((graph, None, &args.pos[1..])),
        Graph::Bipartite(..) => {
            let side = match args.pos.get(1).and_then(super::markers::val_parameter) {
                Some("1") => Side::Rows,
                Some("2") => Side::Columns,
                _ => {
                    return Err(fail(
                        ErrorKind::MethodError,
                        format!("{name} of a BipartiteGraph takes the side next: Val(1) for rows, Val(2) for columns"),
                    ))
                }
            };
            Ok((graph, Some(side), &args.pos[2..]))
        }
    }
}

fn nvertices(graph: &Graph, side: Option<Side>) -> usize {
    match (graph, side) {
        (Graph::Adjacency(g, _), _) => g.nvertices(),
        (Graph::Bipartite(g, _), Some(side)) => g.nvertices(side),
        (Graph::Bipartite(..), None) => unreachable!("a bipartite graph comes with its side"),
    }
}

/// The 0-based vertex of the 1-based argument `v`.
fn vertex(graph: &Graph, side: Option<Side>, v: &Value, name: &str) -> Result<usize, Flow> {
    let k = to_int(v, name)?;
    let n = nvertices(graph, side);
    if k < 1 || k as usize > n {
        return Err(fail(
            ErrorKind::BoundsError,
            format!("{name}: vertex {k} of a side with {n} vertices"),
        ));
    }
    Ok(k as usize - 1)
}

/// A permutation of the 1-based vertices as 0-based indices (anything else as an index out of
/// range, which no order accepts).
fn permutation(v: &Value, name: &str) -> Result<Vec<usize>, Flow> {
    crate::value::iterate::elements(v)?
        .iter()
        .map(|k| {
            to_int(k, name).map(|k| usize::try_from(k.saturating_sub(1)).unwrap_or(usize::MAX))
        })
        .collect()
}

fn one_based(vertices: &[usize]) -> Value {
    int_vector(&vertices.iter().map(|v| v + 1).collect::<Vec<_>>())
}

fn nb_vertices_(_: &mut Interp, args: Args) -> EvalResult {
    let (graph, side, rest) = graph_and_side(&args, "nb_vertices")?;
    no_more(rest, "nb_vertices")?;
    Ok(Value::Int(nvertices(graph, side) as i64))
}

fn nb_edges_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("nb_edges", 1, 1)?;
    let graph = graph_of(&args.pos[0]).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            "nb_edges takes an AdjacencyGraph or a BipartiteGraph",
        )
    })?;
    Ok(Value::Int(match graph {
        Graph::Adjacency(g, _) => g.nedges(),
        Graph::Bipartite(g, _) => g.nedges(),
    } as i64))
}

fn no_more(rest: &[Value], name: &str) -> Result<(), Flow> {
    match rest {
        [] => Ok(()),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("{name}: too many arguments"),
        )),
    }
}

/// The single vertex argument of `neighbors`, `degree`, `degree_dist2`.
fn the_vertex(
    graph: &Graph,
    side: Option<Side>,
    rest: &[Value],
    name: &str,
) -> Result<usize, Flow> {
    match rest {
        [v] => vertex(graph, side, v, name),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("{name} takes a graph (with its side) and a vertex"),
        )),
    }
}

fn neighbors_(_: &mut Interp, args: Args) -> EvalResult {
    let (graph, side, rest) = graph_and_side(&args, "neighbors")?;
    let v = the_vertex(graph, side, rest, "neighbors")?;
    Ok(one_based(match (graph, side) {
        (Graph::Adjacency(g, _), _) => g.neighbors(v),
        (Graph::Bipartite(g, _), Some(side)) => g.neighbors(side, v),
        (Graph::Bipartite(..), None) => unreachable!("a bipartite graph comes with its side"),
    }))
}

fn degree_(_: &mut Interp, args: Args) -> EvalResult {
    let (graph, side, rest) = graph_and_side(&args, "degree")?;
    let v = the_vertex(graph, side, rest, "degree")?;
    Ok(Value::Int(match (graph, side) {
        (Graph::Adjacency(g, _), _) => g.degree(v),
        (Graph::Bipartite(g, _), Some(side)) => g.neighbors(side, v).len(),
        (Graph::Bipartite(..), None) => unreachable!("a bipartite graph comes with its side"),
    } as i64))
}

/// The degree of every vertex of the graph (of one side of a bipartite graph).
fn degrees(graph: &Graph, side: Option<Side>) -> Vec<usize> {
    let n = nvertices(graph, side);
    match (graph, side) {
        (Graph::Adjacency(g, _), _) => (0..n).map(|v| g.degree(v)).collect(),
        (Graph::Bipartite(g, _), Some(side)) => {
            (0..n).map(|v| g.neighbors(side, v).len()).collect()
        }
        (Graph::Bipartite(..), None) => unreachable!("a bipartite graph comes with its side"),
    }
}

/// `maximum_degree` and `minimum_degree`: the extreme degree, an error for a graph without
/// vertices (as `maximum` of an empty collection).
fn extreme_degree(args: &Args, name: &str, pick: fn(usize, usize) -> usize) -> EvalResult {
    let (graph, side, rest) = graph_and_side(args, name)?;
    no_more(rest, name)?;
    degrees(graph, side)
        .into_iter()
        .reduce(pick)
        .map(|d| Value::Int(d as i64))
        .ok_or_else(|| {
            fail(
                ErrorKind::ArgumentError,
                format!("{name} of a graph without vertices"),
            )
        })
}

fn maximum_degree_(_: &mut Interp, args: Args) -> EvalResult {
    extreme_degree(&args, "maximum_degree", usize::max)
}

fn minimum_degree_(_: &mut Interp, args: Args) -> EvalResult {
    extreme_degree(&args, "minimum_degree", usize::min)
}

fn degree_dist2_(_: &mut Interp, args: Args) -> EvalResult {
    let (graph, side, rest) = graph_and_side(&args, "degree_dist2")?;
    let v = the_vertex(graph, side, rest, "degree_dist2")?;
    match (graph, side) {
        (Graph::Bipartite(g, _), Some(side)) => Ok(Value::Int(g.degree_dist2(side, v) as i64)),
        _ => Err(fail(
            ErrorKind::MethodError,
            "degree_dist2 takes a BipartiteGraph, a side (Val(1) or Val(2)) and a vertex",
        )),
    }
}

fn vertices_(interp: &mut Interp, args: Args) -> EvalResult {
    let (graph, side, rest) = graph_and_side(&args, "vertices")?;
    let order = match rest {
        [] => Order::Natural,
        [order] => as_order(order)
            .ok_or_else(|| {
                fail(
                    ErrorKind::MethodError,
                    format!(
                        "vertices takes an order such as LargestFirst(), got {}",
                        crate::display::repr(order)
                    ),
                )
            })?
            .resolve(interp),
        _ => return Err(fail(ErrorKind::MethodError, "vertices: too many arguments")),
    };
    let vertices = match (graph, side) {
        (Graph::Adjacency(g, _), _) => g.vertices(order).map_err(graph_error)?,
        (Graph::Bipartite(g, _), Some(side)) => g.vertices(side, order),
        (Graph::Bipartite(..), None) => unreachable!("a bipartite graph comes with its side"),
    };
    Ok(one_based(&vertices))
}

fn partial_distance2_coloring_(_: &mut Interp, args: Args) -> EvalResult {
    let (graph, side, rest) = graph_and_side(&args, "partial_distance2_coloring")?;
    let (Graph::Bipartite(g, _), Some(side), [order]) = (graph, side, rest) else {
        return Err(fail(
            ErrorKind::MethodError,
            "partial_distance2_coloring takes a BipartiteGraph, a side (Val(1) or Val(2)) and the vertices in order",
        ));
    };
    let order = permutation(order, "partial_distance2_coloring")?;
    let colors = partial_distance2_colors(g, side, &order).map_err(graph_error)?;
    Ok(int_vector(&colors))
}

/// The stars or two-colored trees of one symmetric coloring run, as `star_coloring` and
/// `acyclic_coloring` return them beside the colors.
struct ColoredSets {
    kind: &'static str,
    count: usize,
}

impl Object for ColoredSets {
    fn type_name(&self) -> String {
        self.kind.into()
    }

    fn show(&self) -> String {
        let noun = if self.kind == "StarSet" {
            "star"
        } else {
            "tree"
        };
        let plural = if self.count == 1 { "" } else { "s" };
        format!("{} with {} {noun}{plural}", self.kind, self.count)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `star_coloring(ag, vertices, postprocessing)` and `acyclic_coloring(…)`.
fn symmetric_run(args: &Args, name: &str, substitution: bool) -> EvalResult {
    args.arity(name, 3, 3)?;
    let (Some(Graph::Adjacency(_, pattern)), Value::Bool(post)) =
        (graph_of(&args.pos[0]), &args.pos[2])
    else {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "{name} takes an AdjacencyGraph, the vertices in order and postprocessing (a Bool)"
            ),
        ));
    };
    let order = permutation(&args.pos[1], name)?;
    let (colors, count) =
        symmetric_colors(pattern, &order, substitution, *post).map_err(graph_error)?;
    let kind = if substitution { "TreeSet" } else { "StarSet" };
    Ok(Value::tuple(vec![
        int_vector(&colors),
        Value::object(ColoredSets { kind, count }),
    ]))
}

fn star_coloring_(_: &mut Interp, args: Args) -> EvalResult {
    symmetric_run(&args, "star_coloring", false)
}

fn acyclic_coloring_(_: &mut Interp, args: Args) -> EvalResult {
    symmetric_run(&args, "acyclic_coloring", true)
}

/// Whether matrix `a` may have the pattern of `graph` (SMC's coarse check before
/// decompressing into `a`): the same size, and for a sparse `a` as many stored entries as the
/// graph's pattern has (for a triangle `:L`/`:U` of an `AdjacencyGraph`'s, the entries of that
/// triangle).
fn compatible(args: &Args, name: &str) -> Result<(bool, &'static str), Flow> {
    let graph = args.pos.get(1).and_then(graph_of);
    let uplo = match (graph, args.pos.get(2)) {
        (Some(Graph::Bipartite(..)), None) => None,
        (Some(Graph::Adjacency(..)), Some(Value::Symbol(s))) if matches!(s.as_str(), "L" | "U" | "F") => Some(s.as_str()),
        _ => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("{name} takes a matrix and a BipartiteGraph, or a matrix, an AdjacencyGraph and uplo (:L, :U or :F)"),
            ))
        }
    };
    let pattern = graph.map(Graph::pattern).expect("checked above");
    let (stored, shape) = match &args.pos[0] {
        Value::Sparse(a) => {
            let a = a.borrow();
            (Some(a.matrix.nnz()), (a.matrix.rows(), a.matrix.cols()))
        }
        other => (None, matrix_shape(other, name)?),
    };
    let expected = match uplo {
        Some(tri @ ("L" | "U")) => pattern
            .entries()
            .filter(|&(i, j)| if tri == "L" { i >= j } else { i <= j })
            .count(),
        _ => pattern.nnz(),
    };
    let what = match uplo {
        None => "`A` and `bg.S2` must have the same sparsity pattern.",
        Some("L") => "`A` and `tril(ag.S)` must have the same sparsity pattern.",
        Some("U") => "`A` and `triu(ag.S)` must have the same sparsity pattern.",
        Some(_) => "`A` and `ag.S` must have the same sparsity pattern.",
    };
    Ok((
        shape == pattern.shape() && stored.is_none_or(|n| n == expected),
        what,
    ))
}

/// The size of a dense matrix argument.
fn matrix_shape(v: &Value, name: &str) -> Result<(usize, usize), Flow> {
    match crate::value::convert::operand(v)?
        .map(|o| o.tensor().shape().to_vec())
        .as_deref()
    {
        Some(&[m, n]) => Ok((m, n)),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("{name} takes a matrix first, got a {}", v.type_name()),
        )),
    }
}

fn compatible_pattern_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("compatible_pattern", 2, 3)?;
    Ok(Value::Bool(compatible(&args, "compatible_pattern")?.0))
}

fn check_compatible_pattern_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("check_compatible_pattern", 2, 3)?;
    match compatible(&args, "check_compatible_pattern")? {
        (true, _) => Ok(Value::Nothing),
        (false, what) => Err(fail(ErrorKind::DimensionMismatch, what)),
    }
}

/// The largest side `valid_dynamic_order` checks.
const MAX_CHECKED_VERTICES: usize = 20_000;

fn valid_dynamic_order_(_: &mut Interp, args: Args) -> EvalResult {
    let (graph, side, rest) = graph_and_side(&args, "valid_dynamic_order")?;
    let [pi, order] = rest else {
        return Err(fail(
            ErrorKind::MethodError,
            "valid_dynamic_order takes a graph (with its side), a permutation and a dynamic order",
        ));
    };
    let Some(spec) = as_order(order).and_then(|o| o.order.dynamic_spec()) else {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "valid_dynamic_order checks a DynamicDegreeBasedOrder, got {}",
                crate::display::repr(order)
            ),
        ));
    };
    // A test helper whose cost grows as the square of the vertices, like SMC's: beyond this
    // size it would run for seconds without answering an interrupt.
    let n = nvertices(graph, side);
    if n > MAX_CHECKED_VERTICES {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("valid_dynamic_order checks graphs of at most {MAX_CHECKED_VERTICES} vertices (its cost grows as their square), got {n}"),
        ));
    }
    let pi = permutation(pi, "valid_dynamic_order")?;
    Ok(Value::Bool(match (graph, side) {
        (Graph::Adjacency(g, _), _) => g.valid_dynamic_order(&pi, spec),
        (Graph::Bipartite(g, _), Some(side)) => g.valid_dynamic_order(side, &pi, spec),
        (Graph::Bipartite(..), None) => unreachable!("a bipartite graph comes with its side"),
    }))
}

crate::builtins! {
    "AdjacencyGraph" => adjacency_graph_, false, "    AdjacencyGraph(A; has_diagonal=true)\n\nThe graph star and acyclic coloring walk, as SparseMatrixColorings builds it from a square matrix: vertex `j` is adjacent to the rows stored in column `j`. `neighbors` lists column `j` as it is (its diagonal entry too); with `has_diagonal=true` the diagonal is not counted by `degree`. See `vertices`, `nb_vertices`, `nb_edges`.\n\n```\njulia> g = AdjacencyGraph(sparse([1 1 0; 1 1 1; 0 1 1]));\n\njulia> neighbors(g, 2), degree(g, 2), nb_edges(g)\n([1, 2, 3], 2, 2)\n```";
    "BipartiteGraph" => bipartite_graph_, false, "    BipartiteGraph(A; symmetric_pattern=false)\n\nThe graph of rows and columns column or row coloring walks: row `i` and column `j` are adjacent when `A[i, j]` is stored. Functions take the side next: `Val(1)` for rows, `Val(2)` for columns. `symmetric_pattern=true` (a structurally symmetric matrix) requires a square matrix.\n\n```\njulia> bg = BipartiteGraph(sparse([1 0 1; 0 1 1]));\n\njulia> neighbors(bg, Val(2), 3), degree_dist2(bg, Val(1), 1)\n([1, 2], 1)\n```";
    "nb_vertices" => nb_vertices_, false, "    nb_vertices(g)\n    nb_vertices(bg, Val(side))\n\nThe number of vertices of an `AdjacencyGraph`, or of one side of a `BipartiteGraph` (`Val(1)` rows, `Val(2)` columns).\n\n```\njulia> nb_vertices(BipartiteGraph(sparse([1 0 1; 0 1 1])), Val(2))\n3\n```";
    "nb_edges" => nb_edges_, false, "    nb_edges(g)\n\nThe number of edges: for an `AdjacencyGraph`, stored off-diagonal pairs `{i, j}` counted once; for a `BipartiteGraph`, stored entries.\n\n```\njulia> nb_edges(BipartiteGraph(sparse([1 0 1; 0 1 1])))\n4\n```";
    "neighbors" => neighbors_, false, "    neighbors(g, v)\n    neighbors(bg, Val(side), v)\n\nThe vertices adjacent to `v`: the rows stored in column `v` of an `AdjacencyGraph`'s matrix (its diagonal entry included), or the vertices of the other side of a `BipartiteGraph`.\n\n```\njulia> neighbors(BipartiteGraph(sparse([1 0 1; 0 1 1])), Val(1), 2)\n2-element Vector{Int64}:\n 2\n 3\n```";
    "degree" => degree_, false, "    degree(g, v)\n    degree(bg, Val(side), v)\n\nThe number of neighbors of vertex `v` (for an `AdjacencyGraph` with `has_diagonal=true`, without `v` itself).\n\n```\njulia> degree(AdjacencyGraph(sparse([1 1; 1 1])), 1)\n1\n```";
    "degree_dist2" => degree_dist2_, false, "    degree_dist2(bg, Val(side), v)\n\nThe distance-2 degree of vertex `v` of one side of a `BipartiteGraph`: how many other vertices of the same side share a neighbor with it (the degree column and row coloring orders use).\n\n```\njulia> degree_dist2(BipartiteGraph(sparse([1 1 0; 0 1 1])), Val(2), 2)\n2\n```";
    "vertices" => vertices_, false, "    vertices(g, [order])\n    vertices(bg, Val(side), [order])\n\nThe vertices of a graph (of one side of a `BipartiteGraph`) in `order` (`NaturalOrder()` by default; `LargestFirst()`, the dynamic orders, `PerfectEliminationOrder()`, `RandomOrder(...)`), the order greedy coloring visits them in. Dynamic orders and the perfect elimination order need a structurally symmetric matrix for an `AdjacencyGraph`.\n\n```\njulia> vertices(AdjacencyGraph(sparse([0 1 0 0; 1 0 1 1; 0 1 0 1; 0 1 1 0])), LargestFirst())\n4-element Vector{Int64}:\n 2\n 3\n 4\n 1\n```";
    "maximum_degree" => maximum_degree_, false, "    maximum_degree(g)\n    maximum_degree(bg, Val(side))\n\nThe largest `degree` of the vertices of an `AdjacencyGraph`, or of one side of a `BipartiteGraph` (`Val(1)` rows, `Val(2)` columns). See `minimum_degree`.\n\n```\njulia> bg = BipartiteGraph(sparse([1 1 1; 0 1 0]));\n\njulia> maximum_degree(bg, Val(1)), maximum_degree(bg, Val(2))\n(3, 2)\n```";
    "minimum_degree" => minimum_degree_, false, "    minimum_degree(g)\n    minimum_degree(bg, Val(side))\n\nThe smallest `degree` of the vertices of an `AdjacencyGraph`, or of one side of a `BipartiteGraph`. See `maximum_degree`.\n\n```\njulia> minimum_degree(AdjacencyGraph(sparse([1 1 0; 1 1 1; 0 1 1])))\n1\n```";
    "partial_distance2_coloring" => partial_distance2_coloring_, false, "    partial_distance2_coloring(bg, Val(side), vertices_in_order)\n\nOne greedy run of column (`Val(2)`) or row (`Val(1)`) coloring: the vertices of that side of a `BipartiteGraph` take, in the given order (a permutation), the smallest color not used by a vertex sharing a neighbor with them. Returns the colors (`1..`); `coloring` runs this for each order of its algorithm and keeps the best.\n\n```\njulia> bg = BipartiteGraph(sparse([1 1 0; 0 1 1]));\n\njulia> partial_distance2_coloring(bg, Val(2), vertices(bg, Val(2), NaturalOrder()))\n3-element Vector{Int64}:\n 1\n 2\n 1\n```";
    "star_coloring" => star_coloring_, false, "    star_coloring(ag, vertices_in_order, postprocessing)\n\nOne greedy run of star coloring of an `AdjacencyGraph` (a structurally symmetric pattern) in the given vertex order: every path on four vertices uses at least three colors, so each entry of the Hessian can be read directly. Returns the colors and the `StarSet` of two-colored stars; with `postprocessing=true`, vertices whose color decompression never reads get the neutral color 0. `coloring` with `decompression=:direct` runs this for each order.\n\n```\njulia> ag = AdjacencyGraph(sparse([1 1 0 0; 1 1 1 0; 0 1 1 1; 0 0 1 1]));\n\njulia> star_coloring(ag, vertices(ag, NaturalOrder()), false)\n([1, 2, 1, 3], StarSet with 2 stars)\n```";
    "acyclic_coloring" => acyclic_coloring_, false, "    acyclic_coloring(ag, vertices_in_order, postprocessing)\n\nOne greedy run of acyclic coloring of an `AdjacencyGraph` in the given vertex order: every cycle uses at least three colors, so the subgraph of any two colors is a forest, from which decompression recovers the Hessian by substitution. Returns the colors and the `TreeSet` of two-colored trees. `coloring` with `decompression=:substitution` runs this for each order.\n\n```\njulia> ag = AdjacencyGraph(sparse([1 1 0 0; 1 1 1 0; 0 1 1 1; 0 0 1 1]));\n\njulia> acyclic_coloring(ag, vertices(ag, NaturalOrder()), false)\n([1, 2, 1, 2], TreeSet with 1 tree)\n```";
    "compatible_pattern" => compatible_pattern_, false, "    compatible_pattern(A, bg)\n    compatible_pattern(A, ag, uplo)\n\nSparseMatrixColorings' coarse check that matrix `A` may have the pattern a graph was built from, before decompressing into it: the same size and, for a sparse `A`, as many stored entries as the pattern (for `uplo` `:L` or `:U`, as its lower or upper triangle). `false` means the patterns certainly differ; `true` does not prove they are equal.\n\n```\njulia> S = sparse([1 0 1; 0 1 1; 1 1 0]);\n\njulia> compatible_pattern(tril(S), AdjacencyGraph(S), :L), compatible_pattern(S, BipartiteGraph(S[:, 1:2]))\n(true, false)\n```";
    "check_compatible_pattern" => check_compatible_pattern_, false, "    check_compatible_pattern(A, bg)\n    check_compatible_pattern(A, ag, uplo)\n\n`compatible_pattern`, raising a `DimensionMismatch` that names the pattern when it fails.\n\n```\njulia> S = sparse([1 0; 1 1]);\n\njulia> check_compatible_pattern(S, BipartiteGraph(S))\n\njulia> check_compatible_pattern(S, BipartiteGraph(sparse([1 1; 1 1])))\nERROR: DimensionMismatch: `A` and `bg.S2` must have the same sparsity pattern.\n```";
    "valid_dynamic_order" => valid_dynamic_order_, false, "    valid_dynamic_order(g, π, order)\n    valid_dynamic_order(bg, Val(side), π, order)\n\nWhether the permutation `π` is one that the `DynamicDegreeBasedOrder` `order` may give: at every step the vertex placed has the largest (`:low2high`) or smallest (`:high2low`) tracked degree among the vertices still to place, as SparseMatrixColorings checks it (a test helper; on a bipartite side, degrees are distance-2 degrees).\n\n```\njulia> g = AdjacencyGraph(sparse([0 1 1; 1 0 0; 1 0 0]));\n\njulia> valid_dynamic_order(g, [1, 2, 3], DynamicLargestFirst()), valid_dynamic_order(g, [2, 3, 1], DynamicLargestFirst())\n(true, false)\n```";
}
