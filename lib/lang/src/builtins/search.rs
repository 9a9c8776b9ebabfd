//! Searching and sorting: `findall`, `findfirst`, `any`, `all`, `count` (of Bool arrays or
//! of a predicate over a collection), and `sort`/`sortperm` with `by`, `lt` and `rev`.
//!
//! Sorts of numbers run on the numbers themselves ([`sort_numbers`]: blocks sorted in place,
//! then merged); other keys and user orders go through a merge sort by a fallible `less`. Both
//! poll the interrupt flag ([`Poll`]) as they go, so sorting millions of elements stops within
//! milliseconds of an interrupt.

use super::arrays::regather;
use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::{Interp, Poll};
use crate::show::ElType;
use crate::value::convert::operand;
use crate::value::iterate::{elements, iterate};
use crate::value::Value;

fn bool_values(v: &Value, name: &str, poll: &mut Poll) -> Result<Vec<bool>, Flow> {
    if let Value::Array(a) = v {
        let a = a.borrow();
        if a.eltype == ElType::Bool && a.data.is_plain() {
            // A Bool array is read as numbers, a block at a time, without a value per element.
            let data = difflab_ad::tensor::col_major_slice(a.data.primal());
            let mut flags = Vec::with_capacity(data.len());
            for block in data.chunks(1 << 16) {
                poll.check()?;
                flags.extend(block.iter().map(|&x| x != 0.0));
            }
            return Ok(flags);
        }
    }
    elements(v)?
        .iter()
        .map(|x| match x {
            Value::Bool(b) => Ok(*b),
            other if crate::value::convert::is_global_traced(other) => {
                Err(crate::value::convert::global_condition_error())
            }
            other => Err(fail(
                ErrorKind::TypeError,
                format!(
                    "{name}: non-boolean ({}) used in boolean context",
                    other.type_name()
                ),
            )),
        })
        .collect()
}

/// Calls `visit` with the truth values of `args` in order (a Bool collection, or a predicate
/// and a collection walked lazily, so `count(iseven, 1:10^10)` builds nothing) until it
/// returns `false`: `any` and `all` stop at their answer, as Julia's do.
/// `f.(v)` as compiled code in one loop, in `v`'s linear order, when `f` is a user predicate
/// over a plain array whose code returns a `Bool`; `None` to call `f` element by element
/// (which also raises the errors of a predicate returning something else).
pub(crate) fn compiled_mask(
    interp: &mut Interp,
    f: &Value,
    v: &Value,
) -> Result<Option<Vec<bool>>, Flow> {
    // Not a range: the predicates walk it lazily and stop early (`any(p, 1:10^15)`).
    if !matches!(v, Value::Array(_)) {
        return Ok(None);
    }
    let Some(mask) = interp.broadcast_compiled(f, std::slice::from_ref(v)) else {
        return Ok(None);
    };
    match mask? {
        Value::Array(a) if a.borrow().eltype == ElType::Bool => Ok(Some(
            a.borrow()
                .data
                .to_col_major()
                .iter()
                .map(|&b| b != 0.0)
                .collect(),
        )),
        _ => Ok(None),
    }
}

fn visit_truths(
    interp: &mut Interp,
    args: &Args,
    name: &str,
    mut visit: impl FnMut(bool) -> bool,
) -> Result<(), Flow> {
    let mut poll = interp.poll();
    match args.pos.as_slice() {
        [v] => {
            for b in bool_values(v, name, &mut poll)? {
                if !visit(b) {
                    break;
                }
            }
            Ok(())
        }
        [f, v] => {
            if let Some(mask) = compiled_mask(interp, f, v)? {
                for b in mask {
                    if !visit(b) {
                        break;
                    }
                }
                return Ok(());
            }
            for x in iterate(v)? {
                // A builtin predicate does not poll the flag itself.
                poll.tick()?;
                // `findfirst('l', s)`: a character searched in a string is `isequal(c)`.
                if let (Value::Char(c), Value::Str(_)) = (f, v) {
                    if !visit(matches!(x, Value::Char(d) if d == *c)) {
                        break;
                    }
                    continue;
                }
                let b = match interp.call(f, vec![x])? {
                    Value::Bool(b) => b,
                    other => {
                        return Err(fail(
                            ErrorKind::TypeError,
                            format!("{name}: predicate returned a {}", other.type_name()),
                        ))
                    }
                };
                if !visit(b) {
                    break;
                }
            }
            Ok(())
        }
        _ => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name} with {} arguments",
                args.pos.len()
            ),
        )),
    }
}

fn findall_(interp: &mut Interp, args: Args) -> EvalResult {
    if args
        .pos
        .first()
        .is_some_and(|v| super::regex::as_regex(v).is_some())
    {
        return super::regex::findall(interp, &args);
    }
    let mut idx = Vec::new();
    let mut position = 0.0;
    visit_truths(interp, &args, "findall", |b| {
        position += 1.0;
        if b {
            idx.push(position);
        }
        true
    })?;
    if let Some(Value::Str(s)) = args.pos.last() {
        // Positions counted by character are string indices, counted by byte.
        let starts = super::string_index::char_starts(s);
        idx = idx.iter().map(|&p| starts[p as usize - 1]).collect();
    }
    if let Some(shape) = searched_shape(&args) {
        let positions = idx
            .iter()
            .map(|&p| super::cartesian::position(&shape, p as usize - 1))
            .collect();
        return Ok(Value::list(positions));
    }
    let n = idx.len();
    Ok(super::array(ElType::Int64, &[n], idx))
}

fn findfirst_(interp: &mut Interp, args: Args) -> EvalResult {
    find_one(interp, &args, Direction::First)
}

fn findlast_(interp: &mut Interp, args: Args) -> EvalResult {
    find_one(interp, &args, Direction::Last)
}

fn findnext_(interp: &mut Interp, args: Args) -> EvalResult {
    find_from(interp, args, "findnext", Direction::First)
}

fn findprev_(interp: &mut Interp, args: Args) -> EvalResult {
    find_from(interp, args, "findprev", Direction::Last)
}

/// Which of the matching positions a search reports.
#[derive(Clone, Copy)]
enum Direction {
    First,
    Last,
}

/// `findnext(pred, xs, i)` / `findprev(pred, xs, i)` (and their string forms): the search of
/// `findfirst`/`findlast` limited to positions from `i` on, or up to `i`.
fn find_from(interp: &mut Interp, args: Args, name: &str, direction: Direction) -> EvalResult {
    args.arity(name, 3, 3)?;
    let start = super::to_int(&args.pos[2], name)?;
    let searched = args.pos[..2].to_vec();
    let args = args.with_positional(searched);
    if let [Value::Str(pattern), Value::Str(text)] = args.pos.as_slice() {
        return substring(pattern, text, direction, Some(start));
    }
    if let [Value::Str(_), _] | [_, Value::Str(_)] = args.pos.as_slice() {
        return Err(args.no_method(name));
    }
    let positions = truth_positions(interp, &args, name)?;
    let found = match direction {
        Direction::First => positions.into_iter().find(|&p| p >= start),
        Direction::Last => positions.into_iter().rev().find(|&p| p <= start),
    };
    Ok(found.map_or(Value::Nothing, |p| position_value(&args, p)))
}

fn find_one(interp: &mut Interp, args: &Args, direction: Direction) -> EvalResult {
    let name = match direction {
        Direction::First => "findfirst",
        Direction::Last => "findlast",
    };
    if args
        .pos
        .first()
        .is_some_and(|v| super::regex::as_regex(v).is_some())
    {
        return match direction {
            Direction::First => super::regex::findfirst(args),
            Direction::Last => Err(args.no_method(name)),
        };
    }
    if let [Value::Str(pattern), Value::Str(text)] = args.pos.as_slice() {
        return substring(pattern, text, direction, None);
    }
    let found = match direction {
        Direction::First => {
            let mut position = 0;
            let mut found = false;
            visit_truths(interp, args, name, |b| {
                position += 1;
                found = b;
                !b
            })?;
            found.then_some(position)
        }
        Direction::Last => truth_positions(interp, args, name)?.pop(),
    };
    Ok(found.map_or(Value::Nothing, |p| position_value(args, p)))
}

/// Every 1-based position (in iteration order) where the condition of `args` holds.
fn truth_positions(interp: &mut Interp, args: &Args, name: &str) -> Result<Vec<i64>, Flow> {
    let mut positions = Vec::new();
    let mut position = 0;
    visit_truths(interp, args, name, |b| {
        position += 1;
        if b {
            positions.push(position);
        }
        true
    })?;
    Ok(positions)
}

/// The index the language sees for the 1-based `position` of the searched value: a string
/// index for a string, a `CartesianIndex` for an array of two or more dimensions.
fn position_value(args: &Args, position: i64) -> Value {
    match (args.pos.last(), searched_shape(args)) {
        (Some(Value::Str(s)), _) => {
            Value::Int(super::string_index::byte_index_of_char(s, position as usize - 1) as i64)
        }
        (_, Some(shape)) => super::cartesian::position(&shape, position as usize - 1),
        _ => Value::Int(position),
    }
}

/// The indices (a range) of the first or last occurrence of `pattern` in `text`, starting
/// the search at string index `from` when given (`findnext`/`findprev`); `nothing` if none.
fn substring(pattern: &str, text: &str, direction: Direction, from: Option<i64>) -> EvalResult {
    let at = |byte: Option<usize>| match byte {
        Some(start) => super::regex::byte_span(text, start, start + pattern.len()),
        None => Ok(Value::Nothing),
    };
    let from = from.map(|i| (i - 1).clamp(0, text.len() as i64) as usize);
    match (direction, from) {
        (Direction::First, None) => at(text.find(pattern)),
        (Direction::Last, None) => at(text.rfind(pattern)),
        (Direction::First, Some(i)) => at(text
            .get(i..)
            .and_then(|rest| rest.find(pattern))
            .map(|k| i + k)),
        (Direction::Last, Some(i)) => {
            // A match may start at `i` itself and run past it.
            let end = (i + pattern.len()).min(text.len());
            at(text.get(..end).and_then(|head| head.rfind(pattern)))
        }
    }
}

/// The shape of the searched array (the last argument) when it has two or more dimensions,
/// whose positions are `CartesianIndex`es as in Julia.
fn searched_shape(args: &Args) -> Option<Vec<usize>> {
    args.pos
        .last()
        .and_then(super::cartesian::shape_of)
        .filter(|shape| shape.len() > 1)
}

/// For `any`, `all` and `count` of a sparse Bool matrix: its stored `true`s and its size,
/// without visiting the implicit zeros.
fn sparse_trues(args: &Args, name: &str) -> Option<Result<(usize, usize), Flow>> {
    let [Value::Sparse(s)] = args.pos.as_slice() else {
        return None;
    };
    let s = s.borrow();
    if s.eltype != ElType::Bool {
        return Some(Err(fail(
            ErrorKind::TypeError,
            format!("{name}: non-boolean (Float64) used in boolean context"),
        )));
    }
    let trues = s.matrix.data().iter().filter(|&&v| v != 0.0).count();
    Some(Ok((trues, s.matrix.rows() * s.matrix.cols())))
}

fn any_(interp: &mut Interp, args: Args) -> EvalResult {
    if let Some(counts) = sparse_trues(&args, "any") {
        return Ok(Value::Bool(counts?.0 > 0));
    }
    let mut any = false;
    visit_truths(interp, &args, "any", |b| {
        any = b;
        !b
    })?;
    Ok(Value::Bool(any))
}

fn all_(interp: &mut Interp, args: Args) -> EvalResult {
    if let Some(counts) = sparse_trues(&args, "all") {
        let (trues, total) = counts?;
        return Ok(Value::Bool(trues == total));
    }
    let mut all = true;
    visit_truths(interp, &args, "all", |b| {
        all = b;
        b
    })?;
    Ok(Value::Bool(all))
}

fn count_(interp: &mut Interp, args: Args) -> EvalResult {
    if args
        .pos
        .first()
        .is_some_and(|v| super::regex::as_regex(v).is_some())
    {
        return super::regex::count(&args);
    }
    if let Some(counts) = sparse_trues(&args, "count") {
        return Ok(Value::Int(counts?.0 as i64));
    }
    let mut count = 0;
    visit_truths(interp, &args, "count", |b| {
        count += i64::from(b);
        true
    })?;
    Ok(Value::Int(count))
}

/// How a collection sorts.
enum Order {
    /// A plain numeric array of this element type, as [`sort_numbers`] left it (the sorted
    /// values come from the keys themselves).
    Plain(Vec<u128>, ElType, bool),
    /// Any other collection: the positions of its elements in sorted order.
    Permutation(Vec<usize>),
}

impl Order {
    fn permutation(self) -> Vec<usize> {
        match self {
            Order::Plain(items, ..) => items.into_iter().map(|x| x as u64 as usize).collect(),
            Order::Permutation(perm) => perm,
        }
    }
}

fn sort_order(interp: &mut Interp, args: &Args, name: &str) -> Result<Order, Flow> {
    let reverse = matches!(args.kw("rev"), Some(Value::Bool(true)));
    let mut poll = interp.poll();
    if args.kw("by").is_none() && args.kw("lt").is_none() {
        // An array of plain numbers sorts as numbers without a value per element.
        if let Value::Array(a) = &args.pos[0] {
            let a = a.borrow();
            if a.data.is_plain() {
                let keys = difflab_ad::tensor::col_major_slice(a.data.primal());
                let items = sort_numbers(&keys, reverse, &mut poll)?;
                return Ok(Order::Plain(items, a.eltype, reverse));
            }
        }
    }
    sort_permutation(interp, args, name, reverse, &mut poll).map(Order::Permutation)
}

fn sort_permutation(
    interp: &mut Interp,
    args: &Args,
    name: &str,
    reverse: bool,
    poll: &mut Poll,
) -> Result<Vec<usize>, Flow> {
    let items = elements(&args.pos[0])?;
    let keys: Vec<Value> = match args.kw("by") {
        Some(f) => items
            .iter()
            .map(|x| {
                poll.tick()?;
                interp.call(f, vec![x.clone()])
            })
            .collect::<Result<_, _>>()?,
        None => items,
    };
    for key in &keys {
        poll.tick()?;
        if let Some(k) = operand(key)? {
            crate::value::convert::require_values(k.tensor(), name)?;
        }
    }
    let ordered = |a: usize, b: usize| if reverse { (b, a) } else { (a, b) };
    let perm: Vec<usize> = (0..keys.len()).collect();
    if let Some(lt) = args.kw("lt") {
        return merge_sort(perm, &mut |a, b| {
            // A builtin `lt` (`isless`, `>`) does not poll the flag itself.
            poll.tick()?;
            let (a, b) = ordered(a, b);
            match interp.call(lt, vec![keys[a].clone(), keys[b].clone()])? {
                Value::Bool(less) => Ok(less),
                other => Err(fail(
                    ErrorKind::TypeError,
                    format!(
                        "non-boolean ({}) used in boolean context",
                        other.type_name()
                    ),
                )),
            }
        });
    }
    let nums: Option<Vec<f64>> = keys.iter().map(|k| super::to_float(k, name).ok()).collect();
    match nums {
        Some(n) => Ok(
            Order::Plain(sort_numbers(&n, reverse, poll)?, ElType::Float64, reverse).permutation(),
        ),
        None => merge_sort(perm, &mut |a, b| {
            poll.tick()?;
            let (a, b) = ordered(a, b);
            Ok(super::ordering::order(interp, &keys[a], &keys[b])?.is_lt())
        }),
    }
}

/// How many elements [`sort_numbers`] moves between two looks at the interrupt flag: well
/// under a millisecond of work.
const SORT_BLOCK: usize = 1 << 16;

/// `keys` in stable sorted order (ascending by `f64::total_cmp`, or descending with `reverse`;
/// equal keys keep their order either way), each as its key's bits above its position.
///
/// Each key becomes an unsigned integer with the same order, stored above its position, and a
/// least-significant-digit radix sort orders them a byte at a time: eight stable passes at
/// most (a byte that is the same in every key is skipped), each linear and without
/// comparisons, polling the interrupt flag every [`SORT_BLOCK`] elements.
fn sort_numbers(keys: &[f64], reverse: bool, poll: &mut Poll) -> Result<Vec<u128>, Flow> {
    let n = keys.len();
    let mut counts = vec![[0usize; 256]; 8];
    let mut items: Vec<u128> = Vec::with_capacity(n);
    for (k, &x) in keys.iter().enumerate() {
        if k % SORT_BLOCK == 0 {
            poll.check()?;
        }
        // `total_cmp`'s order as unsigned integers: negative numbers flipped whole, the others
        // with their sign bit set.
        let bits = x.to_bits();
        let key = if bits >> 63 == 1 {
            !bits
        } else {
            bits | 1 << 63
        };
        let key = if reverse { !key } else { key };
        for (digit, count) in counts.iter_mut().enumerate() {
            count[(key >> (8 * digit)) as usize & 0xff] += 1;
        }
        items.push((u128::from(key) << 64) | k as u128);
    }
    // Written block by block, so the memory's first touch (page faults, slow on a busy
    // machine) happens between looks at the flag, not in the middle of a pass.
    let mut other: Vec<u128> = Vec::with_capacity(n);
    while other.len() < n {
        poll.check()?;
        other.resize((other.len() + SORT_BLOCK).min(n), 0);
    }
    for (digit, count) in counts.iter().enumerate() {
        if count.contains(&n) {
            continue;
        }
        let mut next = [0usize; 256];
        let mut sum = 0;
        for (slot, &c) in next.iter_mut().zip(count) {
            *slot = sum;
            sum += c;
        }
        let shift = 64 + 8 * digit;
        for (k, &x) in items.iter().enumerate() {
            if k % SORT_BLOCK == 0 {
                poll.check()?;
            }
            let bucket = (x >> shift) as usize & 0xff;
            other[next[bucket]] = x;
            next[bucket] += 1;
        }
        std::mem::swap(&mut items, &mut other);
    }
    Ok(items)
}

/// The numbers whose keys [`sort_numbers`] sorted, in that order (the inverse of its key),
/// polling the interrupt flag every [`SORT_BLOCK`] numbers.
fn sorted_values(items: &[u128], reverse: bool, poll: &mut Poll) -> Result<Vec<f64>, Flow> {
    let mut values = Vec::with_capacity(items.len());
    for block in items.chunks(SORT_BLOCK) {
        poll.check()?;
        values.extend(block.iter().map(|&x| {
            let key = (x >> 64) as u64;
            let key = if reverse { !key } else { key };
            f64::from_bits(if key >> 63 == 1 {
                key & !(1 << 63)
            } else {
                !key
            })
        }));
    }
    Ok(values)
}

/// A stable merge sort by a fallible `less`; unlike the standard sorts it never panics, even
/// for a user's `lt` that is not a strict weak order, and stops at its first error (an
/// interrupt included: the `less` of long sorts polls the flag).
fn merge_sort(
    items: Vec<usize>,
    less: &mut dyn FnMut(usize, usize) -> Result<bool, Flow>,
) -> Result<Vec<usize>, Flow> {
    if items.len() <= 1 {
        return Ok(items);
    }
    let mut right = items;
    let left = right.drain(..right.len() / 2).collect();
    let left = merge_sort(left, less)?;
    let right = merge_sort(right, less)?;
    let mut merged = Vec::with_capacity(left.len() + right.len());
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        // Stable: a right element goes first only when strictly less.
        if less(right[j], left[i])? {
            merged.push(right[j]);
            j += 1;
        } else {
            merged.push(left[i]);
            i += 1;
        }
    }
    merged.extend_from_slice(&left[i..]);
    merged.extend_from_slice(&right[j..]);
    Ok(merged)
}

fn sort_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sort", 1, 1)?;
    match sort_order(interp, &args, "sort")? {
        Order::Plain(items, eltype, reverse) => {
            let values = sorted_values(&items, reverse, &mut interp.poll())?;
            Ok(super::array(eltype, &[items.len()], values))
        }
        Order::Permutation(perm) => regather(&args.pos[0], &perm, "sort"),
    }
}

/// `partialsort(v, k; by, lt, rev)`: the `k`th element of `sort(v)` (or the elements at the
/// indices `k`, a range).
fn partialsort_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("partialsort", 2, 2)?;
    let k = args.pos[1].clone();
    let v = args.pos[0].clone();
    let sorted = sort_(interp, args.with_positional(vec![v]))?;
    interp.index_value(&sorted, &[k])
}

/// `sort!(v; by, lt, rev)`: `v` sorted in place (views write through to their parent).
fn sort_bang(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sort!", 1, 1)?;
    let target = args.pos[0].clone();
    let sorted = sort_(interp, args)?;
    if let Value::List(list) = &target {
        *list.borrow_mut() = elements(&sorted)?;
        return Ok(target);
    }
    super::indexing::copy_into(interp, &target, sorted)
}

/// `searchsortedfirst(v, x)`: the first index of the sorted `v` whose element is not below
/// `x` (`length(v) + 1` when every element is); `searchsortedlast`: the last index whose
/// element is not above `x` (0 when none is).
fn search_sorted(args: &Args, name: &str, last: bool) -> EvalResult {
    args.arity(name, 2, 2)?;
    let x = super::to_float(&args.pos[1], name)?;
    let items = elements(&args.pos[0])?
        .iter()
        .map(|v| super::to_float(v, name))
        .collect::<Result<Vec<f64>, _>>()?;
    let k = if last {
        items.partition_point(|&v| v <= x)
    } else {
        items.partition_point(|&v| v < x) + 1
    };
    Ok(Value::Int(k as i64))
}

fn searchsortedfirst_(_: &mut Interp, args: Args) -> EvalResult {
    search_sorted(&args, "searchsortedfirst", false)
}

fn searchsortedlast_(_: &mut Interp, args: Args) -> EvalResult {
    search_sorted(&args, "searchsortedlast", true)
}

fn sortperm_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sortperm", 1, 1)?;
    let perm = sort_order(interp, &args, "sortperm")?.permutation();
    let n = perm.len();
    Ok(super::array(
        ElType::Int64,
        &[n],
        perm.into_iter().map(|k| (k + 1) as f64).collect(),
    ))
}

/// The positions `p` lists, 0-based, when `p` is a permutation of `1:length(p)`.
fn permutation(p: &Value, name: &str) -> Result<Option<Vec<usize>>, Flow> {
    let items = elements(p)?;
    let n = items.len();
    let mut seen = vec![false; n];
    let mut positions = Vec::with_capacity(n);
    for item in &items {
        let k = super::to_int(item, name)?;
        match usize::try_from(k - 1).ok().filter(|&k| k < n && !seen[k]) {
            Some(k) => {
                seen[k] = true;
                positions.push(k);
            }
            None => return Ok(None),
        }
    }
    Ok(Some(positions))
}

fn isperm_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isperm", 1, 1)?;
    Ok(Value::Bool(permutation(&args.pos[0], "isperm")?.is_some()))
}

fn invperm_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("invperm", 1, 1)?;
    let Some(positions) = permutation(&args.pos[0], "invperm")? else {
        return Err(fail(
            ErrorKind::ArgumentError,
            "argument is not a permutation",
        ));
    };
    let mut inverse = vec![0.0; positions.len()];
    for (i, &k) in positions.iter().enumerate() {
        inverse[k] = (i + 1) as f64;
    }
    Ok(super::array(ElType::Int64, &[inverse.len()], inverse))
}

crate::builtins! {
    "partialsort" => partialsort_, false, "    partialsort(v, k; by, lt, rev)\n\nThe `k`th element of `v` in sorted order (or the sorted elements at the indices in the range `k`), with `sort`'s keywords.\n\n```\njulia> partialsort([5, 1, 4, 2], 2)\n2\n\njulia> partialsort([5, 1, 4, 2], 1:2; rev = true)\n2-element Vector{Int64}:\n 5\n 4\n```";
    "sort!" => sort_bang, false, "    sort!(v; by, lt, rev)\n\nSorts the vector `v` in place (with `sort`'s keywords) and returns it.\n\n```\njulia> v = [3, 1, 2]; sort!(v); v\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
    "searchsortedfirst" => searchsortedfirst_, false, "    searchsortedfirst(v, x)\n\nIn the sorted vector `v`, the first index whose element is at least `x` (`length(v) + 1` when none is): where `x` would be inserted to keep `v` sorted.\n\n```\njulia> searchsortedfirst([1, 3, 5], 4), searchsortedfirst([1, 3, 5], 9)\n(3, 4)\n```";
    "searchsortedlast" => searchsortedlast_, false, "    searchsortedlast(v, x)\n\nIn the sorted vector `v`, the last index whose element is at most `x` (0 when none is).\n\n```\njulia> searchsortedlast([1, 3, 5], 4), searchsortedlast([1, 3, 5], 0)\n(2, 0)\n```";
    "isperm" => isperm_, false, "    isperm(p)\n\nWhether `p` holds each of `1:length(p)` exactly once.\n\n```\njulia> isperm([3, 1, 2]), isperm([1, 1])\n(true, false)\n```";
    "invperm" => invperm_, false, "    invperm(p)\n\nThe inverse permutation: `invperm(p)[p[i]] == i`.\n\n```\njulia> invperm([3, 1, 2])\n3-element Vector{Int64}:\n 2\n 3\n 1\n```";
    "findall" => findall_, false, "    findall(mask)\n    findall(pred, xs)\n\nThe indices where a Bool array is true (or `pred` holds).\n\n```\njulia> findall([1, 5, 2] .> 1)\n2-element Vector{Int64}:\n 2\n 3\n```";
    "findlast" => findlast_, false, "    findlast(mask)\n    findlast(pred, xs)\n    findlast(pattern, s)\n\nThe last index where the condition holds (or the range of the last occurrence of the string `pattern` in `s`), or `nothing`.\n\n```\njulia> findlast(isodd, [1, 2, 3, 4])\n3\n\njulia> findlast(\"l\", \"hello\")\n4:4\n```";
    "findnext" => findnext_, false, "    findnext(pred, xs, i)\n    findnext(pattern, s, i)\n\nThe first index at or after `i` where the condition holds (or the range of the next occurrence of `pattern` in `s` from index `i`), or `nothing`.\n\n```\njulia> findnext(isodd, [1, 2, 3, 4], 2)\n3\n\njulia> findnext(\"l\", \"hello\", 4)\n4:4\n```";
    "findprev" => findprev_, false, "    findprev(pred, xs, i)\n    findprev(pattern, s, i)\n\nThe last index at or before `i` where the condition holds (or the range of the last occurrence of `pattern` in `s` starting at or before index `i`), or `nothing`.\n\n```\njulia> findprev(isodd, [1, 2, 3, 4], 2)\n1\n\njulia> findprev(\"l\", \"hello\", 3)\n3:3\n```";
    "findfirst" => findfirst_, false, "    findfirst(mask)\n    findfirst(pred, xs)\n\nThe first index where the condition holds, or `nothing`.\n\n```\njulia> findfirst(iszero, [1, 0, 0])\n2\n```";
    "any" => any_, false, "    any(mask)\n    any(pred, xs)\n\nWhether any element is true. Over a generator it stops at the first `true`, as in Julia.\n\n```\njulia> any([1, 2] .> 1)\ntrue\n\njulia> any(i^2 > 50 for i in 1:10^15)\ntrue\n```";
    "all" => all_, false, "    all(mask)\n    all(pred, xs)\n\nWhether every element is true.\n\n```\njulia> all(x -> x > 0, [1, 2])\ntrue\n```";
    "count" => count_, false, "    count(mask)\n    count(pred, xs)\n\nThe number of true elements.\n\n```\njulia> count([1, 2, 3] .> 1)\n2\n```";
    "sort" => sort_, false, "    sort(v; by, lt, rev=false)\n\nA sorted copy (stable): by the values of `by` (default the elements), compared with `lt` (default `isless`), reversed by `rev=true`.\n\n```\njulia> sort([3, 1, 2])\n3-element Vector{Int64}:\n 1\n 2\n 3\n\njulia> sort([\"b\", \"a\", \"cc\"]; by=length, lt=(a, b) -> a > b)\n3-element Vector{String}:\n \"cc\"\n \"b\"\n \"a\"\n```";
    "sortperm" => sortperm_, false, "    sortperm(v; by, lt, rev=false)\n\nThe permutation that sorts `v` (stably, with the options of `sort`).\n\n```\njulia> sortperm([3, 1, 2])\n3-element Vector{Int64}:\n 2\n 3\n 1\n```";
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// The radix sort agrees with a stable comparison sort by `total_cmp`, ascending and
    /// descending, on keys with repeats, both zeros, infinities, NaNs and subnormals, across
    /// several blocks.
    #[test]
    fn numbers_sort_as_a_stable_sort_by_total_order() {
        let special = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            5e-324,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let keys: Vec<f64> = (0..3 * SORT_BLOCK + 17)
            .map(|k| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                match state % 4 {
                    0 => special[k % special.len()],
                    1 => (state % 50) as f64 - 25.0,
                    _ => f64::from_bits(state >> 2) * if state & 1 == 1 { -1.0 } else { 1.0 },
                }
            })
            .collect();
        for reverse in [false, true] {
            let items = sort_numbers(&keys, reverse, &mut Poll::unraised())
                .ok()
                .unwrap();
            let mut expected: Vec<usize> = (0..keys.len()).collect();
            expected.sort_by(|&a, &b| {
                let order = keys[a].total_cmp(&keys[b]);
                if reverse {
                    order.reverse()
                } else {
                    order
                }
            });
            let values = sorted_values(&items, reverse, &mut Poll::unraised())
                .ok()
                .unwrap();
            let perm = Order::Plain(items, ElType::Float64, reverse).permutation();
            assert_eq!(perm, expected, "reverse = {reverse}");
            let want: Vec<u64> = expected.iter().map(|&k| keys[k].to_bits()).collect();
            let got: Vec<u64> = values.iter().map(|x| x.to_bits()).collect();
            assert_eq!(got, want, "reverse = {reverse}");
        }
    }

    #[test]
    fn a_raised_flag_stops_a_sort_with_an_interrupt_exception() {
        let flag = Arc::new(AtomicBool::new(true));
        let mut interp = Interp::new(
            crate::eval::Config::default(),
            Box::new(crate::output::Capture::default()),
        );
        interp.interrupt = flag.clone();
        let keys = vec![1.0; 4 * SORT_BLOCK];
        match sort_numbers(&keys, false, &mut interp.poll()) {
            Err(Flow::Error(e)) => assert_eq!(e.kind, ErrorKind::InterruptException),
            _ => panic!("the sort did not stop"),
        }
        assert!(!flag.load(Ordering::Relaxed), "the request is cleared");
    }
}
