//! Indexing: `x[i]`, `A[i, j]`, `x[2:end]`, `A[:, j]`, `x[mask]`, and indexed assignment.
//!
//! Each index is resolved against its dimension into 0-based positions ([`IndexSpec`]); the
//! selected elements are their cartesian product in column-major order, gathered with one
//! `ad::ops::gather` (so indexing works for every number kind). Writes into a view or a
//! viewed array go on to the arrays linked with it (`builtins::views::after_write`).
//! A `Dict` is indexed by key; a user struct by the user's `getindex`/`setindex!` methods.

use super::collections::scalar_f64;
use super::iterate::no_method;
use super::Interp;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::show::ElType;
use crate::value::convert::{number, range_element};
use crate::value::iterate::elements;
use crate::value::{Array, Range, Structure, Value};
use difflab_ad::shared_sparse::IntoShared;
use difflab_ad::tensor::unravel;
use difflab_ad::{limits, ops, Tensor};
use difflab_syntax::{Expr, Name};
use ndarray::ArrayD;
use smallvec::SmallVec;
use std::rc::Rc;

/// One resolved index.
pub enum IndexSpec {
    /// A single position (the dimension is dropped from the result).
    Scalar(usize),
    /// Several positions with the shape they give the result.
    List(Vec<usize>, Vec<usize>),
}

impl IndexSpec {
    fn positions(&self) -> &[usize] {
        match self {
            IndexSpec::Scalar(i) => std::slice::from_ref(i),
            IndexSpec::List(p, _) => p,
        }
    }
}

fn bounds_error(extent: usize, index: i64) -> Flow {
    fail(
        ErrorKind::BoundsError,
        format!("attempt to access {extent}-element dimension at index [{index}]"),
    )
}

/// An index out of bounds of array `a`, as Julia reports it: the array's summary and every
/// index (`attempt to access 2×3 Matrix{Float64} at index [3, 1]`).
fn bounds_of(a: &Array, indices: &[Value]) -> impl FnOnce(Flow) -> Flow {
    let what = crate::show::summary(a.eltype, a.data.shape());
    let at: Vec<String> = indices.iter().map(crate::display::repr).collect();
    move |flow| match flow {
        Flow::Error(mut e) if e.kind == ErrorKind::BoundsError => {
            e.message = format!("attempt to access {what} at index [{}]", at.join(", "));
            Flow::Error(e)
        }
        other => other,
    }
}

/// Resolves one index value against a dimension of length `extent`.
pub fn resolve(index: &Value, extent: usize) -> Result<IndexSpec, Flow> {
    let check = |i: i64| -> Result<usize, Flow> {
        if i >= 1 && (i as usize) <= extent {
            Ok(i as usize - 1)
        } else {
            Err(bounds_error(extent, i))
        }
    };
    match index {
        Value::Int(i) => Ok(IndexSpec::Scalar(check(*i)?)),
        Value::Bool(_) => Err(fail(
            ErrorKind::ArgumentError,
            "invalid index: a Bool is not an index; use an Int or a Bool array",
        )),
        Value::Float(x) => Err(fail(
            ErrorKind::ArgumentError,
            format!("invalid index: {} of type Float64", crate::show::float(*x)),
        )),
        Value::Builtin(b) if b.name == ":" => Ok(IndexSpec::List(
            limits::collected(extent, |k| k)?,
            vec![extent],
        )),
        Value::Range(r) => {
            // A range is monotone: when both ends are in bounds, so is every element, and an
            // index out of bounds is reported before anything is allocated.
            if r.len > 0 {
                check(r.get(0) as i64)?;
                check(r.last() as i64)?;
            }
            let out = limits::collected(r.len, |k| r.get(k) as usize - 1)?;
            Ok(IndexSpec::List(out, vec![r.len]))
        }
        Value::Array(a) => {
            let a = a.borrow();
            let data = a.data.to_col_major();
            if a.eltype == ElType::Bool {
                if data.len() != extent {
                    return Err(fail(
                        ErrorKind::BoundsError,
                        format!(
                            "attempt to index a {extent}-element dimension with a {}-element mask",
                            data.len()
                        ),
                    ));
                }
                let picked: Vec<usize> = (0..extent).filter(|&k| data[k] != 0.0).collect();
                let n = picked.len();
                return Ok(IndexSpec::List(picked, vec![n]));
            }
            let mut out = Vec::with_capacity(data.len());
            for x in data {
                if x.fract() != 0.0 {
                    return Err(fail(
                        ErrorKind::ArgumentError,
                        "invalid index: not an integer",
                    ));
                }
                out.push(check(x as i64)?);
            }
            Ok(IndexSpec::List(out, a.data.shape().to_vec()))
        }
        Value::List(items) => {
            let items = items.borrow();
            let mut out = Vec::with_capacity(items.len());
            for v in items.iter() {
                match resolve(v, extent)? {
                    IndexSpec::Scalar(i) => out.push(i),
                    IndexSpec::List(..) => {
                        return Err(fail(ErrorKind::ArgumentError, "invalid nested index"))
                    }
                }
            }
            let n = out.len();
            Ok(IndexSpec::List(out, vec![n]))
        }
        other => Err(fail(
            ErrorKind::ArgumentError,
            format!("invalid index of type {}", other.type_name()),
        )),
    }
}

/// The column-major position of `indices` when they are all integers within bounds, the case
/// of scalar code, found without building index specs (the extents are those of [`extents`]);
/// `None` sends anything else, out-of-bounds errors included, through the general path.
fn scalar_position(shape: &[usize], indices: &[Value]) -> Option<usize> {
    let n = indices.len();
    let (mut position, mut stride) = (0, 1);
    for (d, index) in indices.iter().enumerate() {
        let Value::Int(i) = *index else {
            return None;
        };
        let extent = extent(shape, n, d);
        let i = usize::try_from(i)
            .ok()
            .filter(|&i| (1..=extent).contains(&i))?;
        position += (i - 1) * stride;
        stride *= extent;
    }
    (n > 0).then_some(position)
}

/// The cartesian index of one element when there is one integer index per dimension, all
/// within bounds (scalar code reading and writing plain arrays); `None` sends anything else
/// through the general path.
fn cartesian_index(shape: &[usize], indices: &[Value]) -> Option<Position> {
    if indices.len() != shape.len() || shape.is_empty() {
        return None;
    }
    indices
        .iter()
        .zip(shape)
        .map(|(index, &extent)| match *index {
            Value::Int(i) => usize::try_from(i)
                .ok()
                .filter(|&i| (1..=extent).contains(&i))
                .map(|i| i - 1),
            _ => None,
        })
        .collect()
}

/// The extents used by `n` indices into an array of `shape` (trailing dimensions merge into the
/// last index, as Julia does).
fn extents(shape: &[usize], n: usize) -> Vec<usize> {
    (0..n).map(|d| extent(shape, n, d)).collect()
}

/// The extent of index `d` of `n` into an array of `shape` (see [`extents`]).
fn extent(shape: &[usize], n: usize, d: usize) -> usize {
    match (n, d + 1 == n) {
        (1, _) => shape.iter().product(),
        (_, true) => shape.iter().skip(d).product(),
        _ => shape.get(d).copied().unwrap_or(1),
    }
}

/// Linear column-major positions, and the result's shape (`None` for a single element).
type Positions = (Vec<usize>, Option<Vec<usize>>);

/// The [`Positions`] selected by `specs`, made with a look at the interrupt flag every
/// [`limits::POLL_BLOCK`] positions (`x[:]` of 5·10⁷ numbers is two passes of 400 MB).
fn positions(specs: &[IndexSpec], extents: &[usize]) -> Result<Positions, Flow> {
    let mut shape = Vec::new();
    let mut all_scalar = true;
    for s in specs {
        if let IndexSpec::List(_, sh) = s {
            shape.extend_from_slice(sh);
            all_scalar = false;
        }
    }
    let mut out = vec![0usize];
    let mut stride = 1;
    let mut since_check = 0;
    for (spec, &extent) in specs.iter().zip(extents) {
        let ps = spec.positions();
        // Earlier dimensions vary fastest: each new position wraps all previous combinations.
        let mut next = Vec::with_capacity(out.len() * ps.len());
        for &p in ps {
            next.extend(out.iter().map(|&base| base + p * stride));
            since_check += out.len();
            if since_check >= limits::POLL_BLOCK {
                limits::check()?;
                since_check = 0;
            }
        }
        out = next;
        stride *= extent;
    }
    Ok((out, (!all_scalar).then_some(shape)))
}

/// The element at column-major position `k` of a plain array, whatever its memory layout.
pub fn get_linear(a: &ArrayD<f64>, k: usize) -> f64 {
    a[&unravel(a.shape(), k)[..]]
}

/// Writes position `k` (column-major) of a plain array.
pub fn set_linear(a: &mut ArrayD<f64>, k: usize, x: f64) {
    let index = unravel(a.shape(), k);
    a[&index[..]] = x;
}

/// A cartesian index (0-based), inline up to rank 4.
type Position = SmallVec<[usize; 4]>;

impl Interp {
    pub(crate) fn eval_index(&mut self, target: &Expr, indices: &[Expr]) -> EvalResult {
        let container = self.eval(target)?;
        let values = self.eval_indices(&container, indices)?;
        self.index_value(&container, &values)
    }

    /// The values of `indices` into `container`, `end` meaning the extent of its dimension.
    pub(crate) fn eval_indices(
        &mut self,
        container: &Value,
        indices: &[Expr],
    ) -> Result<SmallVec<[Value; 4]>, Flow> {
        let shape = match container {
            // `end` in an index of a user container is its `lastindex`, else its `length`.
            Value::Struct(s) if !s.is_pair() => {
                let args = [container.clone()];
                let last = match self.call_extension(difflab_syntax::name!("lastindex"), &args, &[])
                {
                    Some(r) => Some(r?),
                    None => self
                        .call_extension(difflab_syntax::name!("length"), &args, &[])
                        .transpose()?,
                };
                let n = match last {
                    Some(Value::Int(n)) => usize::try_from(n).unwrap_or(0),
                    _ => 1,
                };
                Position::from_slice(&[n])
            }
            other => shape_of(other),
        };
        let n = indices.len().max(1);
        let mut values = SmallVec::with_capacity(indices.len());
        for (d, e) in indices.iter().enumerate() {
            values.push(self.with_end(extent(&shape, n, d), e)?);
        }
        Ok(values)
    }

    /// `container[indices...]` with evaluated indices.
    pub fn index_value(&mut self, container: &Value, indices: &[Value]) -> EvalResult {
        if let Some(spread) = cartesian_spread(container, indices)? {
            return self.index_value(container, &spread);
        }
        match container {
            Value::Array(a) => {
                let a = a.borrow();
                if let Tensor::Plain(p) = &a.data {
                    if let Some(ix) = cartesian_index(p.shape(), indices) {
                        return Ok(number(a.eltype, p[&ix[..]]));
                    }
                }
                if let Some(k) = scalar_position(a.data.shape(), indices) {
                    return element(&a, k);
                }
                let shape = a.data.shape().to_vec();
                if indices.is_empty() {
                    return match shape.iter().product::<usize>() {
                        1 => Ok(element(&a, 0)?),
                        n => Err(fail(
                            ErrorKind::BoundsError,
                            format!("attempt to access {n}-element array at index []"),
                        )),
                    };
                }
                let ext = extents(&shape, indices.len());
                let specs = indices
                    .iter()
                    .zip(&ext)
                    .map(|(v, &n)| resolve(v, n))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(bounds_of(&a, indices))?;
                let (pos, out_shape) = positions(&specs, &ext)?;
                match out_shape {
                    None => element(&a, pos[0]),
                    Some(out_shape) => {
                        self.check_alloc(pos.len())?;
                        let data = ops::gather(&a.data, &pos, &out_shape)?;
                        Ok(Value::Array(std::rc::Rc::new(std::cell::RefCell::new(
                            Array::new(a.eltype, data),
                        ))))
                    }
                }
            }
            Value::Range(r) => index_range(r, indices),
            Value::Str(s) => match indices {
                [index] => crate::builtins::string_index::index(s, index),
                _ => Err(fail(
                    ErrorKind::BoundsError,
                    "too many indices for a string",
                )),
            },
            Value::Tuple(_) | Value::List(_) | Value::NamedTuple(_) => {
                if let (Value::NamedTuple(fields), [Value::Symbol(s)]) = (container, indices) {
                    return fields
                        .iter()
                        .find(|(k, _)| k == s)
                        .map(|(_, v)| v.clone())
                        .ok_or_else(|| fail(ErrorKind::KeyError, format!("key :{s} not found")));
                }
                let [index] = indices else {
                    return Err(fail(
                        ErrorKind::BoundsError,
                        "too many indices for a one-dimensional collection",
                    ));
                };
                let len = shape_of(container).iter().product();
                match resolve(index, len)? {
                    // One element is read in place, not from a copy of them all.
                    IndexSpec::Scalar(i) => Ok(match container {
                        Value::Tuple(items) => items[i].clone(),
                        Value::List(items) => items.borrow()[i].clone().defined()?,
                        Value::NamedTuple(fields) => fields[i].1.clone(),
                        _ => elements(container)?.swap_remove(i),
                    }),
                    IndexSpec::List(ps, _) => {
                        let items = elements(container)?;
                        let picked: Vec<Value> = ps.iter().map(|&i| items[i].clone()).collect();
                        match container {
                            Value::List(_) => Ok(Value::list(picked)),
                            Value::Tuple(_) => Ok(Value::tuple(picked)),
                            _ => {
                                let n = picked.len();
                                super::collections::collect_values(self, picked, &[n])
                            }
                        }
                    }
                }
            }
            Value::Sparse(s) => crate::builtins::sparse::index(self, &s.borrow(), indices),
            Value::Object(_) if crate::builtins::dict::as_dict(container).is_some() => {
                let dict = crate::builtins::dict::as_dict(container).expect("checked above");
                dict.index(&dict_key(indices))
            }
            Value::Object(_) if crate::builtins::refs::as_ref(container).is_some() => {
                let r = crate::builtins::refs::as_ref(container).expect("checked above");
                crate::builtins::refs::index(r, indices)
            }
            // `p[1]`, `p[2]` of a pair, as of the tuple of its parts.
            Value::Struct(s) if s.is_pair() => {
                let parts = Value::tuple(s.fields.borrow().clone());
                self.index_value(&parts, indices)
            }
            Value::Struct(_) => self.user_index("getindex", container, indices, None),
            // `T[]`, `typeof(x)[1, 2]`: a typed vector of a type held in a value.
            Value::Builtin(b) if crate::types::Prim::from_name(b.name).is_some() => {
                self.typed_vector(difflab_syntax::Name::new(b.name), indices.to_vec())
            }
            // `typeof(t)[]` for a number carrying derivatives: its arrays are `Float64` ones.
            number_type
                if crate::types::Type::from_value(number_type).is_some_and(|t| {
                    t.is_subtype(&crate::types::Type::Prim(crate::types::Prim::Number))
                }) =>
            {
                self.typed_vector(difflab_syntax::name!("Float64"), indices.to_vec())
            }
            // `Point[]`, `Point[p, q]`, `Vector{Float64}[]`, `Union{Int, Nothing}[1, nothing]`:
            // a vector of values of that type.
            Value::Type(t) => self.typed_list(t, indices.to_vec()),
            // `Function[]`, `AbstractString[]`: the same for a type the registry holds as a value.
            type_value if crate::types::Type::from_value(type_value).is_some() => {
                let ty = crate::types::Type::from_value(type_value).expect("checked above");
                self.typed_list(&ty, indices.to_vec())
            }
            Value::Object(o)
                if matches!(indices, [Value::Symbol(_) | Value::Str(_)])
                    && o.get_index(&indices[0]).is_some() =>
            {
                Ok(o.get_index(&indices[0]).expect("checked above"))
            }
            Value::Object(o) if o.elements().is_some() => {
                let items = o.elements().unwrap_or_default();
                let as_list = Value::list(items);
                self.index_value(&as_list, indices)
            }
            Value::Object(o) => Err(fail(
                ErrorKind::MethodError,
                format!("no method matching getindex(::{}, ...)", o.type_name()),
            )),
            other if other.is_number() && indices.iter().all(|i| matches!(i, Value::Int(1))) => {
                Ok(other.clone())
            }
            other => Err(fail(
                ErrorKind::MethodError,
                format!("no method matching getindex(::{}, ...)", other.type_name()),
            )),
        }
    }

    /// `container[indices...] = v` (also `container[indices...] .= v`).
    pub(crate) fn set_index(
        &mut self,
        container: &Value,
        indices: &[Expr],
        v: Value,
    ) -> Result<(), Flow> {
        let index_values = self.eval_indices(container, indices)?;
        self.set_index_values(container, &index_values, v)
    }

    /// `container[indices...] = v` with evaluated indices.
    pub fn set_index_values(
        &mut self,
        container: &Value,
        indices: &[Value],
        v: Value,
    ) -> Result<(), Flow> {
        if let Some(spread) = cartesian_spread(container, indices)? {
            return self.set_index_values(container, &spread, v);
        }
        // `x[1:2] = x` reads the array being written: it reads a copy instead.
        let v = unaliased(container, &v);
        match container {
            Value::Array(cell) => {
                if let Some(x) = plain_scalar(&v)? {
                    // The common `x[i, j] = 1.0`: integer indices, nothing else to read.
                    let mut a = cell.borrow_mut();
                    let (eltype, linked) = (a.eltype, a.links.is_some() || a.is_diagonal());
                    if let (false, Tensor::Plain(data)) = (linked, &mut a.data) {
                        if let Some(ix) = cartesian_index(data.shape(), indices) {
                            check_eltype(eltype, x)?;
                            Rc::make_mut(data)[&ix[..]] = x;
                            return Ok(());
                        }
                    }
                }
                // Positions first, under a shared borrow: an index may read this very array
                // (`x[x] = …`, `x[[x]] = …`).
                let pos = {
                    let a = cell.borrow();
                    match scalar_position(a.data.shape(), indices) {
                        Some(k) => vec![k],
                        None => view_positions(&a, indices)?.0,
                    }
                };
                // The numbers to write, also before the mutable borrow: the value may hold this
                // array (`x[1] = Any[x]`), and even its error message reads it.
                let written = Written::of(&v)?;
                let mut a = cell.borrow_mut();
                write_positions(&mut a, &pos, written)?;
                if a.links.is_some() {
                    drop(a);
                    return crate::builtins::views::after_write(cell, Some(&pos));
                }
                Ok(())
            }
            Value::List(list) => {
                let v = super::collections::list_element(list, v)?;
                let [index] = indices else {
                    return Err(fail(
                        ErrorKind::BoundsError,
                        "too many indices for a vector",
                    ));
                };
                // Resolved before the write's borrow: the index may be this very vector
                // (`v[v] = …`).
                let len = list.borrow().len();
                match resolve(index, len)? {
                    IndexSpec::Scalar(i) => {
                        list.borrow_mut()[i] = v;
                        Ok(())
                    }
                    IndexSpec::List(..) => Err(fail(
                        ErrorKind::ArgumentError,
                        "cannot assign to several elements of a Vector{Any} at once",
                    )),
                }
            }
            Value::Sparse(s) => {
                crate::builtins::sparse::set_index(&mut s.borrow_mut(), indices, &v)
            }
            Value::Object(_) if crate::builtins::dict::as_dict(container).is_some() => {
                let dict = crate::builtins::dict::as_dict(container).expect("checked above");
                dict.set(dict_key(indices), v)
            }
            Value::Object(_) if crate::builtins::refs::as_ref(container).is_some() => {
                let r = crate::builtins::refs::as_ref(container).expect("checked above");
                crate::builtins::refs::set_index(r, indices, v)
            }
            Value::Struct(_) => self
                .user_index("setindex!", container, indices, Some(v))
                .map(|_| ()),
            other => Err(fail(
                ErrorKind::MethodError,
                format!("no method matching setindex!(::{}, ...)", other.type_name()),
            )),
        }
    }

    /// `y .= v`: every element of the array `y` from `v` broadcast to its shape.
    pub(crate) fn fill_all(&mut self, container: &Value, v: &Value) -> Result<(), Flow> {
        let v = &unaliased(container, v);
        match container {
            Value::Array(cell) => {
                let mut a = cell.borrow_mut();
                let source = crate::value::convert::to_tensor(v)?;
                let plain = matches!(a.data, Tensor::Plain(_)) && source.is_plain();
                if plain && source.len() == 1 && !a.is_diagonal() {
                    write_plain(&mut a, None, &source)?;
                } else {
                    let pos: Vec<usize> = (0..a.data.len()).collect();
                    let shape = a.data.shape().to_vec();
                    let broadcast = ops::elementwise::broadcast_tensor(&source, &shape)?;
                    write_tensor(&mut a, &pos, &broadcast)?;
                }
                drop(a);
                crate::builtins::views::after_write(cell, None)
            }
            Value::List(list) => {
                let source = elements(v).unwrap_or_else(|_| vec![v.clone()]);
                let n = list.borrow().len();
                let mut written = Vec::with_capacity(n);
                for k in 0..n {
                    let item = source
                        .get(k)
                        .or(source.first())
                        .cloned()
                        .unwrap_or(Value::Nothing);
                    written.push(super::collections::list_element(list, item)?);
                }
                *list.borrow_mut() = written;
                Ok(())
            }
            Value::Sparse(cell) => {
                let Some(x) = crate::value::convert::operand(v)?
                    .filter(|o| o.scalar && o.tensor().is_plain())
                    .map(|o| o.tensor().primal().iter().copied().next().unwrap_or(0.0))
                else {
                    return Err(fail(
                        ErrorKind::MethodError,
                        format!(
                            "no method matching broadcast assignment of a {} into a sparse matrix; assign a number",
                            v.type_name()
                        ),
                    ));
                };
                let (m, n) = cell.borrow().matrix.shape();
                if x == 0.0 {
                    // As `fill!(A, 0)` in Julia: the stored entries stay, as zeros.
                    cell.borrow_mut().matrix.data_mut().fill(0.0);
                    return Ok(());
                }
                // Any other number fills every entry: the matrix stores all of them.
                self.check_alloc(m.saturating_mul(n))?;
                let indptr: Vec<usize> = (0..=n).map(|j| j * m).collect();
                let indices: Vec<usize> = (0..n).flat_map(|_| 0..m).collect();
                cell.borrow_mut().matrix =
                    sprs::CsMat::new_csc((m, n), indptr, indices, vec![x; m * n]).into_shared();
                Ok(())
            }
            other => Err(fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching broadcast assignment into {}",
                    other.type_name()
                ),
            )),
        }
    }
}

impl Interp {
    /// `c[i...]` (`getindex`) or `c[i...] = v` (`setindex!(c, v, i...)`) on a user struct:
    /// the user's method, else Julia's `MethodError` naming the function.
    fn user_index(
        &mut self,
        function: &str,
        container: &Value,
        indices: &[Value],
        value: Option<Value>,
    ) -> EvalResult {
        let mut args = vec![container.clone()];
        args.extend(value);
        args.extend(indices.iter().cloned());
        self.call_extension(Name::new(function), &args, &[])
            .unwrap_or_else(|| Err(no_method(function, &args)))
    }
}

/// The key of `d[k]` (`d[a, b]` is the key `(a, b)`, as in Julia).
/// The indices of an array indexed with `CartesianIndex`es, spread into integers
/// ([`crate::builtins::cartesian::spread`]); `None` when there are none or the container is
/// not an array.
fn cartesian_spread(container: &Value, indices: &[Value]) -> Result<Option<Vec<Value>>, Flow> {
    if !indices
        .iter()
        .any(|v| matches!(v, Value::Object(_) | Value::List(_)))
    {
        return Ok(None);
    }
    match crate::builtins::cartesian::shape_of(container) {
        Some(shape) => crate::builtins::cartesian::spread(&shape, indices),
        None => Ok(None),
    }
}

fn dict_key(indices: &[Value]) -> Value {
    match indices {
        [k] => k.clone(),
        many => Value::tuple(many.to_vec()),
    }
}

/// The column-major positions `a[indices...]` selects and the shape of the selection (empty
/// when every index is a single position): what a view of `a` holds.
pub(crate) fn view_positions(
    a: &Array,
    indices: &[Value],
) -> Result<(Vec<usize>, Vec<usize>), Flow> {
    let shape = a.data.shape().to_vec();
    let ext = extents(&shape, indices.len().max(1));
    let specs = indices
        .iter()
        .zip(&ext)
        .map(|(iv, &n)| resolve(iv, n))
        .collect::<Result<Vec<_>, _>>()
        .map_err(bounds_of(a, indices))?;
    if specs.is_empty() {
        // `view(x)` views every element in the array's own shape.
        return Ok(((0..a.data.len()).collect(), shape));
    }
    let (pos, out_shape) = positions(&specs, &ext)?;
    Ok((pos, out_shape.unwrap_or_default()))
}

/// The shape used to resolve `end` in an index of `v`.
fn shape_of(v: &Value) -> Position {
    match v {
        Value::Array(a) => Position::from_slice(a.borrow().data.shape()),
        Value::Sparse(s) => {
            let s = s.borrow();
            Position::from_slice(&[s.matrix.rows(), s.matrix.cols()])
        }
        Value::Str(s) => Position::from_slice(&[crate::builtins::string_index::last_index(s)]),
        other => Position::from_slice(&[Interp::length_of(other).unwrap_or(1)]),
    }
}

/// `r[i]` of a range without building it: one element, a range for a range of indices
/// (`(1:10^8)[5:10]` is `5:10`), and the selected elements for any other index.
fn index_range(r: &Rc<Range>, indices: &[Value]) -> EvalResult {
    let [index] = indices else {
        return match indices {
            [] if r.len == 1 => Ok(range_element(r, 0)),
            _ => Err(fail(
                ErrorKind::BoundsError,
                "too many indices for a one-dimensional collection",
            )),
        };
    };
    match index {
        Value::Builtin(b) if b.name == ":" => Ok(Value::Range(r.clone())),
        Value::Range(s) if s.is_int => {
            if s.len > 0 {
                for end in [s.get(0), s.last()] {
                    if end < 1.0 || end > r.len as f64 {
                        return Err(bounds_error(r.len, end as i64));
                    }
                }
            }
            let first = if s.len > 0 { s.get(0) as usize - 1 } else { 0 };
            Ok(Value::Range(Rc::new(Range::new(
                r.get(first),
                r.step * s.step,
                s.len,
                r.is_int,
                r.unit && s.unit,
            ))))
        }
        other => match resolve(other, r.len)? {
            IndexSpec::Scalar(k) => Ok(range_element(r, k)),
            IndexSpec::List(positions, shape) => {
                let data: Vec<f64> = positions.iter().map(|&k| r.get(k)).collect();
                let eltype = r.eltype();
                Ok(Value::array(eltype, &shape, data))
            }
        },
    }
}

/// Element `k` (column-major) of an array as a value.
fn element(a: &Array, k: usize) -> EvalResult {
    match &a.data {
        Tensor::Plain(p) => Ok(number(a.eltype, get_linear(p, k))),
        dual => Ok(Value::from_scalar(ops::gather(dual, &[k], &[])?)),
    }
}

/// The numbers an indexed write stores: one plain number, or a tensor of them.
enum Written {
    Plain(f64),
    Numbers(Tensor),
}

impl Written {
    fn of(v: &Value) -> Result<Written, Flow> {
        Ok(match plain_scalar(v)? {
            Some(x) => Written::Plain(x),
            None => Written::Numbers(crate::value::convert::to_tensor(v)?),
        })
    }
}

/// Writes a scalar, or an array with one element per position, at `pos`.
fn write_positions(a: &mut Array, pos: &[usize], written: Written) -> Result<(), Flow> {
    let source = match (written, &mut a.data) {
        (Written::Plain(x), Tensor::Plain(_)) if a.structure == Structure::Diagonal => {
            Tensor::scalar(x)
        }
        (Written::Plain(x), Tensor::Plain(_)) => {
            return write_plain(a, Some(pos), &Tensor::scalar(x));
        }
        (Written::Plain(x), _) => Tensor::scalar(x),
        (Written::Numbers(t), _) => t,
    };
    write_tensor(a, pos, &source)
}

/// Writes `source` (one element per position, or one for all) at `pos` of `a`.
pub(crate) fn write_tensor(a: &mut Array, pos: &[usize], source: &Tensor) -> Result<(), Flow> {
    crate::builtins::linalg::diagonal::check_write(a, pos, source)?;
    if source.len() != pos.len() && source.len() != 1 {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "tried to assign {} elements to {} destinations",
                source.len(),
                pos.len()
            ),
        ));
    }
    if let (Tensor::Plain(_), Tensor::Plain(_)) = (&a.data, source) {
        return write_plain(a, Some(pos), source);
    }
    if source.len() == pos.len() && every_position_in_order(pos, a.data.len())? {
        // Every element replaced in order: nothing of the old contents (possibly numbers of a
        // finished differentiation or tracing) survives.
        a.data = ops::reshape(source, a.data.shape())?;
        a.eltype = ElType::Float64;
        return Ok(());
    }
    if a.data.outer_layer_is_dead() {
        a.data = a.data.without_dead_layers();
    }
    // A dual written into an array turns the whole array into a dual one.
    ops::scatter_into(&mut a.data, pos, source)?;
    a.eltype = ElType::Float64;
    if pos.len() > 1 || pos.len() == a.data.len() {
        // A buffer written at every call of a differentiated function would otherwise keep one
        // layer per finished differentiation, each without derivatives once overwritten, and
        // grow slower at every call. Single-element writes into longer arrays (loops) skip the
        // scan.
        a.data = a.data.without_dead_layers();
    }
    Ok(())
}

/// Whether `pos` is every position of an array of `len` elements, in order (`x[:]`,
/// `x[1:end]`).
fn every_position_in_order(pos: &[usize], len: usize) -> Result<bool, Flow> {
    if pos.len() != len {
        return Ok(false);
    }
    for (block, part) in limits::polled_chunks(pos).enumerate() {
        let start = block * limits::POLL_BLOCK;
        if part?.iter().enumerate().any(|(j, &k)| start + j != k) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Writes a plain `source` (one value, or one per position) into a plain array at `pos`
/// (column-major positions), or at every position in order when `pos` is `None`. Writes go in
/// memory order when they cover the whole array, and look at the interrupt flag between blocks:
/// `z .= 1.0` over 5·10⁷ elements would otherwise be seconds without an answer to an interrupt.
fn write_plain(a: &mut Array, pos: Option<&[usize]>, source: &Tensor) -> Result<(), Flow> {
    let values = difflab_ad::tensor::col_major_slice(source.primal());
    if a.eltype != ElType::Float64 {
        for &x in values.iter() {
            check_eltype(a.eltype, x)?;
        }
    }
    let Tensor::Plain(data) = &mut a.data else {
        unreachable!("write_plain is called with a plain array")
    };
    let data = Rc::make_mut(data);
    let pos = match pos {
        Some(pos) if !every_position_in_order(pos, data.len())? => pos,
        _ => return write_in_order(data, &values),
    };
    for (block, positions) in limits::polled_chunks(pos).enumerate() {
        for (j, &k) in positions?.iter().enumerate() {
            let j = block * limits::POLL_BLOCK + j;
            set_linear(data, k, values[if values.len() == 1 { 0 } else { j }]);
        }
    }
    Ok(())
}

/// Writes `values` (one, or one per element in column-major order) over all of `data`.
fn write_in_order(data: &mut ArrayD<f64>, values: &[f64]) -> Result<(), Flow> {
    if let [x] = values {
        if let Some(memory) = data.as_slice_memory_order_mut() {
            for block in memory.chunks_mut(limits::POLL_BLOCK) {
                limits::check()?;
                block.fill(*x);
            }
            return Ok(());
        }
    }
    // A single value reaches past here only for an array whose memory has gaps.
    let mut in_order = data.view_mut().reversed_axes();
    if let Some(memory) = in_order.as_slice_mut() {
        for (block, source) in memory
            .chunks_mut(limits::POLL_BLOCK)
            .zip(values.chunks(limits::POLL_BLOCK))
        {
            limits::check()?;
            block.copy_from_slice(source);
        }
        return Ok(());
    }
    for (j, element) in in_order.iter_mut().enumerate() {
        if j % limits::POLL_BLOCK == 0 {
            limits::check()?;
        }
        *element = values[if values.len() == 1 { 0 } else { j }];
    }
    Ok(())
}

fn plain_scalar(v: &Value) -> Result<Option<f64>, Flow> {
    match v {
        Value::Float(_) | Value::Int(_) | Value::Bool(_) => scalar_f64(v).map(Some),
        _ => Ok(None),
    }
}

fn check_eltype(eltype: ElType, x: f64) -> Result<(), Flow> {
    let fits = match eltype {
        ElType::Float64 => true,
        ElType::Int64 => x.fract() == 0.0,
        ElType::Bool => x == 0.0 || x == 1.0,
    };
    if fits {
        Ok(())
    } else {
        Err(fail(
            ErrorKind::InexactError,
            format!("{}({})", eltype.name(), crate::show::float(x)),
        ))
    }
}

/// `value`, or a copy of it when it is the array `container` itself, so that writing the
/// container never reads the container it is borrowing.
fn unaliased(container: &Value, value: &Value) -> Value {
    match (container, value) {
        (Value::Array(a), Value::Array(b)) if Rc::ptr_eq(a, b) => {
            crate::builtins::arrays::deep_copy(value)
        }
        _ => value.clone(),
    }
}
