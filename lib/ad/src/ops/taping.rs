//! The reverse rules of every primitive: what each records on the tape, and how a cotangent
//! flows back to its operands (written with primitives, so cotangents may be dual numbers).

use super::elementwise::{broadcast_tensor, BinaryFn, UnaryFn};
use crate::error::Result;
use crate::reverse::{
    record_linear, record_op, record_scaled, tracked_with, value_below, Backward, Rule, Tracked,
};
use crate::tensor::{Tag, Tensor};
use std::rc::Rc;

/// `ct` summed over the dimensions `shape` was broadcast along, then shaped like `shape`.
pub fn unbroadcast(ct: Tensor, shape: &[usize]) -> Result<Tensor> {
    if ct.shape() == shape {
        return Ok(ct);
    }
    sum_to_shape(&ct, shape)
}

/// `ct` summed over the dimensions where `shape` has length 1, shaped like `shape`.
fn sum_to_shape(ct: &Tensor, shape: &[usize]) -> Result<Tensor> {
    let dims: Vec<usize> = (0..ct.shape().len())
        .filter(|&d| shape.get(d).copied().unwrap_or(1) == 1 && ct.shape()[d] != 1)
        .collect();
    let summed = super::reduce::sum_dims(ct, &dims)?;
    super::structure::reshape(&summed, shape)
}

/// A unary function on a tracked value.
pub fn unary(f: UnaryFn, tr: &Rc<Tracked>) -> Result<Tensor> {
    let value = super::elementwise::unary(f, &tr.value)?;
    let operand = Tensor::Tracked(tr.clone());
    // A structurally zero slope (`round`, `sign`) passes nothing back: multiplying by a zero
    // would still pass on the dependencies of a tracer cotangent, as SCT's non-shared Hessian
    // tracers do not.
    let edges = if super::tracing::zero_slope(f) {
        Vec::new()
    } else {
        vec![(&operand, f.derivative(&tr.value)?)]
    };
    Ok(record_scaled(tr.tag, value, edges, &[&operand], move |x| {
        super::elementwise::unary(f, &x[0])
    }))
}

/// A binary function where the newest tag is a tape's.
pub fn binary(f: BinaryFn, a: &Tensor, b: &Tensor, tag: Tag) -> Result<Tensor> {
    let (va, vb) = (value_below(a, tag), value_below(b, tag));
    let value = super::elementwise::binary(f, va, vb)?;
    let (need_a, need_b) = (
        tracked_with(a, tag).is_some(),
        tracked_with(b, tag).is_some(),
    );
    let (da, db) = super::elementwise::slopes(f, va, vb, &value, need_a, need_b)?;
    let operands: Vec<(&Tensor, Tensor)> = match (da, db) {
        // `x * x`: one slope for the one node, so the sweep makes one pass for it, not two.
        (Some(da), Some(db)) if same_node(a, b, tag) => {
            vec![(a, super::elementwise::binary(BinaryFn::Add, &da, &db)?)]
        }
        (da, db) => [(a, da), (b, db)]
            .into_iter()
            .filter_map(|(operand, slope)| Some((operand, slope?)))
            .collect(),
    };
    Ok(record_scaled(tag, value, operands, &[a, b], move |x| {
        super::elementwise::binary(f, &x[0], &x[1])
    }))
}

fn same_node(a: &Tensor, b: &Tensor, tag: Tag) -> bool {
    match (tracked_with(a, tag), tracked_with(b, tag)) {
        (Some(x), Some(y)) => x.node == y.node,
        _ => false,
    }
}

/// Broadcasting a tracked value.
pub fn broadcast(tr: &Rc<Tracked>, shape: &[usize]) -> Result<Tensor> {
    let value = broadcast_tensor(&tr.value, shape)?;
    let in_shape = tr.value.shape().to_vec();
    let operand = Tensor::Tracked(tr.clone());
    let out_shape = shape.to_vec();
    Ok(record_op(
        tr.tag,
        value,
        vec![(&operand, Box::new(move |ct| sum_to_shape(ct, &in_shape)))],
        &[&operand],
        move |x| broadcast_tensor(&x[0], &out_shape),
    ))
}

/// A reduction or structural map `forward` with its adjoint `backward`, on a tracked value
/// (`forward` is written with primitives, so it also replays the map on any number kind).
pub fn linear_map(
    tr: &Rc<Tracked>,
    forward: impl Fn(&Tensor) -> Result<Tensor> + 'static,
    backward: Rule,
) -> Result<Tensor> {
    recorded_map(tr, forward, Backward::Rule(backward))
}

/// A sum of a tracked value (`forward` is `sum_all` or a `sum_dims`): the cotangent is the
/// node's, broadcast back.
pub fn sum(
    tr: &Rc<Tracked>,
    forward: impl Fn(&Tensor) -> Result<Tensor> + 'static,
) -> Result<Tensor> {
    let shape = tr.value.shape().into();
    recorded_map(tr, forward, Backward::Broadcast { shape })
}

fn recorded_map(
    tr: &Rc<Tracked>,
    forward: impl Fn(&Tensor) -> Result<Tensor> + 'static,
    backward: Backward,
) -> Result<Tensor> {
    let value = forward(&tr.value)?;
    let operand = Tensor::Tracked(tr.clone());
    Ok(record_linear(tr.tag, value, &operand, backward, move |x| {
        forward(&x[0])
    }))
}

/// Gathering from a tracked value: the cotangent is added back in place at `indices`.
pub fn gather(tr: &Rc<Tracked>, indices: &[usize], shape: &[usize]) -> Result<Tensor> {
    let indices: Rc<[usize]> = indices.into();
    let (idx, out_shape) = (indices.clone(), shape.to_vec());
    let backward = Backward::ScatterAdd {
        indices,
        shape: tr.value.shape().into(),
    };
    recorded_map(
        tr,
        move |x| super::structure::gather(x, &idx, &out_shape),
        backward,
    )
}

/// `ct` added into zeros of `shape` at the column-major positions `indices` (the adjoint of
/// gathering).
pub fn scatter_add(ct: &Tensor, indices: &[usize], shape: &[usize]) -> Result<Tensor> {
    match ct {
        Tensor::Plain(_) => {
            let n: usize = shape.iter().product();
            let mut out = vec![0.0; n];
            for (k, v) in ct.to_col_major().into_iter().enumerate() {
                out[indices[k]] += v;
            }
            Ok(Tensor::from_col_major(shape, out))
        }
        Tensor::Dual(d) => d.map_layers(|p| scatter_add(p, indices, shape)),
        Tensor::Tracked(tr) => {
            let (idx, in_shape) = (indices.to_vec(), tr.value.shape().to_vec());
            let (idx2, shape2) = (idx.clone(), shape.to_vec());
            linear_map(
                tr,
                move |v| scatter_add(v, &idx2, &shape2),
                Box::new(move |ct| super::structure::gather(ct, &idx, &in_shape)),
            )
        }
        Tensor::Tracer(t) => Ok(super::tracing::scatter_add(t, indices, shape)),
        Tensor::Symbolic(s) => crate::symbolic::scatter_add(s, indices, shape),
    }
}

/// `target` with `values` written at `indices`, where the newest tag is a tape's.
pub fn scatter(target: &Tensor, indices: &[usize], values: &Tensor, tag: Tag) -> Result<Tensor> {
    let (vt, vv) = (value_below(target, tag), value_below(values, tag));
    let value = super::structure::scatter(vt, indices, vv)?;
    let idx: Rc<[usize]> = indices.into();
    let (idx_t, idx_v, idx_replay) = (idx.clone(), idx.clone(), idx);
    let values_shape = vv.shape().to_vec();
    let broadcast_value = vv.len() == 1 && indices.len() != 1;
    let target_rule: Rule =
        Box::new(move |ct| super::structure::scatter(ct, &idx_t, &Tensor::scalar(0.0)));
    let values_rule: Rule = Box::new(move |ct| {
        let picked = super::structure::gather(ct, &idx_v, &[idx_v.len()])?;
        if broadcast_value {
            super::structure::reshape(&super::reduce::sum_all(&picked)?, &values_shape)
        } else {
            super::structure::reshape(&picked, &values_shape)
        }
    });
    Ok(record_op(
        tag,
        value,
        vec![(target, target_rule), (values, values_rule)],
        &[target, values],
        move |x| super::structure::scatter(&x[0], &idx_replay, &x[1]),
    ))
}

/// Concatenation where the newest tag is a tape's: each part gets its block of the cotangent.
pub fn concat(parts: &[Tensor], dim: usize, tag: Tag) -> Result<Tensor> {
    let values: Vec<Tensor> = parts.iter().map(|p| value_below(p, tag).clone()).collect();
    let value = super::structure::concat(&values, dim)?;
    // The positions of each part in the result, found by concatenating position labels.
    let mut offset = 0;
    let labels: Vec<Tensor> = values
        .iter()
        .map(|v| {
            let n = v.len();
            let t =
                Tensor::from_col_major(v.shape(), (offset..offset + n).map(|k| k as f64).collect());
            offset += n;
            t
        })
        .collect();
    let order = super::structure::concat(&labels, dim)?.to_col_major();
    let mut positions: Vec<Vec<usize>> = values.iter().map(|v| vec![0; v.len()]).collect();
    let starts: Vec<usize> = values
        .iter()
        .scan(0, |s, v| {
            let start = *s;
            *s += v.len();
            Some(start)
        })
        .collect();
    for (pos, &label) in order.iter().enumerate() {
        let label = label as usize;
        let part = starts
            .iter()
            .rposition(|&s| s <= label)
            .expect("labels start at 0");
        positions[part][label - starts[part]] = pos;
    }
    let operands = parts
        .iter()
        .zip(values.iter().zip(positions))
        .map(|(p, (v, pos))| {
            let shape = v.shape().to_vec();
            let rule: Rule = Box::new(move |ct| super::structure::gather(ct, &pos, &shape));
            (p, rule)
        })
        .collect();
    let inputs: Vec<&Tensor> = parts.iter().collect();
    Ok(record_op(tag, value, operands, &inputs, move |x| {
        super::structure::concat(x, dim)
    }))
}

/// The matrix product where the newest tag is a tape's.
pub fn matmul(a: &Tensor, b: &Tensor, tag: Tag) -> Result<Tensor> {
    let (va, vb) = (value_below(a, tag).clone(), value_below(b, tag).clone());
    let value = super::linalg::matmul(&va, &vb)?;
    let as_matrix = |t: &Tensor| -> Result<Tensor> {
        match t.shape() {
            [m] => super::structure::reshape(t, &[*m, 1]),
            _ => Ok(t.clone()),
        }
    };
    let (ma, mb) = (as_matrix(&va)?, as_matrix(&vb)?);
    let (shape_a, shape_b) = (va.shape().to_vec(), vb.shape().to_vec());
    let out_rows = ma.shape()[0];
    let (mb_t, ma_t) = (
        super::structure::transpose(&mb)?,
        super::structure::transpose(&ma)?,
    );
    let rule_a: Rule = Box::new(move |ct| {
        let ct = super::structure::reshape(ct, &[out_rows, ct.len() / out_rows.max(1)])?;
        super::structure::reshape(&super::linalg::matmul(&ct, &mb_t)?, &shape_a)
    });
    let rule_b: Rule = Box::new(move |ct| {
        let ct = super::structure::reshape(ct, &[out_rows, ct.len() / out_rows.max(1)])?;
        super::structure::reshape(&super::linalg::matmul(&ma_t, &ct)?, &shape_b)
    });
    Ok(record_op(
        tag,
        value,
        vec![(a, rule_a), (b, rule_b)],
        &[a, b],
        |x| super::linalg::matmul(&x[0], &x[1]),
    ))
}
