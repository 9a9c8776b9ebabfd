//! How values look as text: [`repr`] (Julia's `show`/`repr`), [`print_string`] (`print` and
//! `string`: strings without quotes) and [`plain`] (the multi-line `text/plain` display of the
//! REPL and notebooks). Arrays, numbers and sparse matrices are formatted by [`crate::show`].
//!
//! Containers (tuples, named tuples, `Vector{Any}`) are walked by a [`Printer`] with an
//! explicit stack of tasks rather than by recursion, so nesting of any depth prints in time
//! linear in the output and never overflows the stack. The printer carries what Julia's
//! `IOContext` carries: `:limit` (the REPL display elides long vectors and large matrices
//! nested in containers, `repr` does not), `:typeinfo` (whether an element type is already
//! known, so `Bool[1, 0]` loses its prefix inside a `Vector{BitVector}`) and `:SHOWN_SET` (the
//! containers being shown, so one met again inside itself prints as Julia's
//! `#= circular reference @-d =#`).

use crate::show::{self, ElType};
use crate::value::Value;
use std::collections::HashMap;
use std::rc::Rc;

/// Julia's `repr(v)`: one line, strings quoted, nothing elided.
pub fn repr(v: &Value) -> String {
    let mut printer = Printer::new(false);
    printer.show(v, None);
    printer.out
}

/// The [`repr`] of each of `items` in order, stopping early when an interrupt is requested:
/// the elements of a `Dict` or `Set` of millions of entries are otherwise formatted one by one
/// for a second after formatting gave up (the caller raises the interrupt before using them).
pub fn reprs<'a>(items: impl IntoIterator<Item = &'a Value>) -> Vec<String> {
    items
        .into_iter()
        .take_while(|_| !difflab_ad::limits::interrupt_requested())
        .map(repr)
        .collect()
}

/// A user value: the text of its `show` method when it has one, else Julia's default
/// `Name(field1, field2)`.
fn struct_repr(s: &crate::types::StructValue) -> String {
    if let Some(text) = s.shown.borrow().as_ref() {
        return text.clone();
    }
    if s.is_pair() {
        // `1 => (2 => 3)`: a pair inside a pair is parenthesized.
        let side = |v: &Value| match v {
            Value::Struct(inner) if inner.is_pair() => format!("({})", repr(v)),
            _ => repr(v),
        };
        let fields = s.fields.borrow();
        return format!("{} => {}", side(&fields[0]), side(&fields[1]));
    }
    let fields: Vec<String> = s.fields.borrow().iter().map(repr).collect();
    format!("{}({})", s.type_of(), fields.join(", "))
}

/// `print(v)` / `string(v)`: like [`repr`] but strings and symbols without quotes or colons.
pub fn print_string(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Char(c) => c.to_string(),
        Value::Symbol(s) => s.to_string(),
        Value::Exception(e) => e.headline(),
        Value::Object(o) => o.print(),
        other => repr(other),
    }
}

/// The `text/plain` display of the REPL and notebooks (`display(v)`). Containers are shown
/// limited, as Julia's REPL shows them: vectors and matrices inside them are elided with `…`.
pub fn plain(v: &Value) -> String {
    match v {
        Value::Struct(s) if s.displayed.borrow().is_some() => {
            s.displayed.borrow().clone().unwrap_or_default()
        }
        Value::Array(a) => {
            let a = a.borrow();
            if let Some(text) = crate::builtins::ad::tracers::tracer_array_plain(&a.data) {
                return text;
            }
            if a.is_diagonal() && a.data.is_plain() {
                return show::diagonal_plain(a.eltype, a.data.primal().view(), None);
            }
            let text = show::dense_plain(a.eltype, a.data.primal().view(), None);
            if let Some((parent, indices)) = crate::builtins::views::view_parent(&a) {
                // Julia's header of a view: `2-element view(::Vector{Float64}, 2:3) with …`.
                let body = text.split_once('\n').map_or("", |(_, body)| body);
                let dims = show::dims_string(a.data.shape());
                let parent = Value::Array(parent).type_name();
                let eltype = a.eltype.name();
                return format!("{dims} view(::{parent}, {indices}) with eltype {eltype}:\n{body}");
            }
            if !a.row_adjoint {
                return text;
            }
            // `x'` of a vector is shown as Julia shows an adjoint vector.
            let (_, body) = text.split_once('\n').unwrap_or((&text, ""));
            let n = a.data.len();
            format!(
                "1×{n} adjoint(::{}) with eltype {}:\n{body}",
                show::type_name(a.eltype, 1),
                a.eltype.name()
            )
        }
        Value::Sparse(s) => {
            let s = s.borrow();
            if s.vector {
                show::sparse_vector_plain(&s.matrix.view(), s.eltype, None)
            } else {
                show::sparse_plain(&s.matrix.view(), s.eltype, None)
            }
        }
        Value::List(items) => list_plain(items),
        Value::Char(c) => crate::builtins::chars::plain(*c),
        Value::Tuple(_) | Value::NamedTuple(_) => {
            let mut printer = Printer::new(true);
            printer.show(v, None);
            printer.out
        }
        Value::Function(f) => {
            let n = 1 + f.methods.len();
            match f.def.name {
                Some(name) => format!(
                    "{name} (generic function with {n} method{})",
                    if n == 1 { "" } else { "s" }
                ),
                None => "#anonymous (generic function with 1 method)".into(),
            }
        }
        // Capitalized builtins are types and constructors (`Float64`, `AutoForwardDiff`).
        v if crate::builtins::linalg::uniform::is_bare_identity(v) => {
            format!(
                "{}\ntrue*I",
                crate::builtins::linalg::uniform::BARE_IDENTITY_TYPE
            )
        }
        Value::Builtin(b) if b.name.starts_with(char::is_uppercase) => b.name.to_string(),
        Value::Builtin(b) => format!("{} (generic function)", b.name),
        Value::Exception(e) => format!("{}({:?})", e.kind.name(), e.message),
        Value::Object(o) => o.show(),
        other => repr(other),
    }
}

/// The element type of an array value, for display.
pub fn eltype_of(v: &Value) -> Option<ElType> {
    match v {
        Value::Array(a) => Some(a.borrow().eltype),
        _ => None,
    }
}

/// Julia's `show(io, MIME"text/plain", v)` of a `Vector{Any}`: its summary, then one entry per
/// line laid out by `print_matrix` (numbers aligned on their point, the rest left-aligned,
/// rows elided with `⋮` beyond the screen), each entry in its one-line form.
fn list_plain(list: &Rc<crate::value::List>) -> String {
    let items = list.borrow();
    let eltype: Rc<str> = list_eltype(list, &items).into();
    if items.is_empty() {
        return repr(&Value::List(list.clone()));
    }
    let mut out = format!("{}-element Vector{{{eltype}}}:", items.len());
    let screen = show::screen();
    if screen.0 <= 4 {
        out.push_str(" …");
        return out;
    }
    out.push('\n');
    let id = address(list);
    let entry = |i: usize, _: usize| {
        let mut printer = Printer::new(true);
        printer.enter(id);
        printer.entry(&items[i], &eltype)
    };
    show::print_matrix(&mut out, items.len(), 1, &entry, Some(screen));
    out
}

/// The element type Julia would give a vector of these values.
/// The element type a vector of values shows: the one it was declared with, else the one its
/// items share.
fn list_eltype(list: &crate::value::List, items: &[Value]) -> String {
    match &list.declared {
        Some(eltype) => eltype.to_string(),
        None => common_type(items),
    }
}

fn common_type(items: &[Value]) -> String {
    let mut names = items.iter().map(bounded_type_name);
    match names.next() {
        Some(Some(first)) if names.all(|n| n.as_ref() == Some(&first)) => first,
        _ => "Any".into(),
    }
}

/// The type name of `v`, or `None` for a tuple too large or too deeply nested to name cheaply
/// (its name would be as long as the tuple; such an element type is shown as `Any`).
fn bounded_type_name(v: &Value) -> Option<String> {
    const BUDGET: usize = 1000;
    if let Value::Tuple(_) = v {
        let mut pending = vec![v];
        let mut seen = 0;
        while let Some(Value::Tuple(items)) = pending.pop() {
            seen += items.len();
            if seen > BUDGET {
                return None;
            }
            pending.extend(items.iter().filter(|x| matches!(x, Value::Tuple(_))));
        }
    }
    Some(v.type_name())
}

/// Julia's `typeinfo_implicit`: whether values of the type named `t` print the same with or
/// without their type (so a vector of them needs no element-type prefix).
fn implicit_type(t: &str) -> bool {
    match t {
        "Float64" | "Int64" | "Char" | "String" | "Symbol" | "Nothing" => true,
        _ => {
            if let Some(inner) = t
                .strip_prefix("Vector{")
                .or_else(|| t.strip_prefix("Matrix{"))
                .and_then(|rest| rest.strip_suffix('}'))
            {
                return implicit_type(inner);
            }
            if let Some(inner) = t.strip_prefix("Tuple{").and_then(|r| r.strip_suffix('}')) {
                return top_level_fields(inner).all(implicit_type);
            }
            false
        }
    }
}

/// The comma-separated parts of a type's parameter list that are not nested in braces.
fn top_level_fields(params: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0usize;
    let mut start = 0;
    let mut parts = Vec::new();
    for (k, c) in params.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(params[start..k].trim());
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(params[start..].trim());
    parts.into_iter()
}

/// The identity of a shared container, for the circular-reference check.
fn address<T>(rc: &Rc<T>) -> usize {
    Rc::as_ptr(rc) as *const () as usize
}

/// What remains to be printed: the printer's work stack holds these, last first.
enum Task {
    /// Julia's two-argument `show` of a value, with the `:typeinfo` of its context.
    Show(Value, Option<Rc<str>>),
    /// Literal text.
    Text(&'static str),
    /// The end of a container: it leaves `:SHOWN_SET`.
    Leave,
}

/// Julia's two-argument `show` into one buffer, for values nested to any depth.
struct Printer {
    out: String,
    /// Julia's `:limit`: elide long vectors and large matrices.
    limit: bool,
    /// Julia's `:SHOWN_SET`: the containers being shown, outermost first.
    shown: Vec<usize>,
    /// Where each container in `shown` sits, so the check costs the same at any depth.
    position: HashMap<usize, usize>,
}

/// Vectors longer than this show only their first and last [`HALF`] entries when limited.
const LIMIT_LENGTH: usize = 20;
const HALF: usize = 10;

impl Printer {
    fn new(limit: bool) -> Printer {
        Printer {
            out: String::new(),
            limit,
            shown: Vec::new(),
            position: HashMap::new(),
        }
    }

    /// Prints `v` (with `typeinfo`, the element type its context already shows, if any).
    fn show(&mut self, v: &Value, typeinfo: Option<Rc<str>>) {
        let mut tasks = vec![Task::Show(v.clone(), typeinfo)];
        while let Some(task) = tasks.pop() {
            if difflab_ad::limits::interrupt_requested() {
                // Whoever asked for the text raises the interrupt before using it.
                self.out = String::new();
                return;
            }
            match task {
                Task::Text(text) => self.out.push_str(text),
                Task::Leave => self.leave(),
                Task::Show(v, typeinfo) => self.show_one(&v, typeinfo, &mut tasks),
            }
        }
    }

    fn enter(&mut self, id: usize) {
        self.position.insert(id, self.shown.len());
        self.shown.push(id);
    }

    fn leave(&mut self) {
        if let Some(id) = self.shown.pop() {
            self.position.remove(&id);
        }
    }

    /// Julia's `show_circular`: when the container `id` is already being shown, the
    /// `#= circular reference @-d =#` marker (`d` counts the containers shown since, plus one).
    fn circular(&self, id: usize) -> Option<String> {
        let at = *self.position.get(&id)?;
        let d = self.shown.len() - at;
        Some(format!("#= circular reference @-{d} =#"))
    }

    /// Prints a leaf, or the opening of a container and its contents as new tasks.
    fn show_one(&mut self, v: &Value, typeinfo: Option<Rc<str>>, tasks: &mut Vec<Task>) {
        match v {
            Value::Tuple(items) => {
                self.out.push('(');
                let id = address(items);
                if let Some(marker) = self.circular(id) {
                    self.out.push_str(&marker);
                    self.out.push(')');
                    return;
                }
                // A tuple in a context that knows its exact type passes each field its type.
                let typed = typeinfo.as_deref().is_some_and(|t| {
                    t.starts_with("Tuple{") && Some(t) == bounded_type_name(v).as_deref()
                });
                self.enter(id);
                tasks.push(Task::Text(")"));
                tasks.push(Task::Leave);
                if items.len() == 1 {
                    tasks.push(Task::Text(","));
                }
                for (k, item) in items.iter().enumerate().rev() {
                    let field_type = if typed {
                        bounded_type_name(item).map(Rc::from)
                    } else {
                        typeinfo.clone()
                    };
                    tasks.push(Task::Show(item.clone(), field_type));
                    if k > 0 {
                        tasks.push(Task::Text(", "));
                    }
                }
            }
            Value::NamedTuple(fields) => {
                if fields.is_empty() {
                    self.out.push_str("NamedTuple()");
                    return;
                }
                self.out.push('(');
                tasks.push(Task::Text(")"));
                if fields.len() == 1 {
                    tasks.push(Task::Text(","));
                }
                for (k, (name, value)) in fields.iter().enumerate().rev() {
                    tasks.push(Task::Show(value.clone(), None));
                    tasks.push(Task::Text(" = "));
                    tasks.push(Task::Text(name.as_str()));
                    if k > 0 {
                        tasks.push(Task::Text(", "));
                    }
                }
            }
            Value::List(list) => self.show_list(list, typeinfo, tasks),
            Value::Array(a) => {
                let a = a.borrow();
                let view = a.data.primal().view();
                let text = if self.limit {
                    let typed = typeinfo.as_deref()
                        == Some(show::type_name(a.eltype, view.ndim()).as_str());
                    show::dense_in_container(a.eltype, view, false, typed)
                } else {
                    show::dense_inline(a.eltype, view)
                };
                self.out.push_str(&text);
            }
            Value::Sparse(s) => {
                let s = s.borrow();
                let text = if s.vector {
                    show::sparse_vector_inline(&s.matrix.view(), s.eltype, self.limit)
                } else if self.limit {
                    show::sparse_in_container(&s.matrix.view(), s.eltype)
                } else {
                    show::sparse_inline(&s.matrix.view(), s.eltype)
                };
                self.out.push_str(&text);
            }
            leaf => self.out.push_str(&leaf_repr(leaf)),
        }
    }

    /// Julia's `show_vector` of a `Vector{Any}`: `Any[1, "a"]`, `[[1, 2], [3]]` (no prefix when
    /// the element type is implied by the elements or known from the context), and with
    /// `:limit` only the first and last ten of more than twenty entries.
    fn show_list(
        &mut self,
        list: &Rc<crate::value::List>,
        typeinfo: Option<Rc<str>>,
        tasks: &mut Vec<Task>,
    ) {
        let items = list.borrow();
        let eltype: Rc<str> = list_eltype(list, &items).into();
        // Julia's `typeinfo_prefix`: what the context knows of this vector's element type.
        let known = typeinfo.as_deref().and_then(|t| {
            let inner = t.strip_prefix("Vector{")?.strip_suffix('}')?;
            (inner == "Any" || inner == &*eltype).then_some(inner)
        });
        let implicit = known == Some(&*eltype) || (!items.is_empty() && implicit_type(&eltype));
        if !implicit {
            self.out.push_str(&eltype);
        }
        let inner_type = if implicit { typeinfo } else { Some(eltype) };
        let n = items.len();
        let elided = self.limit && n > LIMIT_LENGTH;
        self.out.push('[');
        let id = address(list);
        if let Some(marker) = self.circular(id) {
            // Julia shows the two halves of an elided vector separately, each one circular.
            self.out.push_str(&marker);
            if elided {
                self.out.push_str("  …  ");
                self.out.push_str(&marker);
            }
            self.out.push(']');
            return;
        }
        self.enter(id);
        tasks.push(Task::Text("]"));
        tasks.push(Task::Leave);
        let shown: Vec<usize> = if elided {
            (0..HALF).chain(n - HALF..n).collect()
        } else {
            (0..n).collect()
        };
        for (k, &i) in shown.iter().enumerate().rev() {
            tasks.push(Task::Show(items[i].clone(), inner_type.clone()));
            if elided && k == HALF {
                tasks.push(Task::Text("  …  "));
            } else if k > 0 {
                tasks.push(Task::Text(", "));
            }
        }
    }

    /// One entry of a displayed `Vector{Any}`, as Julia's `print_matrix_row` prints it: the
    /// three-argument `show` when it fits on one line, the two-argument `show` otherwise, with
    /// the alignment of the two-argument form.
    fn entry(&mut self, x: &Value, eltype: &Rc<str>) -> show::Cell {
        let typeinfo = Some(eltype.clone());
        let two_arg = |printer: &mut Printer| {
            let start = printer.out.len();
            printer.show(x, typeinfo.clone());
            printer.out.split_off(start)
        };
        let (text, measured) = match x {
            Value::List(list) if !list.borrow().is_empty() => {
                let short = two_arg(self);
                match self.circular(address(list)) {
                    // The REPL form stops after its summary for a circular vector.
                    Some(marker) => {
                        let items = list.borrow();
                        let summary = format!(
                            "{}-element Vector{{{}}}:",
                            items.len(),
                            list_eltype(list, &items)
                        );
                        (format!("{summary}{marker}"), short)
                    }
                    None => (short.clone(), short),
                }
            }
            Value::Sparse(s) if s.borrow().matrix.shape().0 * s.borrow().matrix.shape().1 == 0 => {
                (plain(x), two_arg(self))
            }
            Value::Function(_) | Value::Builtin(_)
                if !crate::builtins::linalg::uniform::is_bare_identity(x) =>
            {
                (plain(x), two_arg(self))
            }
            _ => {
                let text = two_arg(self);
                (text.clone(), text)
            }
        };
        let width = measured.chars().count();
        let align = match x {
            Value::Int(_) | Value::Bool(_) => (width, 0),
            Value::Float(_) | Value::Real(_) => show::alignment(ElType::Float64, &measured),
            _ => (0, width),
        };
        show::Cell { text, align }
    }
}

/// The `show` form of a value that contains no other values.
fn leaf_repr(v: &Value) -> String {
    match v {
        Value::Nothing => "nothing".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(x) => show::float(*x),
        Value::Real(t) => crate::builtins::ad::tracers::show_tracer(t).unwrap_or_else(|| {
            let x = t.primal().first().copied().unwrap_or(f64::NAN);
            format!("Dual({})", show::float(x))
        }),
        Value::Str(s) => format!("{s:?}"),
        Value::Char(c) => crate::builtins::chars::repr(*c),
        Value::Symbol(s) => format!(":{s}"),
        Value::Range(r) => show::range_plain(r.start, r.step, r.last(), r.is_int),
        Value::Function(f) => f
            .def
            .name
            .map_or("#anonymous".to_string(), |n| n.to_string()),
        v if crate::builtins::linalg::uniform::is_bare_identity(v) => {
            format!(
                "{}(true)",
                crate::builtins::linalg::uniform::BARE_IDENTITY_TYPE
            )
        }
        Value::Builtin(b) => b.name.to_string(),
        Value::Exception(e) => format!("{}({:?})", e.kind.name(), e.message),
        Value::Object(o) => o.repr(),
        Value::Type(t) => t.to_string(),
        Value::Struct(s) => struct_repr(s),
        // Containers are printed by the `Printer`; these arms are never reached from it.
        Value::Tuple(_)
        | Value::NamedTuple(_)
        | Value::List(_)
        | Value::Array(_)
        | Value::Sparse(_) => repr(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn list(items: Vec<Value>) -> Value {
        Value::list(items)
    }

    fn tuple(items: Vec<Value>) -> Value {
        Value::tuple(items)
    }

    fn ints(range: std::ops::Range<i64>) -> Value {
        let data: Vec<f64> = range.map(|i| i as f64).collect();
        Value::array(ElType::Int64, &[data.len()], data)
    }

    /// `a = Any[1]; push!(a, a)`.
    fn circular() -> Value {
        let a = list(vec![Value::Int(1)]);
        if let Value::List(items) = &a {
            items.borrow_mut().push(a.clone());
        }
        a
    }

    #[test]
    fn a_vector_that_contains_itself_prints_as_julia_prints_it() {
        let a = circular();
        assert_eq!(repr(&a), "Any[1, Any[#= circular reference @-1 =#]]");
        expect![[r#"
            2-element Vector{Any}:
             1
              2-element Vector{Any}:#= circular reference @-1 =#"#]]
        .assert_eq(&plain(&a));
        // A tuple between the vector and itself counts in the distance.
        let t = tuple(vec![a.clone()]);
        if let Value::List(items) = &a {
            items.borrow_mut().push(t.clone());
        }
        assert_eq!(
            repr(&t),
            "(Any[1, Any[#= circular reference @-1 =#], (#= circular reference @-2 =#)],)"
        );
        // Break the cycle so the test does not leak it.
        if let Value::List(items) = &a {
            items.borrow_mut().clear();
        }
    }

    #[test]
    fn deep_nesting_prints_without_recursion_in_linear_time() {
        // The value is built and dropped on a thread with a large stack: Rust's drop glue
        // recurses through nested vectors, and a failed assertion drops it while unwinding.
        let run = || {
            let depth = 200_000;
            let mut v = list(vec![]);
            for _ in 0..depth {
                v = list(vec![v]);
            }
            let start = std::time::Instant::now();
            let text = repr(&v);
            assert!(start.elapsed().as_secs() < 20);
            // Every vector holds a vector (`Vector{Any}[…]`); the innermost, empty, one's
            // element type is known from its context, so it is `[]`.
            let level = "Vector{Any}[".len() + 1;
            assert_eq!(text.len(), level * depth + "[]".len());
            assert!(
                text.starts_with("Vector{Any}[Vector{Any}["),
                "{}",
                &text[..40]
            );
            assert!(text.ends_with(&format!("Vector{{Any}}[[]{}", "]".repeat(depth))));
            let t = tuple(vec![v]);
            assert!(plain(&t).starts_with("(Vector{Any}[Vector{Any}["));
        };
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn(run)
            .expect("a test thread starts")
            .join()
            .expect("the test passes");
    }

    #[test]
    fn containers_are_limited_in_the_display_and_not_in_repr() {
        let t = tuple(vec![ints(1..31), Value::str("s")]);
        assert_eq!(
            plain(&t),
            "([1, 2, 3, 4, 5, 6, 7, 8, 9, 10  …  21, 22, 23, 24, 25, 26, 27, 28, 29, 30], \"s\")"
        );
        assert_eq!(repr(&t).matches(", ").count(), 30);
        let m = Value::array(ElType::Float64, &[5, 5], (0..25).map(f64::from).collect());
        assert_eq!(
            plain(&tuple(vec![m.clone()])),
            "([0.0 5.0 … 15.0 20.0; 1.0 6.0 … 16.0 21.0; … ; 3.0 8.0 … 18.0 23.0; 4.0 9.0 … 19.0 24.0],)"
        );
        let long = list((0..25).map(Value::Int).collect());
        let nested = list(vec![long.clone(), Value::Nothing]);
        expect![[r#"
            2-element Vector{Any}:
             [0, 1, 2, 3, 4, 5, 6, 7, 8, 9  …  15, 16, 17, 18, 19, 20, 21, 22, 23, 24]
             nothing"#]]
        .assert_eq(&plain(&nested));
        assert!(repr(&nested).contains("9, 10, 11,"));
    }

    #[test]
    fn vectors_of_values_align_and_carry_their_element_type() {
        let v = list(vec![
            Value::Int(1),
            Value::str("x"),
            Value::Float(2.5),
            tuple(vec![Value::Int(1), Value::Int(2)]),
            Value::array(ElType::Bool, &[2], vec![1.0, 0.0]),
        ]);
        expect![[r#"
            5-element Vector{Any}:
             1
              "x"
             2.5
              (1, 2)
              Bool[1, 0]"#]]
        .assert_eq(&plain(&v));
        assert_eq!(repr(&v), r#"Any[1, "x", 2.5, (1, 2), Bool[1, 0]]"#);
        let typed = list(vec![ints(1..3), ints(3..4)]);
        assert_eq!(repr(&typed), "[[1, 2], [3]]");
        assert_eq!(repr(&list(vec![])), "Any[]");
        assert_eq!(plain(&list(vec![])), "Any[]");
        let empty_in = list(vec![Value::array(ElType::Float64, &[0], vec![])]);
        assert_eq!(repr(&empty_in), "[Float64[]]");
        assert_eq!(plain(&empty_in), "1-element Vector{Vector{Float64}}:\n []");
    }

    #[test]
    fn a_long_vector_of_values_is_elided_on_screen() {
        let v = list((0..1000).map(Value::Int).collect());
        let text = plain(&v);
        assert_eq!(text.lines().count(), 1 + show::screen().0 - 4);
        assert!(text.contains('⋮'));
    }
}
