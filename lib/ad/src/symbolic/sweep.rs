//! Running a compiled program: values, pushforwards of up to [`SYMBOLIC_LANES`] tangents at once
//! (every register carries a block of tangent lanes next to its value, and one instruction
//! updates them all), compressed Jacobians, and backward sweeps (first order, and forward over
//! reverse for Hessian-vector products).

use super::compile::{Instr, Op};
use super::program::Program;
use super::slopes;
use crate::di::backend::SYMBOLIC_LANES;
use crate::error::Result;
use crate::ops::tracing::zero_slope;
use crate::tracer::{empty, union, IndexSet};

impl Program {
    /// The outputs at `x`, their derivatives along `directions`, and what a backward sweep
    /// needs: each instruction's slopes and, with directions, their derivatives along each.
    pub(super) fn forward_sweep(
        &self,
        x: &[f64],
        directions: &[&[f64]],
    ) -> Result<(Vec<f64>, Vec<Vec<f64>>, Sweep)> {
        let lanes = directions.len();
        let mut v = self.load(x)?;
        let mut dot = vec![0.0; self.registers * lanes];
        for (l, d) in directions.iter().enumerate() {
            for (k, &dk) in d.iter().enumerate() {
                dot[k * lanes + l] = dk;
            }
        }
        let mut slopes = Vec::with_capacity(self.code.len());
        let mut turns = Vec::with_capacity(self.code.len() * 2 * lanes);
        let mut out = vec![0.0; lanes];
        let run = self.code.iter().try_for_each(|ins| {
            let (y, sa, sb) = local(ins, &v)?;
            if lanes > 0 {
                let (xx, xz, zz) = curvatures(ins, &v, y, sa);
                let (a, b, o) = (
                    ins.a as usize * lanes,
                    ins.b as usize * lanes,
                    ins.out as usize * lanes,
                );
                for l in 0..lanes {
                    let (da, db) = (dot[a + l], if ins.two { dot[b + l] } else { 0.0 });
                    turns.push(xx * da + xz * db);
                    turns.push(xz * da + zz * db);
                    out[l] = sa * da + sb * db;
                }
                dot[o..o + lanes].copy_from_slice(&out);
            }
            slopes.push((sa, sb));
            v[ins.out as usize] = y;
            Ok(())
        });
        let y = self.outputs.iter().map(|&r| v[r as usize]).collect();
        self.values_scratch.replace(v);
        run?;
        let tangents = (0..lanes)
            .map(|l| {
                self.outputs
                    .iter()
                    .map(|&r| dot[r as usize * lanes + l])
                    .collect()
            })
            .collect();
        Ok((
            y,
            tangents,
            Sweep {
                slopes,
                turns,
                lanes,
            },
        ))
    }

    /// `Jᵀ·c` for each cotangent `c` (column-major), all in one backward sweep.
    pub(super) fn backward(&self, sweep: &Sweep, cotangents: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let lanes = cotangents.len();
        let mut adj = vec![0.0; self.registers * lanes];
        for (l, c) in cotangents.iter().enumerate() {
            for (&r, &ci) in self.outputs.iter().zip(c) {
                adj[r as usize * lanes + l] += ci;
            }
        }
        // Backwards, a register's adjoint belongs to the value defined there until its
        // definition is reached, which hands it on and clears it for the value held before.
        let mut seed = vec![0.0; lanes];
        for (ins, &(sa, sb)) in self.code.iter().zip(&sweep.slopes).rev() {
            let o = ins.out as usize * lanes;
            seed.copy_from_slice(&adj[o..o + lanes]);
            adj[o..o + lanes].fill(0.0);
            let (a, b) = (ins.a as usize * lanes, ins.b as usize * lanes);
            for (d, s) in adj[a..a + lanes].iter_mut().zip(&seed) {
                *d += sa * s;
            }
            if ins.two {
                for (d, s) in adj[b..b + lanes].iter_mut().zip(&seed) {
                    *d += sb * s;
                }
            }
        }
        (0..lanes)
            .map(|l| (0..self.inputs).map(|k| adj[k * lanes + l]).collect())
            .collect()
    }

    /// `Jᵀ·ct` and its derivative along each direction of `sweep`, `ct_dot` being the
    /// cotangent's own (none: a constant cotangent).
    pub(super) fn backward_second_order(
        &self,
        sweep: &Sweep,
        ct: &[f64],
        ct_dot: Option<&[Vec<f64>]>,
    ) -> (Vec<f64>, Vec<Vec<f64>>) {
        let lanes = sweep.lanes;
        let mut adj = vec![0.0; self.registers];
        let mut adj_dot = vec![0.0; self.registers * lanes];
        for (i, &r) in self.outputs.iter().enumerate() {
            adj[r as usize] += ct[i];
            for (l, c) in ct_dot.unwrap_or_default().iter().enumerate() {
                adj_dot[r as usize * lanes + l] += c[i];
            }
        }
        let mut seed = vec![0.0; lanes];
        for (index, (ins, &(sa, sb))) in self.code.iter().zip(&sweep.slopes).enumerate().rev() {
            let (a, b, o) = (ins.a as usize, ins.b as usize, ins.out as usize);
            let t = std::mem::take(&mut adj[o]);
            seed.copy_from_slice(&adj_dot[o * lanes..(o + 1) * lanes]);
            adj_dot[o * lanes..(o + 1) * lanes].fill(0.0);
            let turn = &sweep.turns[index * 2 * lanes..(index + 1) * 2 * lanes];
            adj[a] += sa * t;
            for l in 0..lanes {
                adj_dot[a * lanes + l] += sa * seed[l] + turn[2 * l] * t;
            }
            if ins.two {
                adj[b] += sb * t;
                for l in 0..lanes {
                    adj_dot[b * lanes + l] += sb * seed[l] + turn[2 * l + 1] * t;
                }
            }
        }
        let g = adj[..self.inputs].to_vec();
        let g_dot = (0..lanes)
            .map(|l| (0..self.inputs).map(|k| adj_dot[k * lanes + l]).collect())
            .collect();
        (g, g_dot)
    }

    /// The registers loaded with `x` and the constants, in the reused scratch buffer; an error
    /// when `x` takes another branch than the recording.
    pub(super) fn load(&self, x: &[f64]) -> Result<Vec<f64>> {
        if !self.branches_hold(x)? {
            return Err(super::guards::branch_changed());
        }
        let mut values = self.values_scratch.take();
        values.resize(self.registers, 0.0);
        values[..self.inputs].copy_from_slice(x);
        for &(r, v) in &self.constants {
            values[r as usize] = v;
        }
        Ok(values)
    }

    /// The outputs at `x` (column-major).
    pub fn values(&self, x: &[f64]) -> Result<Vec<f64>> {
        self.with_values(x, |out| (0..out.len()).map(|k| out.get(k)).collect())
    }

    /// Runs the program at `x` and lets `read` take its outputs where they are (a large
    /// program's outputs go straight where they belong, without a vector of them in between).
    pub fn with_values<T>(&self, x: &[f64], read: impl FnOnce(Outputs<'_>) -> T) -> Result<T> {
        let mut v = self.load(x)?;
        let run = self.code.iter().try_for_each(|ins| {
            v[ins.out as usize] = value(ins, &v)?;
            Ok(())
        });
        let result = run.map(|()| {
            read(Outputs {
                registers: &v,
                outputs: &self.outputs,
            })
        });
        self.values_scratch.replace(v);
        result
    }

    /// The outputs at `x` and `J·t` for each tangent `t` (column-major): one pass per
    /// [`SYMBOLIC_LANES`] tangents.
    pub fn pushforward(&self, x: &[f64], tangents: &[&[f64]]) -> Result<(Vec<f64>, Vec<Vec<f64>>)> {
        let mut y = None;
        let mut out = Vec::with_capacity(tangents.len());
        for group in tangents.chunks(SYMBOLIC_LANES) {
            let (values, tangents) = self.pushforward_lanes(x, group)?;
            y.get_or_insert(values);
            out.extend(tangents);
        }
        match y {
            Some(y) => Ok((y, out)),
            None => Ok((self.values(x)?, out)),
        }
    }

    fn pushforward_lanes(
        &self,
        x: &[f64],
        tangents: &[&[f64]],
    ) -> Result<(Vec<f64>, Vec<Vec<f64>>)> {
        let m = self.outputs.len();
        let mut out = vec![vec![0.0; m]; tangents.len()];
        let y = self.run(
            tangents.len(),
            x,
            &|k, block| {
                for (d, t) in block.iter_mut().zip(tangents) {
                    *d = t[k];
                }
            },
            &mut |i, lanes| {
                for (o, &d) in out.iter_mut().zip(lanes) {
                    o[i] = d;
                }
            },
        )?;
        Ok((y, out))
    }

    /// The outputs at `x` and the rows of the compressed Jacobian, whose column `c` is the sum
    /// of the Jacobian's columns `groups[c]` (one lane per group, each input seeded with its
    /// group's unit lane): `emit(i, first, lanes)` receives output `i`'s lanes for the groups
    /// `first..first + lanes.len()` (one pass per [`SYMBOLIC_LANES`] groups).
    pub fn compressed_jacobian(
        &self,
        x: &[f64],
        groups: &[Vec<usize>],
        emit: &mut dyn FnMut(usize, usize, &[f64]),
    ) -> Result<Vec<f64>> {
        let mut group_of = vec![usize::MAX; self.inputs];
        for (c, group) in groups.iter().enumerate() {
            for &k in group {
                group_of[k] = c;
            }
        }
        let mut y = None;
        for first in (0..groups.len()).step_by(SYMBOLIC_LANES) {
            let width = (groups.len() - first).min(SYMBOLIC_LANES);
            let values = self.run(
                width,
                x,
                &|k, block| {
                    block.fill(0.0);
                    if let Some(lane) = group_of[k].checked_sub(first).filter(|&l| l < width) {
                        block[lane] = 1.0;
                    }
                },
                &mut |i, lanes| emit(i, first, &lanes[..width]),
            )?;
            y.get_or_insert(values);
        }
        match y {
            Some(y) => Ok(y),
            None => self.values(x),
        }
    }

    /// One pass with `width` (at most [`SYMBOLIC_LANES`]) tangent lanes: `seed(k, block)` sets
    /// input `k`'s lanes, `emit(i, lanes)` receives output `i`'s. The lanes are rounded up to one
    /// of a few block sizes so that each instruction updates a fixed-size block (unrolled, no
    /// copy calls).
    fn run(
        &self,
        width: usize,
        x: &[f64],
        seed: &dyn Fn(usize, &mut [f64]),
        emit: &mut dyn FnMut(usize, &[f64]),
    ) -> Result<Vec<f64>> {
        match width {
            0 | 1 => self.run_block::<1>(x, seed, emit),
            2 => self.run_block::<2>(x, seed, emit),
            3 | 4 => self.run_block::<4>(x, seed, emit),
            5..=8 => self.run_block::<8>(x, seed, emit),
            // ForwardDiff's chunk, and the color count of many stencils.
            9..=12 => self.run_block::<12>(x, seed, emit),
            13..=16 => self.run_block::<16>(x, seed, emit),
            _ => self.run_block::<SYMBOLIC_LANES>(x, seed, emit),
        }
    }

    fn run_block<const L: usize>(
        &self,
        x: &[f64],
        seed: &dyn Fn(usize, &mut [f64]),
        emit: &mut dyn FnMut(usize, &[f64]),
    ) -> Result<Vec<f64>> {
        let mut v = self.load(x)?;
        let mut dot = self.lanes_scratch.take();
        dot.resize(self.registers * L, 0.0);
        for k in 0..self.inputs {
            let block = &mut dot[k * L..(k + 1) * L];
            block.fill(0.0);
            seed(k, block);
        }
        for &(r, _) in &self.constants {
            dot[r as usize * L..(r as usize + 1) * L].fill(0.0);
        }
        let lane = |dot: &[f64], r: u32| -> [f64; L] {
            let start = r as usize * L;
            dot[start..start + L]
                .try_into()
                .expect("a block of L lanes")
        };
        let run = self.code.iter().try_for_each(|ins| {
            let (y, sa, sb) = local(ins, &v)?;
            let da = lane(&dot, ins.a);
            let out: [f64; L] = if ins.two {
                let db = lane(&dot, ins.b);
                std::array::from_fn(|l| sa * da[l] + sb * db[l])
            } else {
                std::array::from_fn(|l| sa * da[l])
            };
            let o = ins.out as usize * L;
            dot[o..o + L].copy_from_slice(&out);
            v[ins.out as usize] = y;
            Ok(())
        });
        let y = self.outputs.iter().map(|&r| v[r as usize]).collect();
        if run.is_ok() {
            for (i, &r) in self.outputs.iter().enumerate() {
                emit(i, &dot[r as usize * L..(r as usize + 1) * L]);
            }
        }
        self.values_scratch.replace(v);
        self.lanes_scratch.replace(dot);
        run.map(|()| y)
    }

    /// The outputs at `x` and `Jᵀ·c` for each cotangent `c` (column-major), all in one backward
    /// sweep.
    pub fn pullback(
        &self,
        x: &[f64],
        cotangents: &[Vec<f64>],
    ) -> Result<(Vec<f64>, Vec<Vec<f64>>)> {
        let (y, _, sweep) = self.forward_sweep(x, &[])?;
        Ok((y, self.backward(&sweep, cotangents)))
    }
}

impl Program {
    /// The Jacobian's structural nonzeros `(output, input)`: index sets carried through the
    /// instructions with the rules of sparsity tracers (a zero-slope function drops a
    /// dependency), exact for every input since a program has no branches.
    pub fn jacobian_entries(&self) -> Vec<(usize, usize)> {
        let mut sets: Vec<IndexSet> = vec![empty(); self.registers];
        for (k, set) in sets.iter_mut().enumerate().take(self.inputs) {
            *set = std::rc::Rc::from(vec![k as u32]);
        }
        for ins in &self.code {
            let (a, b) = (ins.a as usize, ins.b as usize);
            let set = match (ins.op, ins.op.binary_fn()) {
                (Op::Unary(f), _) if zero_slope(f) => empty(),
                (_, None) => sets[a].clone(),
                (_, Some(_)) => union(&sets[a], &sets[b]),
            };
            sets[ins.out as usize] = set;
        }
        self.outputs
            .iter()
            .enumerate()
            .flat_map(|(i, &r)| {
                sets[r as usize]
                    .iter()
                    .map(move |&j| (i, j as usize))
                    .collect::<Vec<_>>()
            })
            .collect()
    }
}

/// A program's outputs after a run, read in place.
#[derive(Debug, Clone, Copy)]
pub struct Outputs<'a> {
    registers: &'a [f64],
    outputs: &'a [u32],
}

impl Outputs<'_> {
    /// The number of outputs.
    pub fn len(&self) -> usize {
        self.outputs.len()
    }

    /// True for a program without outputs.
    pub fn is_empty(&self) -> bool {
        self.outputs.is_empty()
    }

    /// Output `k`.
    #[inline]
    pub fn get(&self, k: usize) -> f64 {
        self.registers[self.outputs[k] as usize]
    }

    /// Outputs `range` into `dest`.
    pub fn copy_into(&self, range: std::ops::Range<usize>, dest: &mut [f64]) {
        for (d, &r) in dest.iter_mut().zip(&self.outputs[range]) {
            *d = self.registers[r as usize];
        }
    }
}

/// What a backward sweep needs from the forward one: each instruction's slopes and, with
/// `lanes` tangent directions, their derivatives along each (two per lane: for `a`, for `b`).
#[derive(Debug)]
pub(super) struct Sweep {
    slopes: Vec<(f64, f64)>,
    turns: Vec<f64>,
    lanes: usize,
}

impl Sweep {
    /// Each instruction's slopes with respect to `a` and `b`.
    pub(super) fn slopes(&self) -> &[(f64, f64)] {
        &self.slopes
    }
}

/// An instruction's second derivatives `(∂²/∂a², ∂²/∂a∂b, ∂²/∂b²)`, given its value `y` and
/// slope `sa` (terms with a constant `b` are 0).
fn curvatures(ins: &Instr, v: &[f64], y: f64, sa: f64) -> (f64, f64, f64) {
    let (x, z) = (v[ins.a as usize], v[ins.b as usize]);
    match ins.op {
        Op::Add | Op::Sub => (0.0, 0.0, 0.0),
        Op::Mul => (0.0, f64::from(u8::from(ins.two)), 0.0),
        Op::Square => (2.0, 0.0, 0.0),
        Op::Unary(f) => (f.curvature(x, y, sa), 0.0, 0.0),
        Op::Binary(f) => f.curvatures(x, z, y, ins.two),
    }
}

/// An instruction's value.
#[inline(always)]
fn value(ins: &Instr, v: &[f64]) -> Result<f64> {
    let x = v[ins.a as usize];
    let z = v[ins.b as usize];
    // Arithmetic (most instructions) picks its result without a jump: in mixed code the
    // processor cannot predict which kernel comes next.
    if let Some(k) = ins.op.arithmetic() {
        return Ok([x + z, x - z, x * z][k]);
    }
    Ok(match ins.op {
        Op::Add | Op::Sub | Op::Mul | Op::Square => unreachable!("arithmetic"),
        Op::Unary(f) => {
            slopes::check_unary_domain(f, x)?;
            f.apply(x)
        }
        Op::Binary(f) => {
            slopes::check_binary_domain(f, x, z)?;
            f.apply(x, z)
        }
    })
}

/// An instruction's value and its slopes with respect to `a` and `b` (`b`'s is unused unless
/// the instruction has two varying operands).
#[inline(always)]
fn local(ins: &Instr, v: &[f64]) -> Result<(f64, f64, f64)> {
    let x = v[ins.a as usize];
    let z = v[ins.b as usize];
    Ok(match ins.op {
        Op::Add => (x + z, 1.0, 1.0),
        Op::Sub => (x - z, 1.0, -1.0),
        Op::Mul => (x * z, z, x),
        Op::Square => (x * x, 2.0 * x, 0.0),
        Op::Unary(f) => {
            slopes::check_unary_domain(f, x)?;
            let y = f.apply(x);
            (y, f.slope(x, y), 0.0)
        }
        Op::Binary(f) => {
            slopes::check_binary_domain(f, x, z)?;
            let y = f.apply(x, z);
            let (sa, sb) = f.slopes(x, z, y, ins.two);
            (y, sa, sb)
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::error::AdError;
    use crate::ops::{self, BinaryFn};
    use crate::symbolic::Program;
    use crate::tensor::Tensor;

    #[test]
    fn compressed_jacobians_take_a_lane_per_group_in_passes_of_at_most_32() {
        // y_i = x_i · x_{i+1}: 40 single-column groups need two passes; two interleaved groups
        // (even and odd columns) give the compressed form of the same matrix.
        let n = 40;
        let f = |x: &Tensor| -> std::result::Result<Tensor, AdError> {
            let head = ops::gather(x, &(0..n - 1).collect::<Vec<_>>(), &[n - 1])?;
            let tail = ops::gather(x, &(1..n).collect::<Vec<_>>(), &[n - 1])?;
            ops::binary(BinaryFn::Mul, &head, &tail)
        };
        let x = Tensor::from_col_major(&[n], (0..n).map(|k| 1.0 + k as f64).collect());
        let p = Program::record(f, &x, &f(&x).unwrap()).unwrap().unwrap();
        let compressed = |groups: &[Vec<usize>]| {
            let mut b = ndarray::Array2::zeros((n - 1, groups.len()));
            let y = p
                .compressed_jacobian(&x.to_col_major(), groups, &mut |i, first, lanes| {
                    for (l, &d) in lanes.iter().enumerate() {
                        b[[i, first + l]] = d;
                    }
                })
                .unwrap();
            (y, b)
        };
        let singles: Vec<Vec<usize>> = (0..n).map(|k| vec![k]).collect();
        let (y, b) = compressed(&singles);
        assert_eq!(y, f(&x).unwrap().to_col_major());
        let (_, j) = crate::di::operators::value_and_jacobian(
            &mut |t: &Tensor| f(t),
            &crate::di::Backend::Forward { chunk: None },
            &x,
        )
        .unwrap();
        assert_eq!(b.t().iter().copied().collect::<Vec<_>>(), j.to_col_major());
        let parity = vec![(0..n).step_by(2).collect(), (1..n).step_by(2).collect()];
        let (_, c) = compressed(&parity);
        for i in 0..n - 1 {
            let (even, odd) = if i % 2 == 0 { (i, i + 1) } else { (i + 1, i) };
            assert_eq!(c[[i, 0]], j.primal()[[i, even]]);
            assert_eq!(c[[i, 1]], j.primal()[[i, odd]]);
        }
    }

    #[test]
    fn jacobian_entries_follow_the_tracer_rules() {
        // A product, a zero-slope function, a constant zero factor, a sum and a power with a
        // constant zero exponent: the same pattern as global sparsity tracers, which never let
        // a constant's value remove a dependency.
        let f = |x: &Tensor| -> std::result::Result<Tensor, AdError> {
            let at = |k: usize| ops::gather(x, &[k], &[]);
            let parts = [
                ops::binary(BinaryFn::Mul, &at(0)?, &at(1)?)?,
                ops::binary(
                    BinaryFn::Add,
                    &ops::unary(ops::UnaryFn::Sign, &at(2)?)?,
                    &at(3)?,
                )?,
                ops::binary(BinaryFn::Mul, &Tensor::scalar(0.0), &at(4)?)?,
                ops::sum_all(x)?,
                ops::binary(BinaryFn::Pow, &at(1)?, &Tensor::scalar(0.0))?,
            ];
            let parts: Vec<Tensor> = parts
                .iter()
                .map(|t| ops::reshape(t, &[1]))
                .collect::<std::result::Result<_, _>>()?;
            ops::concat(&parts, 0)
        };
        let x = Tensor::from_col_major(&[5], vec![1.0, 2.0, 3.0, 4.0, 5.0]);
        let p = Program::record(f, &x, &f(&x).unwrap()).unwrap().unwrap();
        let mut got = p.jacobian_entries();
        got.sort_unstable();
        let traced =
            crate::di::sparse::jacobian_sparsity(&mut |t: &Tensor| f(t), &x, false).unwrap();
        let mut expected: Vec<(usize, usize)> = traced.entries().collect();
        expected.sort_unstable();
        assert_eq!(got, expected);
        assert_eq!(got.len(), 2 + 1 + 1 + 5 + 1);
    }
}
