//! The values of the language: [`Value`] and the heap objects it points to.
//!
//! Plain scalars (`Int`, `Float64`, `Bool`) are stored inline; everything else is reference
//! counted. Arrays are shared and mutable, as in Julia (`b = a; b[1] = 0` changes `a`): an
//! [`ArrayRef`] is an `Rc<RefCell<Array>>`. An array's numbers are an `ad::Tensor`, so the same
//! array may hold plain numbers or numbers carrying derivatives; its [`ElType`] records whether
//! the language sees `Float64`, `Int64` or `Bool` elements. A number carrying derivatives outside
//! an array is a [`Value::Real`] (a rank-0 tensor).

use crate::error::LangError;
use crate::show::ElType;
use difflab_ad::shared_sparse::{into_owned, IntoShared, SharedCsMat};
use difflab_ad::Tensor;
use difflab_syntax::{FunctionDef, Name};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

pub mod convert;
pub mod equality;
pub mod iterate;
mod release;
mod undefined;
pub(crate) use release::release;
pub use release::{Held, Items};

/// A value of the language.
#[derive(Clone)]
pub enum Value {
    /// `nothing`
    Nothing,
    /// `true`, `false`
    Bool(bool),
    /// A 64-bit integer.
    Int(i64),
    /// A plain `Float64`.
    Float(f64),
    /// A scalar carrying derivatives (a rank-0 dual); arithmetic treats it as a `Float64`.
    Real(Tensor),
    /// A string.
    Str(Rc<String>),
    /// A character `'a'` (a Unicode scalar value).
    Char(char),
    /// A symbol `:name`.
    Symbol(Name),
    /// A shared, mutable array.
    Array(ArrayRef),
    /// A lazy range `start:step:stop`.
    Range(Rc<Range>),
    /// A tuple `(a, b)`.
    Tuple(Rc<Items<Value>>),
    /// A named tuple `(x = 1, y = 2)`.
    NamedTuple(Rc<Items<(Name, Value)>>),
    /// A vector of arbitrary values (`[rand(3), rand(4)]`, `String[]`, a vector of backends).
    List(Rc<List>),
    /// A sparse matrix `SparseMatrixCSC{Float64, Int64}` (shared and mutable).
    Sparse(Rc<RefCell<SparseMatrix>>),
    /// A user function or closure.
    Function(Rc<Closure>),
    /// A builtin function.
    Builtin(&'static crate::builtins::Builtin),
    /// An exception value (`ArgumentError("msg")`, or what `catch e` binds).
    Exception(Rc<LangError>),
    /// A library object (backend, preparation, coloring result, plot, ...).
    Object(Rc<Box<dyn crate::object::Object>>),
    /// A type (`Float64`, a user struct, `Dual{Float64}`).
    Type(Rc<crate::types::Type>),
    /// An instance of a user struct.
    Struct(Rc<crate::types::StructValue>),
}

/// A shared, mutable array.
pub type ArrayRef = Rc<RefCell<Array>>;

/// The items of a [`Value::List`], shared and mutable (it dereferences to them), and the
/// element type the vector was declared with: `String[]`, `Vector{Symbol}()` and
/// `Any["a"]` have one, so `typeof` names it and storing a value of another type is Julia's
/// conversion error. A vector built from its items (`["a", "b"]`, a comprehension) has none:
/// its type is read from the items.
pub struct List {
    items: RefCell<Vec<Value>>,
    /// The declared element type, if any.
    pub declared: Option<crate::types::Type>,
}

impl Drop for List {
    fn drop(&mut self) {
        release(self.items.get_mut().drain(..));
    }
}

impl std::ops::Deref for List {
    type Target = RefCell<Vec<Value>>;

    fn deref(&self) -> &RefCell<Vec<Value>> {
        &self.items
    }
}

/// A numeric array of any rank: its numbers and the element type the language sees.
#[derive(Debug)]
pub struct Array {
    /// `Float64`, `Int64` or `Bool`.
    pub eltype: ElType,
    /// The numbers (plain or carrying derivatives).
    pub data: Tensor,
    /// True for the adjoint of a vector (`x'`): a 1×n row that multiplies a vector into a scalar.
    pub row_adjoint: bool,
    /// For a view, its parent; for a parent, its views (`builtins::views`). `None` for most
    /// arrays.
    pub(crate) links: Option<Box<crate::builtins::views::ViewLinks>>,
    /// The Julia type that built the array when it is not a plain `Array`.
    pub structure: Structure,
}

/// The Julia type an array of numbers carrying derivatives stands for, when its numbers are
/// stored densely but the methods or the storage of another type still apply.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Structure {
    /// A plain `Array`.
    #[default]
    Dense,
    /// Julia's `Diagonal` (built by `Diagonal(…)`, `I(n)`, and kept by the operations that keep
    /// it in Julia): its type and display are `Diagonal`'s, a write of a nonzero off the
    /// diagonal is an error, and under sparsity tracing the methods of Julia's `Diagonal` type
    /// apply while its off-diagonal entries are constant (`builtins::linalg::diagonal`).
    Diagonal,
    /// A `SparseMatrixCSC` (or, for a vector, a `SparseVector`) of numbers carrying
    /// derivatives: the column-major places stored explicitly, sorted (zeros written by
    /// `sparse(I, J, V)`); every other nonzero place is stored too
    /// (`builtins::sparse::traced`).
    Sparse(Rc<[usize]>),
}

impl Array {
    /// True for a matrix built by `Diagonal` (or `I(n)`): Julia's `Diagonal` type.
    pub fn is_diagonal(&self) -> bool {
        self.structure == Structure::Diagonal && self.data.shape().len() == 2
    }

    /// A plain array.
    pub fn new(eltype: ElType, data: Tensor) -> Array {
        Array {
            eltype,
            data,
            row_adjoint: false,
            links: None,
            structure: Structure::Dense,
        }
    }
}

/// A copy of an array is neither a view nor viewed: it owns its numbers.
impl Clone for Array {
    fn clone(&self) -> Array {
        Array {
            eltype: self.eltype,
            data: self.data.clone(),
            row_adjoint: self.row_adjoint,
            links: None,
            structure: self.structure.clone(),
        }
    }
}

/// A range `start:step:stop` of `Int` or `Float64` values; `len` is the number of elements.
#[derive(Debug, Clone, PartialEq)]
pub struct Range {
    /// First element.
    pub start: f64,
    /// Increment.
    pub step: f64,
    /// Number of elements.
    pub len: usize,
    /// True when every element is an `Int`.
    pub is_int: bool,
    /// True when the range was written without a step (`1:5` prints without it).
    pub unit: bool,
    /// For a float range whose start and step are ratios of small integers (`0:0.1:1`), a
    /// common denominator `d` of both, else 0: elements are then `(a + k·b) / d` with the
    /// integers `a = start·d` and `b = step·d`, each correctly rounded, as Julia's ranges
    /// (computed in twice the precision) give them: `(0:0.1:1)[4] == 0.3`, not
    /// `0.30000000000000004`.
    denominator: f64,
}

impl Range {
    /// The element type: `Int64` for a range of integers, else `Float64`.
    pub fn eltype(&self) -> ElType {
        if self.is_int {
            ElType::Int64
        } else {
            ElType::Float64
        }
    }

    /// A range of `len` elements from `start` by `step`: integers, or floats (with the exact
    /// elements of a rational start and step, see [`Range::get`]).
    pub fn new(start: f64, step: f64, len: usize, is_int: bool, unit: bool) -> Range {
        Range {
            start,
            step,
            len,
            is_int,
            unit,
            denominator: if is_int {
                0.0
            } else {
                common_denominator(start, step)
            },
        }
    }

    /// The number of elements of the integer range `start:step:stop`, counted exactly
    /// (`1:10^18` has 10^18 elements); `step` is not zero.
    pub fn int_len(start: i64, step: i64, stop: i64) -> usize {
        let span = i128::from(stop) - i128::from(start);
        let step = i128::from(step);
        if span != 0 && (span > 0) != (step > 0) {
            return 0;
        }
        usize::try_from(span / step + 1).unwrap_or(usize::MAX)
    }

    /// The `k`-th element (0-based).
    pub fn get(&self, k: usize) -> f64 {
        let d = self.denominator;
        if d > 0.0 {
            return (self.start * d + self.step * d * k as f64) / d;
        }
        self.start + self.step * k as f64
    }

    /// The last element; for an empty range, `start - step`, the stop Julia stores and prints
    /// (`5:3` is `5:4`, `1:0` stays `1:0`).
    pub fn last(&self) -> f64 {
        if self.len == 0 {
            self.start - self.step
        } else {
            self.get(self.len - 1)
        }
    }
}

/// Julia's `rat`: the continued-fraction approximation `(n, d)` of `x` with terms below 2²⁴,
/// stopping at the first whose quotient is `x` exactly.
fn rational(x: f64) -> (i64, i64) {
    const LIMIT: f64 = 16_777_216.0;
    let (mut y, mut a, mut b, mut c, mut d) = (x, 1i64, 0i64, 0i64, 1i64);
    while y.abs() <= LIMIT {
        let f = y.trunc();
        y -= f;
        let f = f as i64;
        (a, c) = (f * a + c, a);
        (b, d) = (f * b + d, b);
        if a.abs().max(b.abs()) as f64 > LIMIT {
            return (c, d);
        }
        if a as f64 / b as f64 == x {
            break;
        }
        y = 1.0 / y;
    }
    (a, b)
}

/// A denominator `d` with `start·d` and `step·d` integers below 2⁵³, when both are the
/// quotients of small integers (as Julia's float ranges decide); 0 when there is none.
fn common_denominator(start: f64, step: f64) -> f64 {
    let exact = |x: f64| {
        let (n, d) = rational(x);
        (d != 0 && n as f64 / d as f64 == x).then_some(d.unsigned_abs())
    };
    let (Some(start_d), Some(step_d)) = (exact(start), exact(step)) else {
        return 0.0;
    };
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let Some(d) = (start_d / gcd(start_d, step_d)).checked_mul(step_d) else {
        return 0.0;
    };
    let d = d as f64;
    let integral = |x: f64| (x * d).fract() == 0.0 && (x * d).abs() <= 9_007_199_254_740_992.0;
    if integral(start) && integral(step) {
        d
    } else {
        0.0
    }
}

/// A sparse matrix in compressed sparse column form, with its element type; or a sparse
/// vector, stored as the one column of an n×1 matrix.
#[derive(Debug, Clone)]
pub struct SparseMatrix {
    /// The matrix (its index arrays may be shared with other matrices of its pattern).
    pub matrix: SharedCsMat,
    /// `Float64` or `Bool` (a sparsity pattern).
    pub eltype: ElType,
    /// A `SparseVector`: `matrix` is its one column, and the language sees a vector (one
    /// index, `length`, `nzind`), not an n×1 matrix.
    pub vector: bool,
}

impl SparseMatrix {
    /// The size the language sees: `[n]` for a vector, `[m, n]` for a matrix.
    pub fn dims(&self) -> Vec<usize> {
        if self.vector {
            vec![self.matrix.rows()]
        } else {
            vec![self.matrix.rows(), self.matrix.cols()]
        }
    }

    /// Julia's name of its type: `SparseMatrixCSC{Float64, Int64}`, `SparseVector{Bool, Int64}`.
    pub fn type_name(&self) -> String {
        let kind = if self.vector {
            "SparseVector"
        } else {
            "SparseMatrixCSC"
        };
        format!("{kind}{{{}, Int64}}", self.eltype.name())
    }

    /// Changes the matrix's structure (`insert`, pruning): `change` gets arrays of its own,
    /// copied only when another matrix shares them.
    pub fn restructure<T>(&mut self, change: impl FnOnce(&mut sprs::CsMat<f64>) -> T) -> T {
        let placeholder = sprs::CsMat::zero((0, 0)).into_shared();
        let mut owned = into_owned(std::mem::replace(&mut self.matrix, placeholder));
        let result = change(&mut owned);
        self.matrix = owned.into_shared();
        result
    }

    /// The same kind of value (matrix or vector) holding `matrix`.
    pub fn like(&self, matrix: impl IntoShared, eltype: ElType) -> SparseMatrix {
        let matrix = matrix.into_shared();
        SparseMatrix {
            vector: self.vector && matrix.cols() == 1,
            matrix,
            eltype,
        }
    }
}

/// A user function (one method): its definition, signature and the scope it closes over.
pub struct Closure {
    /// The syntax of the definition.
    pub def: Rc<FunctionDef>,
    /// The types of the positional parameters (`Any` when unannotated; for a vararg, the type
    /// of each of its elements). A method of a callable type starts with the object's type.
    pub signature: Rc<[crate::types::Type]>,
    /// The enclosing local scope (`None` for functions defined at top level).
    pub scope: Option<crate::eval::scope::ScopeRef>,
    /// Further methods of the same name with other arities (`f(x) = …; f(x, y) = …`).
    pub methods: Vec<Rc<Closure>>,
    /// The input the definition came from (errors inside the body point into it).
    pub source: Rc<crate::error::Source>,
}

impl Value {
    /// A library object.
    pub fn object<T: crate::object::Object>(o: T) -> Value {
        Value::Object(Rc::new(Box::new(o)))
    }

    /// A `Float64` array from an ad tensor.
    pub fn float_array(data: Tensor) -> Value {
        Value::Array(Rc::new(RefCell::new(Array::new(ElType::Float64, data))))
    }

    /// A typed array from column-major data.
    pub fn array(eltype: ElType, shape: &[usize], data: Vec<f64>) -> Value {
        Value::Array(Rc::new(RefCell::new(Array::new(
            eltype,
            Tensor::from_col_major(shape, data),
        ))))
    }

    /// The value, leaving `nothing` in its place.
    pub fn take(&mut self) -> Value {
        std::mem::replace(self, Value::Nothing)
    }

    /// The pair `first => second`, typed by its two values.
    pub fn pair(first: Value, second: Value) -> Value {
        let types = [
            crate::types::Type::of(&first),
            crate::types::Type::of(&second),
        ];
        Value::typed_pair(first, second, types)
    }

    /// The pair `first => second` of type `Pair{A, B}` for `types` `[A, B]` (the values are
    /// already of those types).
    pub fn typed_pair(first: Value, second: Value, types: [crate::types::Type; 2]) -> Value {
        Value::Struct(Rc::new(crate::types::StructValue {
            def: crate::types::pair_def(),
            params: Rc::new(types),
            fields: RefCell::new(vec![first, second]),
            shown: RefCell::new(None),
            displayed: RefCell::new(None),
        }))
    }

    /// The two values of a `Pair`, if the value is one.
    pub fn pair_parts(&self) -> Option<(Value, Value)> {
        match self {
            Value::Struct(s) if s.is_pair() => {
                let fields = s.fields.borrow();
                Some((fields[0].clone(), fields[1].clone()))
            }
            _ => None,
        }
    }

    /// A tuple of `items`.
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::new(items.into()))
    }

    /// A named tuple of `fields`.
    pub fn named_tuple(fields: Vec<(Name, Value)>) -> Value {
        Value::NamedTuple(Rc::new(fields.into()))
    }

    /// A vector of values typed by its items.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(List {
            items: RefCell::new(items),
            declared: None,
        }))
    }

    /// A vector of values declared to hold `eltype`s (the items are already of that type).
    pub fn declared_list(eltype: crate::types::Type, items: Vec<Value>) -> Value {
        Value::List(Rc::new(List {
            items: RefCell::new(items),
            declared: Some(eltype),
        }))
    }

    /// A string value.
    pub fn str(s: impl Into<String>) -> Value {
        Value::Str(Rc::new(s.into()))
    }

    /// A number from a rank-0 tensor: plain ones become `Float64`.
    pub fn from_scalar(t: Tensor) -> Value {
        match t {
            Tensor::Plain(a) => Value::Float(a.first().copied().unwrap_or(f64::NAN)),
            dual => Value::Real(dual),
        }
    }

    /// The Julia type name of the value, as `typeof` prints it.
    pub fn type_name(&self) -> String {
        match self {
            Value::Nothing => "Nothing".into(),
            Value::Bool(_) => "Bool".into(),
            Value::Int(_) => "Int64".into(),
            Value::Float(_) => "Float64".into(),
            // Named after the number types of the packages each technique comes from.
            Value::Real(t) => match t {
                Tensor::Tracer(tr) => tracer_type(tr),
                Tensor::Tracked(_) => "TrackedReal{Float64}",
                Tensor::Symbolic(_) => "FastDifferentiation.Node",
                Tensor::Dual(_) | Tensor::Plain(_) => "Dual{Float64}",
            }
            .into(),
            Value::Str(_) => "String".into(),
            Value::Char(_) => "Char".into(),
            Value::Symbol(_) => "Symbol".into(),
            Value::Array(a) => {
                let a = a.borrow();
                let ndims = a.data.shape().len();
                match (&a.data, &a.structure) {
                    (data, Structure::Sparse(_)) => {
                        let kind = if ndims == 1 {
                            "SparseVector"
                        } else {
                            "SparseMatrixCSC"
                        };
                        let element = match data {
                            Tensor::Tracer(tr) => tracer_type(tr),
                            _ => a.eltype.name(),
                        };
                        format!("{kind}{{{element}, Int64}}")
                    }
                    (Tensor::Tracer(tr), _) => crate::show::array_type_name(tracer_type(tr), ndims),
                    _ if a.is_diagonal() => crate::show::diagonal_type_name(a.eltype),
                    _ => crate::show::type_name(a.eltype, ndims),
                }
            }
            Value::Range(r) => {
                if r.is_int {
                    if r.unit {
                        "UnitRange{Int64}".into()
                    } else {
                        "StepRange{Int64, Int64}".into()
                    }
                } else {
                    "StepRangeLen{Float64}".into()
                }
            }
            Value::Tuple(items) => format!(
                "Tuple{{{}}}",
                items
                    .iter()
                    .map(Value::type_name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Value::List(_) | Value::Sparse(_) | Value::NamedTuple(_) => {
                crate::types::Type::of(self).to_string()
            }
            Value::Builtin(b) if crate::types::Prim::from_name(b.name).is_some() => {
                "DataType".into()
            }
            v if crate::builtins::linalg::uniform::is_bare_identity(v) => {
                crate::builtins::linalg::uniform::BARE_IDENTITY_TYPE.into()
            }
            Value::Function(_) | Value::Builtin(_) => "Function".into(),
            Value::Exception(e) => e.kind.name().into(),
            Value::Object(o) => o.type_name(),
            Value::Type(_) => "DataType".into(),
            Value::Struct(s) => s.type_of().to_string(),
        }
    }

    /// True for numbers (`Int`, `Float64`, `Bool`, dual scalars).
    pub fn is_number(&self) -> bool {
        matches!(
            self,
            Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Real(_)
        )
    }
}

/// The type name of a number traced for sparsity: global tracers carry only a set of inputs,
/// local ones are duals of a value and a set.
pub fn tracer_type(tr: &difflab_ad::tracer::Tracer) -> &'static str {
    if tr.global {
        "Tracer{Int}"
    } else {
        "Dual{Float64, Tracer{Int}}"
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::display::repr(self))
    }
}

#[cfg(test)]
mod tests {
    use super::Value;

    #[test]
    fn value_stays_two_words() {
        assert_eq!(std::mem::size_of::<Value>(), 16);
    }
}
