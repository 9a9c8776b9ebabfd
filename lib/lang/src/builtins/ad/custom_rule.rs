//! Reverse rules of the builtins whose derivatives call back into user code
//! (`DifferentiateWith`, `ImplicitFunction`): a backward sweep cannot re-enter the interpreter,
//! so they materialize what the rule needs at the point and record a rule on plain numbers.

use difflab_ad::reverse::{record, Rule};
use difflab_ad::Tensor;

/// Records `y`, computed from the tracked `x`, with the rule `x̄ = pullback(ȳ)` on column-major
/// plain numbers (`x̄` has `x`'s shape).
pub fn record_plain_pullback(
    x: &Tensor,
    y: Tensor,
    pullback: impl Fn(&[f64]) -> Vec<f64> + 'static,
) -> Tensor {
    let tag = x.tag().expect("a tracked input has a tag");
    let x_shape = x.shape().to_vec();
    let rule: Rule = Box::new(move |ct| {
        Ok(Tensor::from_col_major(
            &x_shape,
            pullback(&ct.to_col_major()),
        ))
    });
    record(tag, y, vec![(x, rule)])
}

/// `Mᵀ v` for the column-major matrix `M` with `rows` rows.
pub fn transpose_times(matrix: &[f64], rows: usize, v: &[f64]) -> Vec<f64> {
    matrix
        .chunks(rows.max(1))
        .map(|column| column.iter().zip(v).map(|(m, x)| m * x).sum())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposed_products_go_column_by_column() {
        // M = [1 3; 2 4] column-major; Mᵀ[1, 1] = [3, 7].
        assert_eq!(
            transpose_times(&[1.0, 2.0, 3.0, 4.0], 2, &[1.0, 1.0]),
            vec![3.0, 7.0]
        );
    }
}
