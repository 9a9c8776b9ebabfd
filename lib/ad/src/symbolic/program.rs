//! A function compiled from a symbolic tracing: recording it, and running it in place of the
//! function on every number kind (plain numbers, forward-mode duals, reverse-mode tapes, forward
//! over reverse; anything else replays the instructions with the primitives of that kind).
//!
//! How the graph becomes instructions is in [`super::compile`]; how they run is in
//! [`super::sweep`].

use super::compile::{compile, Instr, Op};
use super::guards::Guards;
use super::sweep::Sweep;
use crate::error::{AdError, Result};
use crate::ops::{self, BinaryFn};
use crate::tensor::{col_major_slice, Tag, Tensor};
use std::cell::RefCell;
use std::rc::Rc;

/// Why a function was not traced into a program.
#[derive(Debug, Clone, PartialEq)]
pub enum NotTraced {
    /// The output is not made of the traced input's operations (it carries derivatives).
    NotAGraph,
    /// The tracing would record more than [`super::MAX_NODES`] operations.
    TooLarge,
    /// The program's value at the recording input differs from the function's: the function
    /// reads values that a tracing does not have.
    Mismatch,
}

impl std::fmt::Display for NotTraced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NotTraced::NotAGraph => "its output is not computed from its input by traceable operations",
            NotTraced::TooLarge => "its tracing would record more than 2^24 scalar operations",
            NotTraced::Mismatch => {
                "the traced program gives another value than the function at the preparation input (the function reads values a tracing does not have)"
            }
        })
    }
}

/// A function compiled from a symbolic tracing.
#[derive(Debug)]
pub struct Program {
    pub(super) input_shape: Vec<usize>,
    pub(super) output_shape: Vec<usize>,
    /// Registers `0..inputs` hold the input elements.
    pub(super) inputs: usize,
    /// Registers holding constants, and their values.
    pub(super) constants: Vec<(u32, f64)>,
    pub(super) code: Vec<Instr>,
    pub(super) outputs: Vec<u32>,
    pub(super) registers: usize,
    /// The arithmetic kernels the tracing ran (see [`Program::scalar_code`]).
    pub(super) kernel_calls: usize,
    /// The comparisons of a tracing with values, checked before every run.
    pub(super) guards: Option<Box<Guards>>,
    /// Register values and tangent lanes, kept between calls.
    pub(super) values_scratch: RefCell<Vec<f64>>,
    pub(super) lanes_scratch: RefCell<Vec<f64>>,
}

impl Program {
    /// Traces `f` with a symbolic input of `x`'s shape and compiles what it recorded; `y` is
    /// `f(x)` computed on plain numbers, which the program must reproduce. The outer error is
    /// `f`'s own (under tracing: a comparison, or an operation without a symbolic rule).
    ///
    /// ```
    /// use difflab_ad::{ops, symbolic::Program, AdError, Tensor};
    /// let f = |x: &Tensor| -> Result<Tensor, AdError> { ops::sum_all(&ops::binary(ops::BinaryFn::Mul, x, x)?) };
    /// let x = Tensor::from_col_major(&[2], vec![1.0, 2.0]);
    /// let program = std::rc::Rc::new(Program::record(f, &x, &f(&x).unwrap()).unwrap().unwrap());
    /// let y = program.call(&Tensor::from_col_major(&[2], vec![3.0, 4.0])).unwrap();
    /// assert_eq!(y.primal()[[]], 25.0);
    /// ```
    pub fn record<E>(
        f: impl FnOnce(&Tensor) -> std::result::Result<Tensor, E>,
        x: &Tensor,
        y: &Tensor,
    ) -> std::result::Result<std::result::Result<Program, NotTraced>, E> {
        match super::input(x.shape()) {
            Ok(input) => Program::record_from(input, f, x, y),
            Err(_) => Ok(Err(NotTraced::TooLarge)),
        }
    }

    /// [`Program::record`] with a tracing that carries values, as forward mode, reverse mode
    /// and second order record: a comparison of traced numbers is answered, and its outcome is
    /// a guard that every run of the program checks (see [`super::guards`]), so a function
    /// that branches on values is recorded along the branches `x` takes.
    ///
    /// ```
    /// use difflab_ad::{ops, symbolic, symbolic::Program, AdError, Tensor};
    /// use std::rc::Rc;
    /// // f(x) = x > 1 ? x^2 : -x, with the comparison as the language makes it.
    /// let f = |x: &Tensor| -> Result<Tensor, AdError> {
    ///     let one = Tensor::scalar(1.0);
    ///     let above = match symbolic::compare(x, &one, Rc::new(|a, b| a > b)) {
    ///         Some(mask) => mask?[[]] == 1.0,
    ///         None => x.primal()[[]] > 1.0,
    ///     };
    ///     if above { ops::binary(ops::BinaryFn::Mul, x, x) } else { ops::unary(ops::UnaryFn::Neg, x) }
    /// };
    /// let x = Tensor::scalar(3.0);
    /// let program = Rc::new(Program::record_with_branches(f, &x, &f(&x).unwrap()).unwrap().unwrap());
    /// assert_eq!(program.call(&Tensor::scalar(4.0)).unwrap().primal()[[]], 16.0);
    /// assert!(!program.branches_hold(&[0.5]).unwrap());
    /// assert!(program.call(&Tensor::scalar(0.5)).is_err());
    /// // The last input where the branches held is remembered (a Jacobian runs the program
    /// // once per chunk at one input); any other input is checked again.
    /// assert!(program.branches_hold(&[4.0]).unwrap() && program.branches_hold(&[4.0]).unwrap());
    /// assert!(!program.branches_hold(&[0.5]).unwrap());
    /// assert!(program.call(&Tensor::scalar(0.5)).is_err());
    /// ```
    pub fn record_with_branches<E>(
        f: impl FnOnce(&Tensor) -> std::result::Result<Tensor, E>,
        x: &Tensor,
        y: &Tensor,
    ) -> std::result::Result<std::result::Result<Program, NotTraced>, E> {
        match super::input_with_values(x) {
            Ok(input) => Program::record_from(input, f, x, y),
            Err(_) => Ok(Err(NotTraced::TooLarge)),
        }
    }

    fn record_from<E>(
        input: Tensor,
        f: impl FnOnce(&Tensor) -> std::result::Result<Tensor, E>,
        x: &Tensor,
        y: &Tensor,
    ) -> std::result::Result<std::result::Result<Program, NotTraced>, E> {
        let Tensor::Symbolic(s) = &input else {
            unreachable!("symbolic input")
        };
        let graph = s.graph.clone();
        let out = f(&input);
        graph.finish();
        let out = out?;
        let outputs: Vec<u32> = match &out {
            Tensor::Symbolic(o) if Rc::ptr_eq(&o.graph, &graph) => super::ids(&o.ids),
            Tensor::Plain(a) => {
                let data = crate::tensor::col_major_data(a);
                match data.into_iter().map(|v| graph.constant(v)).collect() {
                    Ok(ids) => ids,
                    Err(_) => return Ok(Err(NotTraced::TooLarge)),
                }
            }
            _ => return Ok(Err(NotTraced::NotAGraph)),
        };
        let mut program = compile(
            &graph,
            x.len(),
            outputs.clone(),
            &outputs,
            x.shape(),
            out.shape(),
        );
        program.guards = Guards::of(&graph, x.shape());
        let agrees = match program.values(&x.to_col_major()) {
            Ok(values) => same_numbers(&values, &y.to_col_major()),
            Err(_) => false,
        };
        if !agrees || y.shape() != out.shape() {
            return Ok(Err(NotTraced::Mismatch));
        }
        Ok(Ok(program))
    }

    /// True when every comparison the recording answered has the same outcome at `x`
    /// (column-major), so the program computes the function there; always true for a tracing
    /// without values. An error is the function's own at `x`.
    pub fn branches_hold(&self, x: &[f64]) -> Result<bool> {
        match &self.guards {
            Some(guards) => guards.hold(x),
            None => Ok(true),
        }
    }

    /// How many comparisons every run checks.
    pub fn guard_count(&self) -> usize {
        self.guards.as_ref().map_or(0, |g| g.len())
    }

    /// The shape of the function's output.
    pub fn output_shape(&self) -> &[usize] {
        &self.output_shape
    }

    /// The number of instructions.
    pub fn len(&self) -> usize {
        self.code.len()
    }

    /// True when the traced function computed mostly on scalars: its instructions are not many
    /// more than the kernels it ran (`elements` per kernel at most, on average). Running such a
    /// function costs an interpreter far more than its arithmetic, and the program removes that
    /// cost; a function of whole-array operations already spends its time in compiled kernels,
    /// which a program of one instruction per element would only slow down.
    pub fn scalar_code(&self, elements: usize) -> bool {
        self.code.len() <= elements.saturating_mul(self.kernel_calls.max(1))
    }

    /// True when the output does not depend on the input through any operation.
    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }

    fn check_input(&self, x: &Tensor) -> Result<()> {
        if x.shape() == self.input_shape.as_slice() {
            return Ok(());
        }
        Err(AdError::Argument(format!(
            "the traced program was recorded for an input of size {:?}, not {:?}",
            self.input_shape,
            x.shape()
        )))
    }

    /// The function at `x`, for any number kind: plain numbers, forward-mode duals and
    /// reverse-mode tapes over plain numbers run the compiled instructions; anything nested
    /// replays them with the primitives of that kind.
    pub fn call(self: &Rc<Self>, x: &Tensor) -> Result<Tensor> {
        self.check_input(x)?;
        match x {
            Tensor::Plain(_) => {
                let y = self.values(&x.to_col_major())?;
                Ok(Tensor::from_col_major(&self.output_shape, y))
            }
            Tensor::Dual(d) if d.value.is_plain() && d.partials.iter().all(Tensor::is_plain) => {
                let seeds: Vec<_> = d
                    .partials
                    .iter()
                    .map(|p| col_major_slice(p.primal()))
                    .collect();
                let seeds: Vec<&[f64]> = seeds.iter().map(|s| &**s).collect();
                let (y, tangents) = self.pushforward(&d.value.to_col_major(), &seeds)?;
                let shape = &self.output_shape;
                Ok(Tensor::dual(
                    d.tag,
                    Tensor::from_col_major(shape, y),
                    tangents
                        .into_iter()
                        .map(|t| Tensor::from_col_major(shape, t))
                        .collect(),
                ))
            }
            Tensor::Tracked(tr) if tr.value.is_plain() => self.record_on_tape(tr.tag, x),
            Tensor::Tracked(tr) if plain_dual(&tr.value).is_some() => {
                self.record_second_order(tr.tag, x)
            }
            _ => self.replay(x),
        }
    }

    /// One tape node for the whole program, whose cotangent rule is the program's pullback.
    fn record_on_tape(self: &Rc<Self>, tag: Tag, x: &Tensor) -> Result<Tensor> {
        let point = crate::reverse::value_below(x, tag).to_col_major();
        let (y, _, sweep) = self.forward_sweep(&point, &[])?;
        let y = Tensor::from_col_major(&self.output_shape, y);
        let program = self.clone();
        let rule: crate::reverse::Rule = Box::new(move |ct: &Tensor| program.cotangent(&sweep, ct));
        let replayed = self.clone();
        Ok(crate::reverse::record_op(
            tag,
            y,
            vec![(x, rule)],
            &[x],
            move |args| replayed.call(&args[0]),
        ))
    }

    /// Forward over reverse: a tape node whose value is a dual (the program's pushforward along
    /// the input's directions) and whose cotangent rule returns `Jᵀ·ct` with its derivative
    /// along those directions (Hessian-vector products), from one sweep each way.
    fn record_second_order(self: &Rc<Self>, tag: Tag, x: &Tensor) -> Result<Tensor> {
        let dual = plain_dual(crate::reverse::value_below(x, tag)).expect("checked by call");
        let outer = dual.tag;
        let point = dual.value.to_col_major();
        let directions: Vec<Vec<f64>> = dual.partials.iter().map(Tensor::to_col_major).collect();
        let refs: Vec<&[f64]> = directions.iter().map(Vec::as_slice).collect();
        let (y, tangents, sweep) = self.forward_sweep(&point, &refs)?;
        let output = |data: Vec<f64>| Tensor::from_col_major(&self.output_shape, data);
        let value = Tensor::dual(outer, output(y), tangents.into_iter().map(output).collect());
        let program = self.clone();
        let rule: crate::reverse::Rule = Box::new(move |ct: &Tensor| {
            let (ct_value, ct_dot) = match ct.split(outer) {
                (v, None) if v.is_plain() => (v.to_col_major(), None),
                (v, Some(p)) if v.is_plain() && p.iter().all(Tensor::is_plain) => (
                    v.to_col_major(),
                    Some(p.iter().map(Tensor::to_col_major).collect::<Vec<_>>()),
                ),
                _ => {
                    return Err(AdError::NoRule {
                        function: "a traced program",
                        kind: "third-order",
                    })
                }
            };
            let (g, g_dot) = program.backward_second_order(&sweep, &ct_value, ct_dot.as_deref());
            let input = |data: Vec<f64>| Tensor::from_col_major(&program.input_shape, data);
            Ok(Tensor::dual(
                outer,
                input(g),
                g_dot.into_iter().map(input).collect(),
            ))
        });
        let replayed = self.clone();
        Ok(crate::reverse::record_op(
            tag,
            value,
            vec![(x, rule)],
            &[x],
            move |args| replayed.call(&args[0]),
        ))
    }

    /// `Jᵀ·ct` at the point of `sweep`, for a cotangent of any kind (the program is linear in
    /// it): plain cotangents run the backward sweep natively; others (a pullback differentiated
    /// with respect to its cotangent) run it with the primitives of their kind, one rank-0
    /// adjoint per register.
    fn cotangent(&self, sweep: &Sweep, ct: &Tensor) -> Result<Tensor> {
        if ct.is_plain() {
            let mut grads = self.backward(sweep, &[ct.to_col_major()]);
            return Ok(Tensor::from_col_major(
                &self.input_shape,
                grads.swap_remove(0),
            ));
        }
        let mut adjoint: Vec<Option<Tensor>> = vec![None; self.registers];
        let add = |sofar: Option<Tensor>, term: Tensor| match sofar {
            Some(s) => ops::binary(BinaryFn::Add, &s, &term),
            None => Ok(term),
        };
        for (i, &r) in self.outputs.iter().enumerate() {
            let slot = &mut adjoint[r as usize];
            *slot = Some(add(slot.take(), ops::gather(ct, &[i], &[])?)?);
        }
        // As in the native sweep, a register's adjoint belongs to the value defined there
        // until its definition is reached, which hands it on.
        for (ins, &(sa, sb)) in self.code.iter().zip(sweep.slopes()).rev() {
            let Some(seed) = adjoint[ins.out as usize].take() else {
                continue;
            };
            let mut pass = |register: u32, slope: f64| -> Result<()> {
                let term = ops::binary(BinaryFn::Mul, &Tensor::scalar(slope), &seed)?;
                let slot = &mut adjoint[register as usize];
                *slot = Some(add(slot.take(), term)?);
                Ok(())
            };
            pass(ins.a, sa)?;
            if ins.two {
                pass(ins.b, sb)?;
            }
        }
        let zero = Tensor::scalar(0.0);
        let gradient: Vec<Tensor> = adjoint[..self.inputs]
            .iter_mut()
            .map(|a| a.take().unwrap_or_else(|| zero.clone()))
            .collect();
        crate::di::primitives::stack(&gradient, &self.input_shape)
    }

    /// The program run with the primitives of `x`'s number kind, one rank-0 tensor per
    /// register.
    fn replay(&self, x: &Tensor) -> Result<Tensor> {
        if !self.branches_hold(&x.to_col_major())? {
            return Err(super::guards::branch_changed());
        }
        let mut registers = vec![Tensor::scalar(0.0); self.registers];
        for (k, register) in registers[..self.inputs].iter_mut().enumerate() {
            *register = ops::gather(x, &[k], &[])?;
        }
        for &(r, v) in &self.constants {
            registers[r as usize] = Tensor::scalar(v);
        }
        for ins in &self.code {
            let a = &registers[ins.a as usize];
            let b = &registers[ins.b as usize];
            registers[ins.out as usize] = match (ins.op, ins.op.binary_fn()) {
                (Op::Unary(f), _) => ops::unary(f, a)?,
                (_, Some(f)) => ops::binary(f, a, b)?,
                (_, None) => ops::binary(BinaryFn::Pow, a, &Tensor::scalar(2.0))?,
            };
        }
        let outputs: Vec<Tensor> = self
            .outputs
            .iter()
            .map(|&r| registers[r as usize].clone())
            .collect();
        crate::di::primitives::stack(&outputs, &self.output_shape)
    }
}

/// A dual whose value and partials are plain numbers.
fn plain_dual(t: &Tensor) -> Option<&crate::tensor::Dual> {
    match t {
        Tensor::Dual(d) if d.value.is_plain() && d.partials.iter().all(Tensor::is_plain) => Some(d),
        _ => None,
    }
}

/// Equal numbers up to rounding (a program may sum in another order than an array kernel), with
/// NaN where the other has NaN.
fn same_numbers(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(&p, &q)| {
            (p.is_nan() && q.is_nan())
                || p == q
                || (p - q).abs() <= 1e-9 * p.abs().max(q.abs()).max(1.0)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::AdError;
    use crate::ops::{self, BinaryFn, UnaryFn};

    fn vector(data: &[f64]) -> Tensor {
        Tensor::from_col_major(&[data.len()], data.to_vec())
    }

    /// `y = [sin(x₁)·x₂ + x₁², Σ exp(x) / 3, x₂ ^ 3]`: unary and binary operations, a sum, a
    /// constant operand and a gather.
    fn f(x: &Tensor) -> std::result::Result<Tensor, AdError> {
        let first = ops::gather(x, &[0], &[])?;
        let second = ops::gather(x, &[1], &[])?;
        let a = ops::binary(
            BinaryFn::Add,
            &ops::binary(BinaryFn::Mul, &ops::unary(UnaryFn::Sin, &first)?, &second)?,
            &ops::binary(BinaryFn::Pow, &first, &Tensor::scalar(2.0))?,
        )?;
        let b = ops::binary(
            BinaryFn::Div,
            &ops::sum_all(&ops::unary(UnaryFn::Exp, x)?)?,
            &Tensor::scalar(3.0),
        )?;
        let c = ops::binary(BinaryFn::Pow, &second, &Tensor::scalar(3.0))?;
        let parts: Vec<Tensor> = [a, b, c]
            .iter()
            .map(|t| ops::reshape(t, &[1]))
            .collect::<std::result::Result<_, _>>()?;
        ops::concat(&parts, 0)
    }

    fn program() -> Rc<Program> {
        let x = vector(&[0.5, -1.5, 2.0]);
        Rc::new(Program::record(f, &x, &f(&x).unwrap()).unwrap().unwrap())
    }

    #[test]
    fn values_pushforwards_and_pullbacks_match_the_function() {
        let p = program();
        let x = vector(&[1.2, 0.7, -0.3]);
        assert_eq!(
            p.call(&x).unwrap().to_col_major(),
            f(&x).unwrap().to_col_major()
        );
        let (_, jac) = crate::di::operators::value_and_jacobian(
            &mut |t: &Tensor| f(t),
            &crate::di::Backend::Forward { chunk: None },
            &x,
        )
        .unwrap();
        let (_, forward) = crate::di::operators::value_and_jacobian(
            &mut |t: &Tensor| p.call(t),
            &crate::di::Backend::Forward { chunk: None },
            &x,
        )
        .unwrap();
        let (_, reverse) = crate::di::operators::value_and_jacobian(
            &mut |t: &Tensor| p.call(t),
            &crate::di::Backend::Reverse { compile: false },
            &x,
        )
        .unwrap();
        for (got, expected) in [(&forward, &jac), (&reverse, &jac)] {
            for (g, e) in got.to_col_major().iter().zip(expected.to_col_major()) {
                assert!((g - e).abs() < 1e-12, "{got:?} vs {expected:?}");
            }
        }
    }

    #[test]
    fn an_operand_used_twice_counts_twice() {
        // x + x, x - x, x * x, x / x and hypot(x, x) read one register for both operands.
        let twice = |x: &Tensor| -> std::result::Result<Tensor, AdError> {
            let parts = [
                BinaryFn::Add,
                BinaryFn::Sub,
                BinaryFn::Mul,
                BinaryFn::Div,
                BinaryFn::Hypot,
            ]
            .into_iter()
            .map(|f| ops::binary(f, x, x))
            .collect::<std::result::Result<Vec<_>, _>>()?;
            ops::concat(&parts, 0)
        };
        let x = vector(&[1.5]);
        let p = Rc::new(
            Program::record(twice, &x, &twice(&x).unwrap())
                .unwrap()
                .unwrap(),
        );
        for backend in [
            crate::di::Backend::Forward { chunk: None },
            crate::di::Backend::Reverse { compile: false },
        ] {
            let (_, j) =
                crate::di::operators::value_and_jacobian(&mut |t: &Tensor| p.call(t), &backend, &x)
                    .unwrap();
            let expected = [2.0, 0.0, 3.0, 0.0, std::f64::consts::SQRT_2];
            for (g, e) in j.to_col_major().iter().zip(expected) {
                assert!((g - e).abs() < 1e-12, "{backend}: {:?}", j.to_col_major());
            }
        }
    }

    #[test]
    fn forward_over_reverse_runs_one_sweep_each_way() {
        // Hessians by forward over reverse (the program's own second-order sweep), and a
        // pullback whose input and cotangent both carry directions, against the function.
        let p = program();
        let x = vector(&[1.2, 0.7, -0.3]);
        let scalar = |g: &dyn Fn(&Tensor) -> Result<Tensor>, t: &Tensor| -> Result<Tensor> {
            let y = g(t)?;
            ops::sum_all(&ops::binary(BinaryFn::Mul, &y, &vector(&[1.0, -2.0, 0.5]))?)
        };
        let backend = crate::di::Backend::SecondOrder {
            outer: Box::new(crate::di::Backend::Forward { chunk: None }),
            inner: Box::new(crate::di::Backend::Reverse { compile: false }),
        };
        let hessian = |g: &dyn Fn(&Tensor) -> Result<Tensor>| {
            crate::di::operators::value_gradient_and_hessian(
                &mut |t: &Tensor| scalar(g, t),
                &backend,
                &x,
            )
            .unwrap()
            .2
            .to_col_major()
        };
        let (got, expected) = (hessian(&|t| p.call(t)), hessian(&|t| f(t)));
        for (g, e) in got.iter().zip(&expected) {
            assert!((g - e).abs() < 1e-12, "{got:?} vs {expected:?}");
        }
        let tag = Tag::fresh();
        let dual = |v: &[f64], d: &[f64]| Tensor::dual(tag, vector(v), vec![vector(d)]);
        let (xd, ct) = (
            dual(&[1.2, 0.7, -0.3], &[0.5, -1.0, 2.0]),
            dual(&[1.0, 0.0, 2.0], &[0.0, 3.0, -1.0]),
        );
        pullbacks_agree(&p, &xd, &ct, tag);
    }

    /// The program's reverse-mode pullback of `ct` at `x` and its derivative along `tag`, against
    /// the function's.
    fn pullbacks_agree(p: &Rc<Program>, x: &Tensor, ct: &Tensor, tag: Tag) {
        let pull = |g: &dyn Fn(&Tensor) -> Result<Tensor>| {
            let (_, mut out) = crate::di::primitives::pullback(
                &mut |t: &Tensor| g(t),
                &crate::di::Backend::Reverse { compile: false },
                x,
                std::slice::from_ref(ct),
            )
            .unwrap();
            let out = out.swap_remove(0);
            let (v, partials) = crate::di::primitives::split_dual(&out, tag, 1);
            [v.to_col_major(), partials[0].to_col_major()].concat()
        };
        let (got, expected) = (pull(&|t| p.call(t)), pull(&|t| f(t)));
        for (g, e) in got.iter().zip(&expected) {
            assert!((g - e).abs() < 1e-12, "{got:?} vs {expected:?}");
        }
    }

    #[test]
    fn a_cotangent_carrying_derivatives_runs_the_backward_sweep_with_primitives() {
        // A pullback at a plain point whose cotangent carries a direction: Jᵀ·ct and its
        // derivative Jᵀ·ċt, without a matrix of the outputs' size.
        let p = program();
        let x = vector(&[1.2, 0.7, -0.3]);
        let tag = Tag::fresh();
        let ct = Tensor::dual(
            tag,
            vector(&[1.0, 0.0, 2.0]),
            vec![vector(&[0.0, 3.0, -1.0])],
        );
        pullbacks_agree(&p, &x, &ct, tag);
    }

    #[test]
    fn nested_kinds_replay_with_primitives() {
        // Second order: duals over duals take the replay path.
        let p = program();
        let x = vector(&[1.2, 0.7, -0.3]);
        let h = |g: &dyn Fn(&Tensor) -> Result<Tensor>| {
            let scalar = |t: &Tensor| ops::sum_all(&g(t)?);
            let backend = crate::di::Backend::SecondOrder {
                outer: Box::new(crate::di::Backend::Forward { chunk: None }),
                inner: Box::new(crate::di::Backend::Forward { chunk: None }),
            };
            crate::di::operators::value_gradient_and_hessian(
                &mut |t: &Tensor| scalar(t),
                &backend,
                &x,
            )
            .unwrap()
            .2
            .to_col_major()
        };
        assert_eq!(h(&|t| p.call(t)), h(&|t| f(t)));
    }

    #[test]
    fn reading_values_under_tracing_is_refused() {
        // A function that reads its input's numbers directly bakes NaN into the program.
        let reads = |x: &Tensor| -> std::result::Result<Tensor, AdError> {
            ops::binary(BinaryFn::Mul, x, &Tensor::scalar(x.primal()[[]]))
        };
        let x = Tensor::scalar(2.0);
        let outcome = Program::record(reads, &x, &reads(&x).unwrap()).unwrap();
        assert_eq!(outcome.err(), Some(NotTraced::Mismatch));
        let dual = |_: &Tensor| -> std::result::Result<Tensor, AdError> {
            Ok(Tensor::dual(
                Tag::fresh(),
                Tensor::scalar(1.0),
                vec![Tensor::scalar(1.0)],
            ))
        };
        assert_eq!(
            Program::record(dual, &x, &x).unwrap().err(),
            Some(NotTraced::NotAGraph)
        );
    }

    #[test]
    fn domain_errors_are_raised_at_evaluation() {
        let root = |x: &Tensor| ops::unary(UnaryFn::Sqrt, x);
        let x = Tensor::scalar(4.0);
        let p = Rc::new(
            Program::record(root, &x, &root(&x).unwrap())
                .unwrap()
                .unwrap(),
        );
        assert!(matches!(
            p.call(&Tensor::scalar(-1.0)),
            Err(AdError::Domain {
                function: "sqrt",
                ..
            })
        ));
    }
}
