//! The graphs SparseMatrixColorings colors, for users who inspect orders and degrees:
//! `AdjacencyGraph(A; has_diagonal)` and `BipartiteGraph(A; symmetric_pattern)` with
//! `nb_vertices`, `nb_edges`, `neighbors`, `degree`, `degree_dist2`, `vertices` (in an order)
//! and `valid_dynamic_order`. Vertices are 1-based, as in Julia; a bipartite graph's side is
//! `Val(1)` (rows) or `Val(2)` (columns).

use super::coloring::{int_vector, pattern_and_matrix};
use super::coloring_orders::as_order;
use super::{to_int, Args};
use crate::error::ErrorKind;
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::object::Object;
use crate::value::Value;
use difflab_coloring::{BipartiteGraph, ColoringError, Order, PatternGraph, Side};
use std::any::Any;

/// A graph value.
enum Graph {
    Adjacency(PatternGraph),
    Bipartite(BipartiteGraph),
}

impl Object for Graph {
    fn type_name(&self) -> String {
        match self {
            Graph::Adjacency(_) => "AdjacencyGraph".into(),
            Graph::Bipartite(_) => "BipartiteGraph".into(),
        }
    }

    fn show(&self) -> String {
        match self {
            Graph::Adjacency(g) => format!(
                "AdjacencyGraph with {} vertices and {} edges",
                g.nvertices(),
                g.nedges()
            ),
            Graph::Bipartite(g) => format!(
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
    Ok(Value::object(Graph::Adjacency(graph)))
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
    Ok(Value::object(Graph::Bipartite(BipartiteGraph::new(
        &pattern,
    ))))
}

/// Whether `v` is an `AdjacencyGraph`.
pub fn is_adjacency_graph(v: &Value) -> bool {
    matches!(graph_of(v), Some(Graph::Adjacency(_)))
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
        Graph::Adjacency(_) => Ok((graph, None, &args.pos[1..])),
        Graph::Bipartite(_) => {
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
        (Graph::Adjacency(g), _) => g.nvertices(),
        (Graph::Bipartite(g), Some(side)) => g.nvertices(side),
        (Graph::Bipartite(_), None) => unreachable!("a bipartite graph comes with its side"),
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
    crate::eval::iterate::elements(v)?
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
        Graph::Adjacency(g) => g.nedges(),
        Graph::Bipartite(g) => g.nedges(),
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
        (Graph::Adjacency(g), _) => g.neighbors(v),
        (Graph::Bipartite(g), Some(side)) => g.neighbors(side, v),
        (Graph::Bipartite(_), None) => unreachable!("a bipartite graph comes with its side"),
    }))
}

fn degree_(_: &mut Interp, args: Args) -> EvalResult {
    let (graph, side, rest) = graph_and_side(&args, "degree")?;
    let v = the_vertex(graph, side, rest, "degree")?;
    Ok(Value::Int(match (graph, side) {
        (Graph::Adjacency(g), _) => g.degree(v),
        (Graph::Bipartite(g), Some(side)) => g.neighbors(side, v).len(),
        (Graph::Bipartite(_), None) => unreachable!("a bipartite graph comes with its side"),
    } as i64))
}

fn degree_dist2_(_: &mut Interp, args: Args) -> EvalResult {
    let (graph, side, rest) = graph_and_side(&args, "degree_dist2")?;
    let v = the_vertex(graph, side, rest, "degree_dist2")?;
    match (graph, side) {
        (Graph::Bipartite(g), Some(side)) => Ok(Value::Int(g.degree_dist2(side, v) as i64)),
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
        (Graph::Adjacency(g), _) => g.vertices(order).map_err(graph_error)?,
        (Graph::Bipartite(g), Some(side)) => g.vertices(side, order),
        (Graph::Bipartite(_), None) => unreachable!("a bipartite graph comes with its side"),
    };
    Ok(one_based(&vertices))
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
        (Graph::Adjacency(g), _) => g.valid_dynamic_order(&pi, spec),
        (Graph::Bipartite(g), Some(side)) => g.valid_dynamic_order(side, &pi, spec),
        (Graph::Bipartite(_), None) => unreachable!("a bipartite graph comes with its side"),
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
    "valid_dynamic_order" => valid_dynamic_order_, false, "    valid_dynamic_order(g, π, order)\n    valid_dynamic_order(bg, Val(side), π, order)\n\nWhether the permutation `π` is one that the `DynamicDegreeBasedOrder` `order` may give: at every step the vertex placed has the largest (`:low2high`) or smallest (`:high2low`) tracked degree among the vertices still to place, as SparseMatrixColorings checks it (a test helper; on a bipartite side, degrees are distance-2 degrees).\n\n```\njulia> g = AdjacencyGraph(sparse([0 1 1; 1 0 0; 1 0 0]));\n\njulia> valid_dynamic_order(g, [1, 2, 3], DynamicLargestFirst()), valid_dynamic_order(g, [2, 3, 1], DynamicLargestFirst())\n(true, false)\n```";
}
