//! Sparse automatic differentiation in the language: the sparsity detectors
//! (`TracerSparsityDetector`, `TracerLocalSparsityDetector`, `KnownJacobianSparsityDetector`,
//! `KnownHessianSparsityDetector`), `jacobian_sparsity` / `hessian_sparsity`, and the
//! `AutoSparse(backend; sparsity_detector, coloring_algorithm)` wrapper, whose plan (pattern
//! and coloring) is made at preparation (`difflab_ad::di::sparse`).

use super::backends::as_backend;
use crate::builtins::coloring::AlgorithmValue;
use crate::builtins::sparse::sparse_value;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::show::ElType;
use crate::types::{Prim, Type};
use crate::value::convert::operand;
use crate::value::{Array, Value};
use difflab_ad::di::sparse::{self, SparsePlan};
use difflab_ad::di::Backend;
use difflab_ad::symbolic::Program;
use difflab_ad::{AdError, Tensor};
use difflab_coloring::{ColoringProblem, GreedyColoringAlgorithm, SparsityPattern};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// How a sparsity pattern is obtained.
#[derive(Clone)]
pub enum Detector {
    /// Global tracers: valid for every input; comparisons are errors.
    Global,
    /// Local tracers: valid at the given input; branches follow its values.
    Local,
    /// A Jacobian pattern given by the user.
    KnownJacobian(SparsityPattern),
    /// A Hessian pattern given by the user.
    KnownHessian(SparsityPattern),
    /// The entries above `atol` of the dense Jacobian or Hessian computed by `backend` at the
    /// input (DifferentiationInterface's `DenseSparsityDetector`): valid at that input only,
    /// and blind to derivatives that happen to vanish there.
    Dense {
        /// The backend of the dense derivative.
        backend: Backend,
        /// Entries of magnitude at most this are zeros.
        atol: f64,
        /// DI's `:iterative` (column by column) or `:direct` (one Jacobian); both give the
        /// same pattern here, and the detector prints it.
        method: &'static str,
    },
}

impl Object for Detector {
    fn type_name(&self) -> String {
        let shown = self.show();
        shown[..shown.find('(').unwrap_or(shown.len())].to_string()
    }

    fn show(&self) -> String {
        match self {
            Detector::Global => "TracerSparsityDetector()".into(),
            Detector::Local => "TracerLocalSparsityDetector()".into(),
            Detector::KnownJacobian(_) => "KnownJacobianSparsityDetector(...)".into(),
            Detector::KnownHessian(_) => "KnownHessianSparsityDetector(...)".into(),
            Detector::Dense {
                backend,
                atol,
                method,
            } => format!(
                "DenseSparsityDetector({backend}; atol={}, method=:{method})",
                crate::show::float(*atol)
            ),
        }
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn as_detector(v: &Value) -> Option<&Detector> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Detector>(),
        _ => None,
    }
}

/// The pattern of a (sparse or dense) matrix value.
fn pattern_of(v: &Value) -> Result<SparsityPattern, Flow> {
    let (m, n, entries) = crate::builtins::plots::pattern_of(v)?;
    SparsityPattern::from_entries(m, n, &entries)
        .map_err(|e| fail(ErrorKind::ArgumentError, e.to_string()))
}

/// The tracers' pattern types (`gradient_pattern_type=Set{UInt}`, `hessian_pattern_type=…`):
/// SparseConnectivityTracer's choice of set representation, a speed trade-off there. difflab's
/// tracers have one representation and the same patterns, so a type is accepted and anything
/// else is an error. `shared_hessian_pattern=true` lets SCT's Hessian tracers share one
/// pattern, which then contains the unshared one; difflab gives the unshared pattern.
fn check_pattern_types(args: &Args, name: &str) -> Result<(), Flow> {
    args.keywords(
        name,
        &[
            "gradient_pattern_type",
            "hessian_pattern_type",
            "shared_hessian_pattern",
        ],
    )?;
    if let Some(v) = args.kw("shared_hessian_pattern") {
        if !matches!(v, Value::Bool(_)) {
            return Err(fail(
                ErrorKind::TypeError,
                format!(
                    "shared_hessian_pattern must be a Bool, got a {}",
                    v.type_name()
                ),
            ));
        }
    }
    if let Some(v) = args.kw("gradient_pattern_type") {
        check_set_of(
            &pattern_type(v, "gradient_pattern_type")?,
            is_index,
            "integers",
        )?;
    }
    if let Some(v) = args.kw("hessian_pattern_type") {
        check_hessian_pattern_type(&pattern_type(v, "hessian_pattern_type")?)?;
    }
    Ok(())
}

fn pattern_type(v: &Value, keyword: &str) -> Result<Type, Flow> {
    Type::from_value(v).ok_or_else(|| {
        fail(
            ErrorKind::ArgumentError,
            format!(
                "{keyword} must be a type such as Set{{UInt}}, got {}",
                v.type_name()
            ),
        )
    })
}

/// Whether `t` can number inputs: an integer type (SCT's index sets hold any `Integer`).
fn is_index(t: &Type) -> bool {
    t.is_subtype(&Type::Prim(Prim::Integer))
        || matches!(t, Type::Named(name) if name.starts_with("UInt") || name.starts_with("Int"))
}

/// Whether `t` is a pair of indices, `Tuple{I, I}`.
fn is_index_pair(t: &Type) -> bool {
    matches!(t, Type::Applied(Prim::Tuple, ps) if ps.len() == 2 && ps.iter().all(is_index))
}

/// That `t` is a set type whose elements satisfy `element` (SCT's `AbstractSet{<:Integer}`):
/// a set of anything else is a `TypeError`, anything but a set a `MethodError`.
fn check_set_of(t: &Type, element: fn(&Type) -> bool, what: &str) -> Result<(), Flow> {
    match t {
        Type::Prim(Prim::Set | Prim::AbstractSet) => Ok(()),
        Type::Applied(Prim::Set | Prim::AbstractSet, ps) if ps.iter().all(element) => Ok(()),
        Type::Applied(Prim::Set | Prim::AbstractSet, _) => Err(fail(
            ErrorKind::TypeError,
            format!("in pattern type, expected a set of {what}, got {t}"),
        )),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching a sparsity pattern of type {t}: expected a set of {what}"),
        )),
    }
}

/// SCT's Hessian patterns: a `Dict` from an index to a set of indices, or a set of index pairs.
fn check_hessian_pattern_type(t: &Type) -> Result<(), Flow> {
    match t {
        Type::Prim(Prim::Dict | Prim::AbstractDict) => Ok(()),
        Type::Applied(Prim::Dict | Prim::AbstractDict, ps) => match &ps[..] {
            [key, sets] if is_index(key) => check_set_of(sets, is_index, "integers"),
            _ => Err(fail(
                ErrorKind::TypeError,
                format!("in Hessian pattern type, expected integer keys, got {t}"),
            )),
        },
        // A set of single indices has no place for pairs: SCT has no such pattern.
        Type::Applied(Prim::Set | Prim::AbstractSet, ps)
            if !matches!(ps.first(), Some(Type::Applied(Prim::Tuple, _))) =>
        {
            Err(fail(
                ErrorKind::MethodError,
                format!("no method matching a Hessian pattern of type {t}: expected a set of index pairs (Tuple{{Int, Int}}) or a Dict"),
            ))
        }
        _ => check_set_of(t, is_index_pair, "pairs of integers (Tuple{Int, Int})"),
    }
}

fn global_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("TracerSparsityDetector", 0, 0)?;
    check_pattern_types(&args, "TracerSparsityDetector")?;
    Ok(Value::object(Detector::Global))
}

fn local_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("TracerLocalSparsityDetector", 0, 0)?;
    check_pattern_types(&args, "TracerLocalSparsityDetector")?;
    Ok(Value::object(Detector::Local))
}

fn known_jacobian_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("KnownJacobianSparsityDetector", 1, 1)?;
    Ok(Value::object(Detector::KnownJacobian(pattern_of(
        &args.pos[0],
    )?)))
}

fn known_hessian_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("KnownHessianSparsityDetector", 1, 1)?;
    Ok(Value::object(Detector::KnownHessian(pattern_of(
        &args.pos[0],
    )?)))
}

fn dense_detector_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("DenseSparsityDetector", 1, 1)?;
    args.keywords("DenseSparsityDetector", &["atol", "method"])?;
    let backend = as_backend(&args.pos[0]).cloned().ok_or_else(|| {
        fail(
            ErrorKind::ArgumentError,
            "DenseSparsityDetector(backend; atol) takes a dense backend such as AutoForwardDiff()",
        )
    })?;
    let atol = match args.kw("atol") {
        Some(v) => crate::builtins::to_float(v, "DenseSparsityDetector")?,
        None => {
            return Err(fail(
                ErrorKind::UndefKeywordError,
                "keyword argument `atol` not assigned",
            ))
        }
    };
    let method = match args.kw("method") {
        None => "iterative",
        Some(Value::Symbol(m)) if m.as_str() == "iterative" => "iterative",
        Some(Value::Symbol(m)) if m.as_str() == "direct" => "direct",
        Some(other) => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "method must be :iterative or :direct, got {}",
                    crate::display::repr(other)
                ),
            ))
        }
    };
    Ok(Value::object(Detector::Dense {
        backend,
        atol,
        method,
    }))
}

/// The entries of magnitude above `atol` of a derivative matrix (column-major tensor).
fn entries_above(matrix: &Tensor, nrows: usize, atol: f64) -> Result<SparsityPattern, Flow> {
    let values = matrix.to_col_major();
    let mask: Vec<bool> = values.iter().map(|v| v.abs() > atol).collect();
    let ncols = values.len().checked_div(nrows).unwrap_or(0);
    SparsityPattern::from_dense_column_major(nrows, ncols, &mask)
        .map_err(|e| fail(ErrorKind::ArgumentError, e.to_string()))
}

/// A pattern as a `SparseMatrixCSC{Bool, Int64}`.
pub fn pattern_value(p: &SparsityPattern) -> Value {
    let m = p
        .to_csmat(vec![1.0; p.nnz()])
        .unwrap_or_else(|_| crate::builtins::sparse::empty_csc(p.shape().0, p.shape().1));
    sparse_value(m, ElType::Bool)
}

/// Adapts a language function `f(x)` (or `f!(y, x)` with `y`) to tensors.
pub fn tensor_function<'a>(
    interp: &'a mut Interp,
    f: &'a Value,
    y: Option<&'a Value>,
    scalar: bool,
) -> impl FnMut(&Tensor) -> Result<Tensor, Flow> + 'a {
    move |t: &Tensor| {
        let x = if scalar && t.shape().is_empty() {
            Value::from_scalar(t.clone())
        } else {
            Value::Array(Rc::new(RefCell::new(Array::new(
                ElType::Float64,
                t.clone(),
            ))))
        };
        let numbers = |v: &Value| {
            operand(v)?.map(|o| o.tensor().clone()).ok_or_else(|| {
                fail(
                    ErrorKind::ArgumentError,
                    format!("the function must return numbers, got a {}", v.type_name()),
                )
            })
        };
        match y {
            Some(y) => {
                let shape = buffer_shape(y)?;
                let buffer = Value::Array(Rc::new(RefCell::new(Array::new(
                    ElType::Float64,
                    Tensor::filled(&shape, 0.0),
                ))));
                interp.call(f, vec![buffer.clone(), x])?;
                numbers(&buffer)
            }
            None => {
                let out = interp.call(f, vec![x])?;
                numbers(&crate::eval::collections::numbers_of_any_vector(
                    interp, out,
                )?)
            }
        }
    }
}

/// The shape of the output buffer `y` of an in-place function (a scalar's is empty).
fn buffer_shape(y: &Value) -> Result<Vec<usize>, Flow> {
    Ok(operand(y)?
        .map(|o| o.tensor().shape().to_vec())
        .unwrap_or_default())
}

fn detect(interp: &mut Interp, args: &Args, hessian: bool) -> EvalResult {
    let name = if hessian {
        "hessian_sparsity"
    } else {
        "jacobian_sparsity"
    };
    let (f, y, x, det) = match args.pos.as_slice() {
        [f, x, d] => (f, None, x, d),
        [f, y, x, d] if !hessian => (f, Some(y), x, d),
        _ => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("{name}(f, x, detector) or {name}(f!, y, x, detector)"),
            ))
        }
    };
    let detector = as_detector(det).ok_or_else(|| fail(ErrorKind::ArgumentError, format!("{name}: the last argument must be a sparsity detector such as TracerSparsityDetector()")))?;
    let o =
        operand(x)?.ok_or_else(|| fail(ErrorKind::ArgumentError, "the input must be numbers"))?;
    let (t, scalar) = (o.tensor().clone(), o.scalar);
    drop(o);
    if matches!(detector, Detector::Global) && !hessian {
        let y_shape = y.map(buffer_shape).transpose()?;
        if let Some(pattern) =
            super::detection_recordings::recorded_pattern(interp, f, y, y_shape, &t, scalar)?
        {
            return Ok(pattern_value(&pattern));
        }
    }
    let mut func = tensor_function(interp, f, y, scalar);
    let pattern = pattern_for(&mut func, &t, detector, hessian)?;
    Ok(pattern_value(&pattern))
}

/// Detects (or takes) the pattern of `func` at `x`.
pub fn pattern_for(
    func: &mut dyn FnMut(&Tensor) -> Result<Tensor, Flow>,
    x: &Tensor,
    detector: &Detector,
    hessian: bool,
) -> Result<SparsityPattern, Flow> {
    match (detector, hessian) {
        (Detector::KnownJacobian(p), false) | (Detector::KnownHessian(p), true) => Ok(p.clone()),
        (Detector::KnownJacobian(_), true) | (Detector::KnownHessian(_), false) => Err(fail(
            ErrorKind::ArgumentError,
            "this known-pattern detector gives the other kind of pattern (Jacobian vs Hessian)",
        )),
        (Detector::Global | Detector::Local, false) => {
            sparse::jacobian_sparsity(&mut &mut *func, x, matches!(detector, Detector::Local))
        }
        (Detector::Global | Detector::Local, true) => {
            sparse::hessian_sparsity(&mut &mut *func, x, matches!(detector, Detector::Local))
        }
        (Detector::Dense { backend, atol, .. }, false) => {
            let (y, jacobian) =
                difflab_ad::di::operators::value_and_jacobian(&mut &mut *func, backend, x)?;
            entries_above(&jacobian, y.len(), *atol)
        }
        (Detector::Dense { backend, atol, .. }, true) => {
            let (_, _, hessian) =
                difflab_ad::di::operators::value_gradient_and_hessian(&mut &mut *func, backend, x)?;
            entries_above(&hessian, x.len(), *atol)
        }
    }
}

fn jacobian_sparsity_(interp: &mut Interp, args: Args) -> EvalResult {
    detect(interp, &args, false)
}

fn hessian_sparsity_(interp: &mut Interp, args: Args) -> EvalResult {
    detect(interp, &args, true)
}

/// `MixedMode(forward, reverse)`: Jacobians from both sides (with `AutoSparse`).
pub struct MixedMode {
    /// The backend for column colors (pushforwards).
    pub forward: Backend,
    /// The backend for row colors (pullbacks).
    pub reverse: Backend,
}

impl Object for MixedMode {
    fn type_name(&self) -> String {
        "MixedMode".into()
    }

    fn show(&self) -> String {
        format!("MixedMode({}, {})", self.forward, self.reverse)
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn mixed_mode_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("MixedMode", 2, 2)?;
    let backend = |v: &Value| {
        as_backend(v).cloned().ok_or_else(|| {
            fail(
                ErrorKind::ArgumentError,
                "MixedMode(forward, reverse) takes two backends",
            )
        })
    };
    Ok(Value::object(MixedMode {
        forward: backend(&args.pos[0])?,
        reverse: backend(&args.pos[1])?,
    }))
}

/// `AutoSparse(backend; sparsity_detector, coloring_algorithm)`.
pub struct AutoSparse {
    /// The backend computing each compressed derivative.
    pub dense: Backend,
    /// For `AutoSparse(MixedMode(forward, reverse))`: the reverse backend of row colors
    /// (`dense` is then the forward one).
    pub mixed_reverse: Option<Backend>,
    /// How the pattern is found.
    pub detector: Detector,
    /// How it is colored.
    pub algorithm: SparseColoring,
}

impl AutoSparse {
    /// The same detection and coloring around another dense backend.
    pub fn around(&self, dense: Backend) -> AutoSparse {
        AutoSparse {
            dense,
            mixed_reverse: self.mixed_reverse.clone(),
            detector: self.detector.clone(),
            algorithm: self.algorithm.clone(),
        }
    }
}

/// How `AutoSparse` colors a pattern: greedily, or with SparseMatrixColorings'
/// `ConstantColoringAlgorithm` (colors given in advance, checked against the pattern).
#[derive(Clone)]
pub enum SparseColoring {
    /// `GreedyColoringAlgorithm(...)`.
    Greedy(GreedyColoringAlgorithm),
    /// `ConstantColoringAlgorithm(...)`, as given.
    Given(Value),
}

impl SparseColoring {
    fn show(&self) -> String {
        match self {
            SparseColoring::Greedy(algorithm) => AlgorithmValue::new(algorithm.clone()).show(),
            SparseColoring::Given(algorithm) => crate::display::repr(algorithm),
        }
    }

    /// The plan of `pattern` for `problem`, with the shapes of the input and output.
    fn plan(
        &self,
        pattern: SparsityPattern,
        problem: ColoringProblem,
        input_shape: &[usize],
        output_shape: &[usize],
    ) -> Result<SparsePlan, Flow> {
        let greedy = match self {
            SparseColoring::Greedy(algorithm) => algorithm,
            SparseColoring::Given(given) => {
                let constant = crate::builtins::coloring_constant::as_constant(given)
                    .expect("only constant colorings are given");
                let coloring =
                    crate::builtins::coloring_constant::colored(&pattern, problem, constant)?;
                return Ok(SparsePlan::new(coloring, input_shape, output_shape)?);
            }
        };
        Ok(match problem {
            ColoringProblem::SYMMETRIC => sparse::plan_hessian(pattern, greedy, input_shape)?,
            ColoringProblem::BIDIRECTIONAL => {
                sparse::plan_bidirectional(pattern, greedy, input_shape, output_shape)?
            }
            _ => sparse::plan_coloring(pattern, problem, greedy, input_shape, output_shape)?,
        })
    }
}

impl Object for AutoSparse {
    fn type_name(&self) -> String {
        "AutoSparse".into()
    }

    fn show(&self) -> String {
        let dense = match &self.mixed_reverse {
            Some(reverse) => format!("MixedMode({}, {})", self.dense, reverse),
            None => self.dense.to_string(),
        };
        format!(
            "AutoSparse({dense}; sparsity_detector={}, coloring_algorithm={})",
            self.detector.show(),
            self.algorithm.show()
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "dense_ad" | "backend" => Some(super::backends::backend_value(self.dense.clone())),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["dense_ad"]
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The `MixedMode` held by `v`, if it is one.
pub fn as_mixed_mode(v: &Value) -> Option<&MixedMode> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<MixedMode>(),
        _ => None,
    }
}

/// The `AutoSparse` held by `v`, if it is one.
pub fn as_auto_sparse(v: &Value) -> Option<&AutoSparse> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<AutoSparse>(),
        _ => None,
    }
}

/// ADTypes' `dense_ad(backend)`: the backend inside `AutoSparse` (its `MixedMode`, for a
/// mixed one); any other backend is its own.
fn dense_ad_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("dense_ad", 1, 1)?;
    let v = &args.pos[0];
    match as_auto_sparse(v) {
        Some(AutoSparse {
            dense,
            mixed_reverse: Some(reverse),
            ..
        }) => Ok(Value::object(MixedMode {
            forward: dense.clone(),
            reverse: reverse.clone(),
        })),
        Some(sparse) => Ok(super::backends::backend_value(sparse.dense.clone())),
        None if as_backend(v).is_some() || as_mixed_mode(v).is_some() => Ok(v.clone()),
        None => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching dense_ad(::{})", v.type_name()),
        )),
    }
}

fn auto_sparse_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("AutoSparse", 1, 3)?;
    args.keywords("AutoSparse", &["sparsity_detector", "coloring_algorithm"])?;
    let (dense, mixed_reverse) = match (as_backend(&args.pos[0]), as_mixed_mode(&args.pos[0])) {
        (Some(b), _) => (b.clone(), None),
        (None, Some(m)) => (m.forward.clone(), Some(m.reverse.clone())),
        _ => return Err(fail(
            ErrorKind::ArgumentError,
            "AutoSparse wraps a backend, such as AutoForwardDiff(), or MixedMode(forward, reverse)",
        )),
    };
    let detector_value = args.pos.get(1).or(args.kw("sparsity_detector"));
    let detector = match detector_value {
        None => Detector::Global,
        Some(v) => as_detector(v)
            .ok_or_else(|| {
                fail(
                    ErrorKind::ArgumentError,
                    "sparsity_detector must be a detector such as TracerSparsityDetector()",
                )
            })?
            .clone(),
    };
    let algorithm = match args.pos.get(2).or(args.kw("coloring_algorithm")) {
        None => SparseColoring::Greedy(GreedyColoringAlgorithm::default()),
        Some(Value::Object(o)) if o.as_any().is::<AlgorithmValue>() => SparseColoring::Greedy(
            o.as_any()
                .downcast_ref::<AlgorithmValue>()
                .expect("checked")
                .0
                .clone(),
        ),
        Some(given) if crate::builtins::coloring_constant::as_constant(given).is_some() => {
            SparseColoring::Given(given.clone())
        }
        Some(other) => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "coloring_algorithm must be a GreedyColoringAlgorithm or a ConstantColoringAlgorithm, got {}",
                    crate::display::repr(other)
                ),
            ))
        }
    };
    Ok(Value::object(AutoSparse {
        dense,
        mixed_reverse,
        detector,
        algorithm,
    }))
}

/// The Jacobian plan of a traced program, whose pattern is exact for every input: what the
/// global detector would find, without running the function again. `None` for other detectors
/// and mixed mode, which take the usual path.
pub fn plan_of_program(
    sparse: &AutoSparse,
    program: &Program,
    x: &Tensor,
) -> Result<Option<Rc<SparsePlan>>, Flow> {
    if !matches!(sparse.detector, Detector::Global) || sparse.mixed_reverse.is_some() {
        return Ok(None);
    }
    let m = program.output_shape().iter().product();
    let pattern = SparsityPattern::from_entries(m, x.len(), &program.jacobian_entries())
        .map_err(|e| AdError::Argument(e.to_string()))?;
    let problem = sparse::jacobian_problem(&sparse.dense);
    let plan = sparse
        .algorithm
        .plan(pattern, problem, x.shape(), program.output_shape())?;
    Ok(Some(Rc::new(plan)))
}

/// Makes the plan (pattern and coloring) of a sparse Jacobian or Hessian of `func` (the
/// function with its contexts applied) at `x`; `y_shape` is the shape of the output buffer of
/// an in-place function.
pub fn plan(
    sparse: &AutoSparse,
    func: &mut dyn FnMut(&Tensor) -> Result<Tensor, Flow>,
    y_shape: Option<&[usize]>,
    x: &Tensor,
    hessian: bool,
    stages: &mut Vec<super::explain::Stage>,
) -> Result<Rc<SparsePlan>, Flow> {
    let pattern = super::explain::timed(stages, "detection", || {
        pattern_for(func, x, &sparse.detector, hessian)
    })?;
    super::explain::timed(stages, "coloring", || {
        coloring_plan(sparse, pattern, y_shape, x, hessian)
    })
}

/// The coloring and seeds of `pattern` for the backend of `sparse`.
fn coloring_plan(
    sparse: &AutoSparse,
    pattern: SparsityPattern,
    y_shape: Option<&[usize]>,
    x: &Tensor,
    hessian: bool,
) -> Result<Rc<SparsePlan>, Flow> {
    let output_shape = match (hessian, y_shape) {
        (true, _) => Vec::new(),
        (false, Some(shape)) => shape.to_vec(),
        (false, None) => vec![pattern.nrows()],
    };
    let problem = match (hessian, &sparse.mixed_reverse) {
        (true, _) => ColoringProblem::SYMMETRIC,
        (false, Some(_)) => ColoringProblem::BIDIRECTIONAL,
        (false, None) => sparse::jacobian_problem(&sparse.dense),
    };
    let plan = sparse
        .algorithm
        .plan(pattern, problem, x.shape(), &output_shape)?;
    Ok(Rc::new(plan))
}

crate::builtins! {
    "TracerSparsityDetector" => global_, false, "    TracerSparsityDetector(; gradient_pattern_type, hessian_pattern_type)\n\nGlobal sparsity detection by index-set tracing: the function runs once on tracers that record which inputs each value depends on; the pattern holds for every input. Tracers have no values, so comparing one (`x > 0`) is an error: use `TracerLocalSparsityDetector()` for functions that branch. SparseConnectivityTracer's `gradient_pattern_type` and `hessian_pattern_type` (its set representations, e.g. `Set{UInt}`) and `shared_hessian_pattern` are accepted: difflab's tracers have one representation and give the same (unshared) patterns.\n\n```\njulia> jacobian_sparsity(x -> diff(x .^ 2), [1.0, 2.0, 3.0], TracerSparsityDetector())\n2×3 SparseMatrixCSC{Bool, Int64} with 4 stored entries:\n 1  1  ⋅\n ⋅  1  1\n```";
    "TracerLocalSparsityDetector" => local_, false, "    TracerLocalSparsityDetector()\n\nSparsity detection with tracers that also carry the input's values, as SparseConnectivityTracer's local tracers: the function may branch on them, and a derivative that is zero at that input drops its dependency (a product with a zero factor, the branch `max`, `min`, `clamp` and `ifelse` do not take, the divisor of a zero numerator). The pattern holds at that input only; `TracerSparsityDetector()` gives one that holds for every input.\n\nBelow, `∂(x₁x₂)/∂x₂ = x₁` is zero at the first input and `max` takes `x₃`; at the second, `x₂` is zero and `max` takes `x₁`.\n\n```\njulia> f(x) = [x[1] * x[2], max(x[1], x[3])];\n\njulia> jacobian_sparsity(f, [0.0, 1.0, 2.0], TracerLocalSparsityDetector())\n2×3 SparseMatrixCSC{Bool, Int64} with 2 stored entries:\n 1  ⋅  ⋅\n ⋅  ⋅  1\n\njulia> jacobian_sparsity(f, [1.0, 0.0, -1.0], TracerLocalSparsityDetector())\n2×3 SparseMatrixCSC{Bool, Int64} with 2 stored entries:\n ⋅  1  ⋅\n 1  ⋅  ⋅\n\njulia> jacobian_sparsity(f, [0.0, 1.0, 2.0], TracerSparsityDetector())\n2×3 SparseMatrixCSC{Bool, Int64} with 4 stored entries:\n 1  1  ⋅\n 1  ⋅  1\n\njulia> jacobian_sparsity(x -> x[1] > 0 ? x .* x[2] : x, [1.0, 2.0], TracerLocalSparsityDetector())\n2×2 SparseMatrixCSC{Bool, Int64} with 3 stored entries:\n 1  1\n ⋅  1\n```";
    "KnownJacobianSparsityDetector" => known_jacobian_, false, "    KnownJacobianSparsityDetector(P)\n\nA detector returning the Jacobian pattern `P` you already know (a sparse or dense matrix).\n\n```\njulia> P = sparse([1, 2, 2], [1, 1, 2], [true, true, true]);\n\njulia> jacobian_sparsity(x -> x, [1.0, 2.0], KnownJacobianSparsityDetector(P))\n2×2 SparseMatrixCSC{Bool, Int64} with 3 stored entries:\n 1  ⋅\n 1  1\n\njulia> b = AutoSparse(AutoForwardDiff(); sparsity_detector=KnownJacobianSparsityDetector(P));\n```";
    "DenseSparsityDetector" => dense_detector_, false, "    DenseSparsityDetector(backend; atol, method=:iterative)\n\nSparsity detection by computing the dense Jacobian (or Hessian) with `backend` at the input and keeping the entries of magnitude above `atol`. It is valid at that input only and misses derivatives that happen to vanish there; it is mostly useful to check the tracers or for functions they cannot trace.\n\n```\njulia> jacobian_sparsity(x -> [x[1] * x[2], x[3]], [1.0, 2.0, 3.0], DenseSparsityDetector(AutoForwardDiff(); atol=1e-12))\n2×3 SparseMatrixCSC{Bool, Int64} with 3 stored entries:\n 1  1  ⋅\n ⋅  ⋅  1\n```";
    "KnownHessianSparsityDetector" => known_hessian_, false, "    KnownHessianSparsityDetector(P)\n\nA detector returning the Hessian pattern `P` you already know.\n\n```\njulia> P = sparse([1, 2], [1, 2], [true, true]);\n\njulia> hessian(x -> sum(x .^ 3), AutoSparse(AutoForwardDiff(); sparsity_detector=KnownHessianSparsityDetector(P)), [1.0, 2.0])\n2×2 SparseMatrixCSC{Float64, Int64} with 2 stored entries:\n 6.0    ⋅\n  ⋅   12.0\n```";
    "jacobian_sparsity" => jacobian_sparsity_, false, "    jacobian_sparsity(f, x, detector)\n    jacobian_sparsity(f!, y, x, detector)\n\nThe sparsity pattern of the Jacobian of `f` at `x`, as a sparse Bool matrix.\n\nWith `TracerSparsityDetector()`, a function detected again at inputs of the same shapes (a named function computing on scalars, without effects such as printing or drawing random numbers) is recorded once, at its second detection, and later detections carry the tracers' index sets through the recording instead of interpreting the function, as Julia reuses the code it compiled at the first call. The pattern is the same; a change to anything the function reads (a global, a helper, a captured array) or a new definition makes it run on tracers again.\n\n```\njulia> jacobian_sparsity(x -> [x[1] * x[2], x[3]], ones(3), TracerSparsityDetector())\n2×3 SparseMatrixCSC{Bool, Int64} with 3 stored entries:\n 1  1  ⋅\n ⋅  ⋅  1\n```";
    "hessian_sparsity" => hessian_sparsity_, false, "    hessian_sparsity(f, x, detector)\n\nThe sparsity pattern of the Hessian of a scalar `f`: pairs of inputs that interact nonlinearly.\n\n```\njulia> hessian_sparsity(x -> x[1] * x[2] + x[3]^2, ones(3), TracerSparsityDetector())\n3×3 SparseMatrixCSC{Bool, Int64} with 3 stored entries:\n ⋅  1  ⋅\n 1  ⋅  ⋅\n ⋅  ⋅  1\n```";
    "MixedMode" => mixed_mode_, false, "    MixedMode(forward, reverse)\n\nMixed-mode sparse Jacobians: wrapped in `AutoSparse`, the pattern is colored from both sides (bidirectional coloring); columns are computed by pushforwards with `forward` and rows by pullbacks with `reverse`. Good for Jacobians with both dense rows and dense columns (arrowheads).\n\n```\njulia> back = AutoSparse(MixedMode(AutoForwardDiff(), AutoReverseDiff()); coloring_algorithm=GreedyColoringAlgorithm(RandomOrder(0); postprocessing=true));\n```";
    "dense_ad" => dense_ad_, false, "    dense_ad(backend)\n\nADTypes' dense backend of an `AutoSparse` (the one computing each compressed derivative; for `AutoSparse(MixedMode(…))`, the `MixedMode`); another backend is its own. Operators other than Jacobians and Hessians take the dense backend.\n\n```\njulia> dense_ad(AutoSparse(AutoForwardDiff()))\nAutoForwardDiff()\n\njulia> gradient(x -> sum(abs2, x), dense_ad(AutoSparse(AutoReverseDiff())), [1.0, 2.0])\n2-element Vector{Float64}:\n 2.0\n 4.0\n```";
    "AutoSparse" => auto_sparse_, false, "    AutoSparse(backend; sparsity_detector=TracerSparsityDetector(), coloring_algorithm=GreedyColoringAlgorithm())\n    AutoSparse(backend, detector, algorithm)\n\nSparse Jacobians and Hessians: at preparation the pattern is detected and colored (or colored as given, with a `ConstantColoringAlgorithm`); each call then computes one pushforward (or pullback, or HVP) per color and decompresses them into a `SparseMatrixCSC`. Other operators use `backend` as is.\n\n```\njulia> back = AutoSparse(SecondOrder(AutoForwardDiff(), AutoFiniteDiff()); sparsity_detector=TracerSparsityDetector(), coloring_algorithm=GreedyColoringAlgorithm());\n\njulia> prep = prepare_hessian(x -> sum(diff(x) .^ 2), back, zeros(1000)); ncolors(prep)\n3\n```";
}
