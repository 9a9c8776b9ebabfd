//! Matrix coloring in the language (SparseMatrixColorings' interface over `difflab-coloring`):
//! `ColoringProblem`, `GreedyColoringAlgorithm` with its vertex orders, `coloring(A, problem,
//! algorithm)`, the result getters (`ncolors`, `column_colors`, `row_colors`, `column_groups`,
//! `row_groups`, `sparsity_pattern`), `compress` / `decompress` and `decompress_single_color!`.

use super::coloring_orders::OrderValue;
use super::sparse::sparse_value;
use super::{to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::show::ElType;
use crate::value::convert::operand;
use crate::value::Value;
use difflab_ad::shared_sparse::{IntoShared, SharedCsMat};
use difflab_ad::Tensor;
use difflab_coloring::{
    coloring, compress, compress_bidirectional, decompress, decompress_bidirectional,
    ColoringProblem, ColoringResult, Decompression, GreedyColoringAlgorithm, Order, Partition,
    SparsityPattern, Structure,
};
use ndarray::Array2;
use std::any::Any;

fn coloring_error(e: difflab_coloring::ColoringError) -> Flow {
    fail(ErrorKind::ArgumentError, e.to_string())
}

fn downcast<T: 'static>(v: &Value) -> Option<&T> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<T>(),
        _ => None,
    }
}

/// A coloring problem as a value.
pub struct ProblemValue(pub ColoringProblem);

impl Object for ProblemValue {
    fn type_name(&self) -> String {
        "ColoringProblem".into()
    }

    fn show(&self) -> String {
        let s = match self.0.structure {
            Structure::Nonsymmetric => "nonsymmetric",
            Structure::Symmetric => "symmetric",
        };
        let p = match self.0.partition {
            Partition::Column => "column",
            Partition::Row => "row",
            Partition::Bidirectional => "bidirectional",
        };
        format!("ColoringProblem{{:{s}, :{p}}}()")
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn symbol_kw<'a>(args: &'a Args, name: &str, default: &'a str) -> Result<&'a str, Flow> {
    symbol_or(args.kw(name), name, default)
}

/// The name of a symbol argument or keyword `v` called `name`, or `default` when absent.
pub(super) fn symbol_or<'a>(
    v: Option<&'a Value>,
    name: &str,
    default: &'a str,
) -> Result<&'a str, Flow> {
    match v {
        None => Ok(default),
        Some(Value::Symbol(s)) => Ok(s.as_str()),
        Some(other) => Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "{name} must be a symbol, got {}",
                crate::display::repr(other)
            ),
        )),
    }
}

fn problem_(_: &mut Interp, args: Args) -> EvalResult {
    args.keywords("ColoringProblem", &["structure", "partition"])?;
    // `ColoringProblem{:symmetric, :column}()` passes the parameters positionally.
    let positional: Vec<&str> = args
        .pos
        .iter()
        .filter_map(|v| {
            if let Value::Symbol(s) = v {
                Some(s.as_str())
            } else {
                None
            }
        })
        .collect();
    let structure = match positional
        .first()
        .copied()
        .map_or_else(|| symbol_kw(&args, "structure", "nonsymmetric"), Ok)?
    {
        "nonsymmetric" => Structure::Nonsymmetric,
        "symmetric" => Structure::Symmetric,
        other => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("structure must be :nonsymmetric or :symmetric, got :{other}"),
            ))
        }
    };
    let partition = match positional
        .get(1)
        .copied()
        .map_or_else(|| symbol_kw(&args, "partition", "column"), Ok)?
    {
        "column" => Partition::Column,
        "row" => Partition::Row,
        "bidirectional" => Partition::Bidirectional,
        other => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("partition must be :column, :row or :bidirectional, got :{other}"),
            ))
        }
    };
    Ok(Value::object(ProblemValue(
        ColoringProblem::new(structure, partition).map_err(coloring_error)?,
    )))
}

/// A greedy coloring algorithm as a value, with the order values it was given (a random
/// order keeps its generator and seed, as SparseMatrixColorings' algorithm keeps its orders).
pub struct AlgorithmValue(pub GreedyColoringAlgorithm, Vec<Value>);

impl AlgorithmValue {
    /// The value of `algorithm`, its orders shown from the algorithm itself.
    pub fn new(algorithm: GreedyColoringAlgorithm) -> AlgorithmValue {
        let orders = algorithm
            .orders
            .iter()
            .map(|o| Value::object(OrderValue::new(*o)))
            .collect();
        AlgorithmValue(algorithm, orders)
    }
}

impl Object for AlgorithmValue {
    fn type_name(&self) -> String {
        "GreedyColoringAlgorithm".into()
    }

    fn show(&self) -> String {
        let orders: Vec<String> = self.1.iter().map(crate::display::repr).collect();
        let order = if orders.len() == 1 {
            orders[0].clone()
        } else {
            format!("({})", orders.join(", "))
        };
        let d = match self.0.decompression {
            Decompression::Direct => "direct",
            Decompression::Substitution => "substitution",
        };
        format!(
            "GreedyColoringAlgorithm{{:{d}}}({order}; postprocessing={})",
            self.0.postprocessing
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "orders" => Some(Value::tuple(self.1.clone())),
            "postprocessing" => Some(Value::Bool(self.0.postprocessing)),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["orders", "postprocessing"]
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn algorithm_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("GreedyColoringAlgorithm", 0, 2)?;
    args.keywords(
        "GreedyColoringAlgorithm",
        &["decompression", "postprocessing"],
    )?;
    let mut orders = Vec::new();
    let mut order_values = Vec::new();
    let mut decompression = Decompression::Direct;
    for v in &args.pos {
        match v {
            Value::Symbol(s) if s.as_str() == "substitution" => {
                decompression = Decompression::Substitution
            }
            Value::Symbol(s) if s.as_str() == "direct" => decompression = Decompression::Direct,
            Value::Tuple(items) => {
                for o in items.iter() {
                    orders.push(
                        downcast::<OrderValue>(o)
                            .ok_or_else(|| {
                                fail(
                                    ErrorKind::ArgumentError,
                                    "a tuple of orders must hold orders such as LargestFirst()",
                                )
                            })?
                            .resolve(interp),
                    );
                    order_values.push(o.clone());
                }
            }
            other => {
                order_values.push(other.clone());
                orders.push(
                    downcast::<OrderValue>(other)
                        .ok_or_else(|| {
                            fail(
                                ErrorKind::ArgumentError,
                                format!(
                                    "expected an order such as NaturalOrder(), got {}",
                                    crate::display::repr(other)
                                ),
                            )
                        })?
                        .resolve(interp),
                )
            }
        }
    }
    decompression = match symbol_kw(
        &args,
        "decompression",
        match decompression {
            Decompression::Direct => "direct",
            Decompression::Substitution => "substitution",
        },
    )? {
        "direct" => Decompression::Direct,
        "substitution" => Decompression::Substitution,
        other => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("decompression must be :direct or :substitution, got :{other}"),
            ))
        }
    };
    let postprocessing = matches!(args.kw("postprocessing"), Some(Value::Bool(true)));
    if orders.is_empty() {
        orders.push(Order::Natural);
        order_values.push(Value::object(OrderValue::new(Order::Natural)));
    }
    Ok(Value::object(AlgorithmValue(
        GreedyColoringAlgorithm::with_orders(orders)
            .decompression(decompression)
            .postprocessing(postprocessing),
        order_values,
    )))
}

/// A coloring result with the matrix it was computed for.
pub struct ResultValue {
    /// The coloring.
    pub result: ColoringResult,
    /// The colored matrix (sparse or dense), as given.
    pub matrix: Value,
}

pub(super) fn int_vector(v: &[usize]) -> Value {
    super::array(
        ElType::Int64,
        &[v.len()],
        v.iter().map(|&c| c as f64).collect(),
    )
}

/// Groups of 0-based indices as a vector of 1-based index vectors, as SMC's `column_groups`.
pub(crate) fn groups(g: &[Vec<usize>]) -> Value {
    Value::list(
        g.iter()
            .map(|grp| int_vector(&grp.iter().map(|k| k + 1).collect::<Vec<_>>()))
            .collect(),
    )
}

impl Object for ResultValue {
    fn type_name(&self) -> String {
        "ColoringResult".into()
    }

    fn show(&self) -> String {
        let (m, n) = self.result.pattern().shape();
        format!(
            "ColoringResult with {} colors for a {m}×{n} matrix ({}, {})",
            self.result.ncolors(),
            ProblemValue(self.result.problem()).show(),
            AlgorithmValue::new(self.result.algorithm().clone()).show()
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "ncolors" => Some(Value::Int(self.result.ncolors() as i64)),
            "column_colors" => self.result.column_colors().map(int_vector),
            "row_colors" => self.result.row_colors().map(int_vector),
            "column_groups" => self.result.column_groups().map(groups),
            "row_groups" => self.result.row_groups().map(groups),
            "colors" => self
                .result
                .column_colors()
                .or(self.result.row_colors())
                .map(int_vector),
            "matrix" | "sparsity_pattern" => Some(self.matrix.clone()),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec![
            "ncolors",
            "colors",
            "column_colors",
            "row_colors",
            "column_groups",
            "row_groups",
            "sparsity_pattern",
        ]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The sparsity pattern and values of a sparse or dense matrix value.
pub(super) fn pattern_and_matrix(v: &Value) -> Result<(SparsityPattern, SharedCsMat), Flow> {
    let matrix = match v {
        Value::Sparse(s) => s.borrow().matrix.clone(),
        other => {
            let o = operand(other)?.ok_or_else(|| {
                fail(
                    ErrorKind::MethodError,
                    format!("coloring needs a matrix, got a {}", other.type_name()),
                )
            })?;
            let t = o.tensor();
            let [m, n] = t.shape() else {
                return Err(fail(ErrorKind::ArgumentError, "coloring needs a matrix"));
            };
            let (m, n) = (*m, *n);
            let data = t.to_col_major();
            let mut tri = sprs::TriMat::new((m, n));
            for (k, &x) in data.iter().enumerate() {
                if x != 0.0 {
                    tri.add_triplet(k % m, k / m, x);
                }
            }
            tri.to_csc().into_shared()
        }
    };
    Ok((SparsityPattern::from_csmat(&matrix), matrix))
}

fn coloring_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("coloring", 3, 3)?;
    args.keywords("coloring", &["decompression_eltype", "symmetric_pattern"])?;
    // Decompression writes `Float64`s, the only floats; a symmetric pattern is a promise
    // SparseMatrixColorings uses to skip a transpose, which the coloring here never needs.
    match args.kw("decompression_eltype") {
        None => {}
        Some(Value::Builtin(b)) if matches!(b.name, "Float64" | "Real" | "Number") => {}
        Some(other) => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "decompression_eltype must be Float64 (the only float type), got {}",
                    crate::display::repr(other)
                ),
            ))
        }
    }
    if let Some(v) = args.kw("symmetric_pattern") {
        if !matches!(v, Value::Bool(_)) {
            return Err(fail(
                ErrorKind::TypeError,
                format!("symmetric_pattern must be a Bool, got a {}", v.type_name()),
            ));
        }
    }
    colored(&args.pos[0], &args.pos[1], &args.pos[2])
}

/// `coloring(matrix, problem, algorithm)` once the arguments are checked.
fn colored(matrix: &Value, problem: &Value, algorithm: &Value) -> EvalResult {
    let (pattern, _) = pattern_and_matrix(matrix)?;
    let problem = downcast::<ProblemValue>(problem)
        .ok_or_else(|| {
            fail(
                ErrorKind::ArgumentError,
                "the second argument must be a ColoringProblem",
            )
        })?
        .0;
    let result = match (
        super::coloring_constant::as_constant(algorithm),
        super::coloring_optimal::as_optimal(algorithm),
    ) {
        (Some(constant), _) => super::coloring_constant::colored(&pattern, problem, constant)?,
        (_, Some(optimal)) => super::coloring_optimal::colored(&pattern, problem, optimal)?,
        _ => {
            let algorithm = &downcast::<AlgorithmValue>(algorithm)
                .ok_or_else(|| {
                    fail(
                        ErrorKind::ArgumentError,
                        "the third argument must be a GreedyColoringAlgorithm, a ConstantColoringAlgorithm or an OptimalColoringAlgorithm",
                    )
                })?
                .0;
            coloring(&pattern, problem, algorithm).map_err(coloring_error)?
        }
    };
    Ok(Value::object(ResultValue {
        result,
        matrix: matrix.clone(),
    }))
}

/// ADTypes' entry points (`column_coloring(A, algorithm)`, …): the colors alone.
macro_rules! adtypes_colorings {
    ($($fname:ident, $name:literal, $structure:ident, $partition:ident, $colors:ident;)*) => {
        $(fn $fname(_: &mut Interp, args: Args) -> EvalResult {
            args.arity($name, 2, 2)?;
            let problem = Value::object(ProblemValue(ColoringProblem {
                structure: Structure::$structure,
                partition: Partition::$partition,
            }));
            let result = colored(&args.pos[0], &problem, &args.pos[1])?;
            let colors = the_result(&result, $name)?.result.$colors();
            Ok(int_vector(colors.expect("a one-sided coloring has these colors")))
        })*
    };
}

adtypes_colorings! {
    column_coloring_, "column_coloring", Nonsymmetric, Column, column_colors;
    row_coloring_, "row_coloring", Nonsymmetric, Row, row_colors;
    symmetric_coloring_, "symmetric_coloring", Symmetric, Column, column_colors;
}

fn the_result<'a>(v: &'a Value, name: &str) -> Result<&'a ResultValue, Flow> {
    downcast::<ResultValue>(v).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        )
    })
}

macro_rules! getters {
    ($($fname:ident => $field:literal),*) => {
        $(fn $fname(_: &mut Interp, args: Args) -> EvalResult {
            args.arity($field, 1, 1)?;
            // Coloring results and sparse preparations both answer these.
            let Value::Object(o) = &args.pos[0] else {
                return Err(fail(ErrorKind::MethodError, format!("no method matching {}(::{})", $field, args.pos[0].type_name())));
            };
            o.field($field).ok_or_else(|| {
                fail(ErrorKind::ArgumentError, format!("{} is not defined for this coloring (see its partition)", $field))
            })
        })*
    };
}

getters!(ncolors_ => "ncolors", column_colors_ => "column_colors", row_colors_ => "row_colors", column_groups_ => "column_groups", row_groups_ => "row_groups", sparsity_pattern_ => "sparsity_pattern");

fn dense(a: Array2<f64>) -> Value {
    let (m, n) = a.dim();
    let data = a.t().iter().copied().collect();
    super::array(ElType::Float64, &[m, n], data)
}

fn compress_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("compress", 2, 2)?;
    let r = &the_result(&args.pos[1], "compress")?.result;
    let (_, matrix) = pattern_and_matrix(&args.pos[0])?;
    if r.problem().partition == Partition::Bidirectional {
        let (br, bc) = compress_bidirectional(&matrix, r).map_err(coloring_error)?;
        return Ok(Value::tuple(vec![dense(br), dense(bc)]));
    }
    Ok(dense(compress(&matrix, r).map_err(coloring_error)?))
}

pub(super) fn matrix2(v: &Value) -> Result<Array2<f64>, Flow> {
    let o = operand(v)?.ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            "decompress needs a compressed matrix",
        )
    })?;
    let t = o.tensor();
    let (m, n) = match t.shape() {
        [m, n] => (*m, *n),
        [m] => (*m, 1),
        _ => return Err(fail(ErrorKind::ArgumentError, "decompress needs a matrix")),
    };
    Array2::from_shape_vec((n, m), t.to_col_major())
        .map(|a| a.reversed_axes())
        .map_err(|e| fail(ErrorKind::ArgumentError, e.to_string()))
}

/// The matrix recovered from the compressed `parts` (`B`, or `Br, Bc`) with `result`.
fn recovered(parts: &[Value], result: &ColoringResult) -> Result<sprs::CsMat<f64>, Flow> {
    let out = match parts {
        [b] => decompress(matrix2(b)?.view(), result),
        [br, bc] => decompress_bidirectional(matrix2(br)?.view(), matrix2(bc)?.view(), result),
        _ => unreachable!("arity checked"),
    };
    out.map_err(coloring_error)
}

fn decompress_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("decompress", 2, 3)?;
    let (result, parts) = args.pos.split_last().expect("arity");
    if let (Some(system), [b]) = (super::coloring_linear::as_linear_system(result), parts) {
        return system.decompress(&matrix2(b)?);
    }
    let r = &the_result(result, "decompress")?.result;
    Ok(sparse_value(recovered(parts, r)?, ElType::Float64))
}

/// Which part of a symmetric matrix `decompress!` writes (SparseMatrixColorings' `uplo`).
#[derive(Clone, Copy, PartialEq)]
enum Triangle {
    Upper,
    Lower,
    Full,
}

impl Triangle {
    fn keeps(self, i: usize, j: usize) -> bool {
        match self {
            Triangle::Upper => i <= j,
            Triangle::Lower => i >= j,
            Triangle::Full => true,
        }
    }
}

/// The trailing `uplo` symbol of `decompress!(A, B, result, uplo)`, when `args` end with one.
fn triangle_of(v: &Value) -> Option<Result<Triangle, Flow>> {
    let Value::Symbol(s) = v else { return None };
    Some(match s.as_str() {
        "U" => Ok(Triangle::Upper),
        "L" => Ok(Triangle::Lower),
        "F" => Ok(Triangle::Full),
        other => Err(fail(
            ErrorKind::ArgumentError,
            format!("decompress!: uplo must be :U, :L or :F, got :{other}"),
        )),
    })
}

/// `decompress!(A, B, result[, uplo])`: writes the recovered matrix into `A`, a sparse matrix
/// with the colored pattern (its stored values are overwritten in place) or a dense matrix.
/// For a symmetric result, `uplo` (`:U`, `:L`) restricts it to one triangle, which a sparse
/// `A` then has as its pattern.
fn decompress_in_place(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("decompress!", 3, 4)?;
    let (target, mut rest) = args.pos.split_first().expect("arity");
    if let (Some(system), [b, _]) = (
        super::coloring_linear::as_linear_system(&rest[rest.len() - 1]),
        rest,
    ) {
        write_recovered(target, &system.recover(&matrix2(b)?)?)?;
        return Ok(target.clone());
    }
    let triangle = match rest.last().and_then(triangle_of) {
        Some(t) => {
            rest = &rest[..rest.len() - 1];
            Some(t?)
        }
        None => None,
    };
    let Some((result, parts)) = rest.split_last().filter(|(_, parts)| !parts.is_empty()) else {
        return Err(fail(
            ErrorKind::MethodError,
            "decompress! takes (A, B, result[, uplo]) or (A, Br, Bc, result)",
        ));
    };
    let r = &the_result(result, "decompress!")?.result;
    if triangle.is_some() && r.problem().structure != Structure::Symmetric {
        return Err(fail(
            ErrorKind::MethodError,
            "decompress!: uplo (:U, :L, :F) applies to symmetric colorings only",
        ));
    }
    let triangle = triangle.unwrap_or(Triangle::Full);
    let full = recovered(parts, r)?;
    let m = if triangle == Triangle::Full {
        full
    } else {
        let mut kept = sprs::TriMat::new(full.shape());
        for (&v, (i, j)) in full.iter() {
            if triangle.keeps(i, j) {
                kept.add_triplet(i, j, v);
            }
        }
        kept.to_csc()
    };
    write_recovered(target, &m)?;
    Ok(target.clone())
}

/// Writes the recovered matrix `m` into `target` for `decompress!`: a sparse target must have
/// `m`'s pattern (its values are overwritten in place), a dense one `m`'s size (zeros
/// elsewhere).
pub(super) fn write_recovered(target: &Value, m: &sprs::CsMat<f64>) -> Result<(), Flow> {
    match target {
        Value::Sparse(a) => {
            let mut a = a.borrow_mut();
            let same_pattern = a.matrix.is_csc()
                && a.matrix.shape() == m.shape()
                && a.matrix.indptr().raw_storage() == m.indptr().raw_storage()
                && a.matrix.indices() == m.indices();
            if !same_pattern {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    "decompress!: the sparse target must have the sparsity pattern that was colored (its upper or lower triangle with uplo :U or :L), e.g. sparsity_pattern(result) converted to Float64, or a matrix made by decompress",
                ));
            }
            a.matrix.data_mut().copy_from_slice(m.data());
            a.eltype = ElType::Float64;
        }
        Value::Array(a) => {
            let mut a = a.borrow_mut();
            if a.data.shape() != [m.rows(), m.cols()] {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!(
                        "decompress!: the target has size {:?}, the recovered matrix {}×{}",
                        a.data.shape(),
                        m.rows(),
                        m.cols()
                    ),
                ));
            }
            let mut data = vec![0.0; m.rows() * m.cols()];
            for (v, (i, j)) in m.iter() {
                data[i + j * m.rows()] = *v;
            }
            a.data = Tensor::from_col_major(&[m.rows(), m.cols()], data);
            a.eltype = ElType::Float64;
        }
        other => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching decompress!(::{}, …)", other.type_name()),
            ))
        }
    }
    Ok(())
}

/// The entries of `pattern` in `triangle`.
fn triangle_pattern(
    pattern: &SparsityPattern,
    triangle: Triangle,
) -> Result<SparsityPattern, Flow> {
    if triangle == Triangle::Full {
        return Ok(pattern.clone());
    }
    let (m, n) = pattern.shape();
    let kept: Vec<(usize, usize)> = pattern
        .entries()
        .filter(|&(i, j)| triangle.keeps(i, j))
        .collect();
    SparsityPattern::from_entries(m, n, &kept).map_err(coloring_error)
}

/// `decompress_single_color!(A, b, c, result[, uplo])`: writes into `A` the entries that
/// color `c` recovers from `b`, the compressed column (or row) of that color, and leaves the
/// others alone. Column, row and symmetric colorings for direct decompression (there each
/// entry is read from exactly one color); `uplo` restricts a symmetric one to a triangle.
fn decompress_single_color_(_: &mut Interp, args: Args) -> EvalResult {
    const NAME: &str = "decompress_single_color!";
    args.arity(NAME, 4, 5)?;
    let [target, b, c, result] = &args.pos[..4] else {
        unreachable!("arity checked")
    };
    let triangle = match args.pos.get(4) {
        None => Triangle::Full,
        Some(v) => triangle_of(v).unwrap_or_else(|| {
            Err(fail(
                ErrorKind::ArgumentError,
                format!("{NAME}: uplo must be :U, :L or :F"),
            ))
        })?,
    };
    let r = &the_result(result, NAME)?.result;
    let pattern = r.pattern();
    let c = to_int(c, NAME)?;
    if c < 1 || c as usize > r.ncolors() {
        return Err(fail(
            ErrorKind::BoundsError,
            format!("{NAME}: color {c} is not in 1:{}", r.ncolors()),
        ));
    }
    let problem = r.problem();
    if triangle != Triangle::Full && problem.structure != Structure::Symmetric {
        return Err(fail(
            ErrorKind::MethodError,
            format!("{NAME}: uplo (:U, :L, :F) applies to symmetric colorings only"),
        ));
    }
    // The library numbers colors from 1, as SparseMatrixColorings does.
    let Some(recovered) = r.entries_of_color(c as usize) else {
        return Err(match problem.structure {
            Structure::Symmetric => fail(
                ErrorKind::UnsupportedDecompressionError,
                format!("{NAME}: a coloring for decompression by substitution recovers each entry from several colors; decompress! recovers them all"),
            ),
            Structure::Nonsymmetric => fail(
                ErrorKind::ArgumentError,
                format!("{NAME}: a bidirectional coloring recovers entries from a row and a column color together; decompress! recovers them"),
            ),
        });
    };
    let b = matrix2(b)?;
    let (m, n) = pattern.shape();
    let expected = if problem.partition == Partition::Row {
        n
    } else {
        m
    };
    if b.len() != expected {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "{NAME}: the compressed vector has length {}, expected {expected}",
                b.len()
            ),
        ));
    }
    let b: Vec<f64> = b.iter().copied().collect();
    let cells: Vec<(usize, usize)> = pattern.entries().collect();
    // (row, column, value) of every entry this color recovers, in the triangle asked for.
    let entries: Vec<(usize, usize, f64)> = recovered
        .iter()
        .map(|&(k, index)| (cells[k].0, cells[k].1, b[index]))
        .filter(|&(i, j, _)| triangle.keeps(i, j))
        .collect();
    match target {
        Value::Sparse(a) => {
            let kept = triangle_pattern(pattern, triangle)?;
            let mut a = a.borrow_mut();
            if !has_pattern(&a.matrix, &kept) {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!(
                        "{NAME}: the sparse target must have the sparsity pattern that was colored (its upper or lower triangle with uplo :U or :L)"
                    ),
                ));
            }
            let data = a.matrix.data_mut();
            for &(i, j, v) in &entries {
                data[kept.position(i, j).expect("an entry of the kept pattern")] = v;
            }
            if a.eltype == ElType::Bool {
                a.eltype = ElType::Float64;
            }
        }
        Value::Array(a) => {
            let mut a = a.borrow_mut();
            if a.data.shape() != [m, n] {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!(
                        "{NAME}: the target has size {:?}, the pattern {m}×{n}",
                        a.data.shape()
                    ),
                ));
            }
            let mut data = a.data.to_col_major();
            for &(i, j, v) in &entries {
                data[i + j * m] = v;
            }
            a.data = Tensor::from_col_major(&[m, n], data);
            a.eltype = ElType::Float64;
        }
        other => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching {NAME}(::{}, …)", other.type_name()),
            ))
        }
    }
    Ok(target.clone())
}

fn has_pattern(a: &SharedCsMat, pattern: &SparsityPattern) -> bool {
    a.is_csc()
        && a.shape() == pattern.shape()
        && a.indptr().raw_storage() == pattern.colptr()
        && a.indices() == pattern.rowval()
}

crate::builtins! {
    "ColoringProblem" => problem_, false, "    ColoringProblem(; structure=:nonsymmetric, partition=:column)\n    ColoringProblem{structure, partition}()\n\nWhat to color: the columns (`:column`, forward-mode Jacobians), rows (`:row`, reverse mode) or both (`:bidirectional`) of a nonsymmetric matrix, or the columns of a symmetric one (`structure=:symmetric`, Hessians).\n\n```\njulia> ColoringProblem(; structure=:symmetric, partition=:column)\nColoringProblem{:symmetric, :column}()\n```";
    "GreedyColoringAlgorithm" => algorithm_, false, "    GreedyColoringAlgorithm(order=NaturalOrder(); decompression=:direct, postprocessing=false)\n\nGreedy coloring visiting vertices in `order` (a tuple of orders: try each, keep the fewest colors). For symmetric problems `:direct` means star coloring and `:substitution` acyclic coloring (fewer colors, triangular solves to decompress). `postprocessing` turns unused colors neutral.\n\n```\njulia> GreedyColoringAlgorithm(LargestFirst(); decompression=:substitution)\nGreedyColoringAlgorithm{:substitution}(LargestFirst(); postprocessing=false)\n```";
    "coloring" => coloring_, false, "    coloring(A, problem, algorithm)\n\nColors the rows and/or columns of the sparse or dense matrix `A` so that groups of the same color can be compressed into one column (one directional derivative) and recovered exactly.\n\n```\njulia> A = sparse([1, 2, 3, 3], [1, 2, 1, 3], ones(4), 3, 3);\n\njulia> r = coloring(A, ColoringProblem(), GreedyColoringAlgorithm());\n\njulia> column_colors(r)\n3-element Vector{Int64}:\n 1\n 1\n 2\n```";
    "ncolors" => ncolors_, false, "    ncolors(result)\n\nThe number of colors (row plus column colors for bidirectional problems).\n\n```\njulia> A = sparse([1.0 1.0 0.0; 0.0 1.0 1.0]);\n\njulia> ncolors(coloring(A, ColoringProblem(), GreedyColoringAlgorithm()))\n2\n```";
    "column_colors" => column_colors_, false, "    column_colors(result)\n\nThe color of each column (0 = neutral after post-processing).\n\n```\njulia> r = coloring(sparse([1.0 0.0 1.0; 0.0 1.0 0.0]), ColoringProblem(), GreedyColoringAlgorithm());\n\njulia> column_colors(r)\n3-element Vector{Int64}:\n 1\n 1\n 2\n```";
    "row_colors" => row_colors_, false, "    row_colors(result)\n\nThe color of each row.\n\n```\njulia> A = sparse([1.0 0.0; 1.0 1.0; 0.0 1.0]);\n\njulia> row_colors(coloring(A, ColoringProblem(; partition=:row), GreedyColoringAlgorithm()))\n3-element Vector{Int64}:\n 1\n 2\n 1\n```";
    "column_groups" => column_groups_, false, "    column_groups(result)\n\nThe columns of each color, as vectors of indices.\n\n```\njulia> r = coloring(sparse([1.0 0.0 1.0; 0.0 1.0 0.0]), ColoringProblem(), GreedyColoringAlgorithm());\n\njulia> column_groups(r)\n2-element Vector{Vector{Int64}}:\n [1, 2]\n [3]\n```";
    "row_groups" => row_groups_, false, "    row_groups(result)\n\nThe rows of each color.\n\n```\njulia> r = coloring(sparse([1.0 0.0; 1.0 1.0; 0.0 1.0]), ColoringProblem(; partition=:row), GreedyColoringAlgorithm());\n\njulia> row_groups(r)\n2-element Vector{Vector{Int64}}:\n [1, 3]\n [2]\n```";
    "sparsity_pattern" => sparsity_pattern_, false, "    sparsity_pattern(result)\n\nThe matrix the coloring was computed for.\n\n```\njulia> r = coloring(sparse([1.0 0.0; 0.0 2.0]), ColoringProblem(), GreedyColoringAlgorithm());\n\njulia> sparsity_pattern(r)\n2×2 SparseMatrixCSC{Float64, Int64} with 2 stored entries:\n 1.0   ⋅\n  ⋅   2.0\n```";
    "compress" => compress_, false, "    compress(A, result)\n\nSums the columns (or rows) of each color: one column per color. For bidirectional results, `(Br, Bc)`.\n\n```\njulia> A = sparse([1.0 0.0 3.0; 0.0 2.0 0.0]); r = coloring(A, ColoringProblem(), GreedyColoringAlgorithm());\n\njulia> B = compress(A, r)\n2×2 Matrix{Float64}:\n 1.0  3.0\n 2.0  0.0\n```";
    "decompress!" => decompress_in_place, false, "    decompress!(A, B, result[, uplo])\n    decompress!(A, Br, Bc, result)\n\nLike `decompress`, but writes the recovered matrix into `A` and returns it: a sparse `A` must have the colored pattern (its stored values are overwritten in place, so a loop reuses one matrix), a dense `A` is filled with zeros elsewhere. For a symmetric coloring, `uplo` `:U` or `:L` recovers only the upper or lower triangle (a sparse `A` then has that triangle's pattern, as `triu(A)` gives it); `:F`, the default, the whole matrix.\n\n```\njulia> A = sparse([1, 2, 3, 3], [1, 2, 1, 3], [1.0, 2.0, 3.0, 4.0], 3, 3);\n\njulia> r = coloring(A, ColoringProblem(), GreedyColoringAlgorithm());\n\njulia> C = zeros(3, 3); decompress!(C, compress(A, r), r) == Matrix(A)\ntrue\n\njulia> H = sparse([2.0 1.0; 1.0 3.0]); s = coloring(H, ColoringProblem(; structure=:symmetric), GreedyColoringAlgorithm());\n\njulia> decompress!(zeros(2, 2), compress(H, s), s, :U)\n2×2 Matrix{Float64}:\n 2.0  1.0\n 0.0  3.0\n```";
    "decompress_single_color!" => decompress_single_color_, false, "    decompress_single_color!(A, b, c, result[, uplo])\n\nWrites into `A` the entries of color `c` recovered from `b`, the compressed column (column and symmetric colorings) or row (row coloring) of that color, and returns `A`; the other entries are left as they were. `A` is a sparse matrix with the colored pattern or a dense matrix. For a symmetric coloring, `uplo` `:U` or `:L` writes one triangle only (a sparse `A` then has that triangle's pattern). Colorings for decompression by substitution recover entries from several colors at once: an `UnsupportedDecompressionError`.\n\n```\njulia> A = sparse([1, 2, 3, 3], [1, 2, 1, 3], [1.0, 2.0, 3.0, 4.0], 3, 3);\n\njulia> r = coloring(A, ColoringProblem(), GreedyColoringAlgorithm());\n\njulia> C = zeros(3, 3); decompress_single_color!(C, compress(A, r)[:, 2], 2, r)\n3×3 Matrix{Float64}:\n 0.0  0.0  0.0\n 0.0  0.0  0.0\n 0.0  0.0  4.0\n```";
    "column_coloring" => column_coloring_, false, "    column_coloring(A, algorithm)\n\nADTypes' column coloring of `A` (the colors of `coloring(A, ColoringProblem(), algorithm)`): columns of one color share no row, so one Jacobian-vector product gives them all.\n\n```\njulia> column_coloring(sparse([1.0 1 0; 0 0 1]), GreedyColoringAlgorithm())\n3-element Vector{Int64}:\n 1\n 2\n 1\n```";
    "row_coloring" => row_coloring_, false, "    row_coloring(A, algorithm)\n\nADTypes' row coloring of `A`: rows of one color share no column, so one vector-Jacobian product gives them all.\n\n```\njulia> row_coloring(sparse([1.0 0; 1 0; 0 1]), GreedyColoringAlgorithm())\n3-element Vector{Int64}:\n 1\n 2\n 1\n```";
    "symmetric_coloring" => symmetric_coloring_, false, "    symmetric_coloring(A, algorithm)\n\nADTypes' symmetric (star) coloring of the symmetric matrix `A`, for Hessians: the colors of `coloring(A, ColoringProblem(; structure=:symmetric, partition=:column), algorithm)`.\n\n```\njulia> symmetric_coloring(sparse([1.0 1 0; 1 1 1; 0 1 1]), GreedyColoringAlgorithm())\n3-element Vector{Int64}:\n 1\n 2\n 1\n```";
    "decompress" => decompress_, false, "    decompress(B, result)\n    decompress(Br, Bc, result)\n\nRecovers the sparse matrix from its compressed form.\n\n```\njulia> A = sparse([1.0 0.0 3.0; 0.0 2.0 0.0]); r = coloring(A, ColoringProblem(), GreedyColoringAlgorithm());\n\njulia> decompress(compress(A, r), r) == A\ntrue\n```";
}
