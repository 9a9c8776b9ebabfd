//! One test per construct of the language's syntax (LANGUAGE.md, "Syntax"), stating the shape
//! of each parse as an S-expression (see `common`): literals, operators and precedence,
//! whitespace in brackets, calls, indexing, arrays, functions, control flow, macros.

mod common;

use common::sexpr;

/// Asserts each `(source, expected S-expression)` pair.
fn check(cases: &[(&str, &str)]) {
    for (src, expected) in cases {
        assert_eq!(sexpr(src), *expected, "source: {src:?}");
    }
}

#[test]
fn literals() {
    check(&[
        ("42", "42"),
        ("1_000", "1000"),
        ("0xff", "255"),
        ("1.5", "1.5"),
        ("1e-3", "0.001"),
        (".5", "0.5"),
        ("1.", "1.0"),
        ("2.5e10", "25000000000.0"),
        ("1f0", "1.0"),
        ("true", "true"),
        ("false", "false"),
        ("nothing", "nothing"),
        (":central", ":central"),
        (":end", ":end"),
        ("π", "π"),
        ("ℯ", "ℯ"),
        ("α₁ + ŷ + ∇f + x′", "(+ (+ (+ α₁ ŷ) ∇f) x′)"),
    ]);
}

#[test]
fn strings_and_interpolation() {
    check(&[
        (r#""plain""#, r#""plain""#),
        (
            r#""tab\tnewline\nquote\"dollar\$""#,
            r#""tab\tnewline\nquote\"dollar$""#,
        ),
        (r#""x = $x""#, r#"(string "x = " x)"#),
        (
            r#""$(f(x)) and $(a + b)!""#,
            r#"(string (call f x) " and " (+ a b) "!")"#,
        ),
        (r#""$n!""#, r#"(string n "!")"#),
        (r#""$("inner $(y)")""#, r#"(string (string "inner " y))"#),
        (
            "\"\"\"\n    indented\n      more\n    \"\"\"",
            r#""indented\n  more\n""#,
        ),
        (
            r#""""with "quotes" inside""""#,
            r#""with \"quotes\" inside""#,
        ),
        (r#""\u03b1\x41""#, r#""αA""#),
    ]);
}

#[test]
fn interpolation_spans_point_into_the_whole_source() {
    let src = r#"println("value: $(x + 1)")"#;
    let block = difflab_syntax::parse(src).unwrap();
    let difflab_syntax::ExprKind::Call { args, .. } = &block[0].kind else {
        panic!()
    };
    let difflab_syntax::ExprKind::Str(parts) = &args[0].value.kind else {
        panic!()
    };
    let difflab_syntax::StrPart::Interp(inner) = &parts[1] else {
        panic!()
    };
    let span = inner.span;
    assert_eq!(&src[span.start as usize..span.end as usize], "x + 1");
}

#[test]
fn arithmetic_precedence() {
    check(&[
        ("1 + 2 * 3", "(+ 1 (* 2 3))"),
        ("1 - 2 - 3", "(- (- 1 2) 3)"),
        ("a / b * c", "(* (/ a b) c)"),
        ("a \\ b", r"(\ a b)"),
        ("a ÷ b % c", "(% (÷ a b) c)"),
        ("x^y^z", "(^ x (^ y z))"),
        ("-x^2", "(neg (^ x 2))"),
        ("-x * y", "(* (neg x) y)"),
        ("2^-1", "(^ 2 (neg 1))"),
        ("10^-3", "(^ 10 (neg 3))"),
        ("a | b & c", "(| a (& b c))"),
        ("f ∘ g", "(∘ f g)"),
        ("√x + 1", "(+ (sqrt x) 1)"),
        ("!a && b", "(&& (not a) b)"),
        ("a || b && c", "(|| a (&& b c))"),
        ("a && b && c", "(&& a (&& b c))"),
        ("x |> f |> g", "(|> (|> x f) g)"),
        ("a => b => c", "(=> a (=> b c))"),
        ("1 +\n  2", "(+ 1 2)"),
    ]);
}

#[test]
fn numeric_literal_coefficients() {
    check(&[
        ("2x", "(* 2 x)"),
        ("2x^2", "(* 2 (^ x 2))"),
        ("2^2x", "(^ 2 (* 2 x))"),
        ("3(x + 1)", "(* 3 (+ x 1))"),
        ("0.5x'", "(* 0.5 (' x))"),
        ("2π", "(* 2 π)"),
        ("2π/3", "(/ (* 2 π) 3)"),
        ("-2x", "(neg (* 2 x))"),
        ("1e-3x", "(* 0.001 x)"),
        ("2√x", "(* 2 (sqrt x))"),
        ("x'y", "(* (' x) y)"),
        ("x'A*x", "(* (* (' x) A) x)"),
        ("[x' y]", "(vcat (row (' x) y))"),
    ]);
}

#[test]
fn dotted_operators() {
    check(&[
        ("a .+ b", "(.+ a b)"),
        ("x.^2", "(.^ x 2)"),
        ("2.^x", "(.^ 2 x)"),
        ("a .== b", "(.== a b)"),
        ("a .* b .- c", "(.- (.* a b) c)"),
        (".-x", "(.neg x)"),
        (".!m", "(.not m)"),
        ("f.(x, y)", "(.call f x y)"),
        ("f.(x).^2", "(.^ (.call f x) 2)"),
    ]);
}

#[test]
fn comparisons() {
    check(&[
        ("a == b", "(== a b)"),
        ("a != b", "(!= a b)"),
        ("a ≠ b", "(!= a b)"),
        ("a <= b", "(<= a b)"),
        ("a ≤ b", "(<= a b)"),
        ("a ≥ b", "(>= a b)"),
        ("a ≈ b", "(≈ a b)"),
        ("a === b", "(=== a b)"),
        ("a !== b", "(!== a b)"),
        ("x in s", "(in x s)"),
        ("x ∈ s", "(in x s)"),
        ("x ∉ s", "(not (in x s))"),
        ("a ≉ b", "(not (≈ a b))"),
        ("x isa Int", "(call isa x Int)"),
        ("a < b < c", "(&& (< a b) (< b c))"),
        ("1 < 2 < 3 < 4", "(&& (&& (< 1 2) (< 2 3)) (< 3 4))"),
        ("a + 1 < b * 2", "(< (+ a 1) (* b 2))"),
        ("a < b && c", "(&& (< a b) c)"),
        ("a ⋅ b", "(call dot a b)"),
    ]);
}

#[test]
fn ranges() {
    check(&[
        ("1:n", "(range 1 n)"),
        ("a:b:c", "(range a b c)"),
        ("1:n-1", "(range 1 (- n 1))"),
        ("-1:1", "(range (neg 1) 1)"),
        ("0:0.1:1", "(range 0 0.1 1)"),
        ("1 : 3", "(range 1 3)"),
        ("a:b |> collect", "(|> (range a b) collect)"),
    ]);
}

#[test]
fn symbols_versus_ternary_versus_range() {
    check(&[
        ("c ? a : b", "(? c a b)"),
        ("c ? :a : :b", "(? c :a :b)"),
        ("c ? 1:2 : 3", "(? c (range 1 2) 3)"),
        ("a ? b ? c : d : e", "(? a (? b c d) e)"),
        ("a ? b : c ? d : e", "(? a b (? c d e))"),
        ("c ?\n  a :\n  b", "(? c a b)"),
        ("x = :sym", "(= x :sym)"),
        ("f(:a, :b)", "(call f :a :b)"),
        ("x[:, 1]", "(ref x : 1)"),
        ("x[1, :]", "(ref x 1 :)"),
        ("x[:]", "(ref x :)"),
        ("f(:)", "(call f :)"),
        ("c ? x -> 1 : y", "(? c (-> (params x) (block 1)) y)"),
        ("a ? b : c => d", "(=> (? a b c) d)"),
    ]);
}

#[test]
fn indexing_and_end() {
    check(&[
        ("x[i]", "(ref x i)"),
        ("A[i, j]", "(ref A i j)"),
        ("x[end]", "(ref x end)"),
        ("x[end-1]", "(ref x (- end 1))"),
        ("x[2:end]", "(ref x (range 2 end))"),
        ("x[begin:end]", "(ref x (range 1 end))"),
        ("x[mask]", "(ref x mask)"),
        ("x[]", "(ref x)"),
        ("x[f(end)]", "(ref x (call f end))"),
        ("x[[1, end]]", "(ref x (vect 1 end))"),
        ("x[idx...]", "(ref x (... idx))"),
        ("x [1]", "(ref x 1)"),
        ("A[i,\n  j]", "(ref A i j)"),
        ("x[end]'", "(' (ref x end))"),
    ]);
}

#[test]
fn postfix_chains() {
    check(&[
        ("a.b.c", "(. (. a b) c)"),
        ("x.y[1]", "(ref (. x y) 1)"),
        ("Random.seed!(1)", "(call (. Random seed!) 1)"),
        ("row.time", "(. row time)"),
        ("f(x)(y)", "(call (call f x) y)"),
        ("a.b(c).d[e]", "(ref (. (call (. a b) c) d) e)"),
        ("x'", "(' x)"),
        ("A''", "(' (' A))"),
        ("(x + y)'", "(' (+ x y))"),
        ("-x'", "(neg (' x))"),
        ("x'^2", "(^ (' x) 2)"),
    ]);
}

#[test]
fn calls_and_keywords() {
    check(&[
        ("f()", "(call f)"),
        ("f(x, y)", "(call f x y)"),
        ("f(x, y; k=1, j)", "(call f x y (kw k 1) (kw j j))"),
        ("f(x; k)", "(call f x (kw k k))"),
        ("f(x, k=1)", "(call f x (kw k 1))"),
        ("f(k=1, x)", "(call f x (kw k 1))"),
        ("f(; compile=true)", "(call f (kw compile true))"),
        ("f(xs...)", "(call f (... xs))"),
        ("f(x, args...; k = 2)", "(call f x (... args) (kw k 2))"),
        ("f(1:n...)", "(call f (... (range 1 n)))"),
        ("f(\n  a,\n  b,\n)", "(call f a b)"),
        ("push!(v, 1)", "(call push! v 1)"),
        ("gradient!(f, g, back, x)", "(call gradient! f g back x)"),
        ("reduce(+, x)", "(call reduce + x)"),
        ("map(-, v)", "(call map - v)"),
        ("+(1, 2)", "(call + 1 2)"),
        ("*(A, B)", "(call * A B)"),
        ("-(x)", "(neg x)"),
        (
            "sum(x^2 for x in xs)",
            "(call sum (generator (^ x 2) (= x xs)))",
        ),
        (
            "Scenario{:gradient, :out}(f, x; res1=2x)",
            "(call (curly Scenario :gradient :out) f x (kw res1 (* 2 x)))",
        ),
        ("Set{Int}([1, 2])", "(call (curly Set Int) (vect 1 2))"),
        (
            "AutoEnzyme(; mode=Enzyme.Reverse)",
            "(call AutoEnzyme (kw mode (. Enzyme Reverse)))",
        ),
    ]);
}

#[test]
fn arrays() {
    check(&[
        ("[]", "(vect)"),
        ("[1.0, 2, 3]", "(vect 1.0 2 3)"),
        ("[1]", "(vect 1)"),
        ("[1, 2,]", "(vect 1 2)"),
        ("[1 2; 3 4]", "(vcat (row 1 2) (row 3 4))"),
        ("[1 2\n 3 4]", "(vcat (row 1 2) (row 3 4))"),
        ("[1 2;\n 3 4]", "(vcat (row 1 2) (row 3 4))"),
        ("[\n  1 2\n  3 4\n]", "(vcat (row 1 2) (row 3 4))"),
        ("[a; b]", "(vcat (row a) (row b))"),
        ("[a b]", "(vcat (row a b))"),
        ("[a;]", "(vcat (row a))"),
        ("[xs...]", "(vect (... xs))"),
        (
            "[rand(10), rand(100)]",
            "(vect (call rand 10) (call rand 100))",
        ),
        (
            "[\n  AutoForwardDiff(),\n  AutoReverseDiff(),\n]",
            "(vect (call AutoForwardDiff) (call AutoReverseDiff))",
        ),
        ("Float64[]", "(typed Float64)"),
        ("Int[]", "(typed Int)"),
        ("Int[1, 2]", "(typed Int 1 2)"),
        ("[1 2 3]'", "(' (vcat (row 1 2 3)))"),
    ]);
}

#[test]
fn whitespace_inside_brackets() {
    check(&[
        ("[1 -2]", "(vcat (row 1 (neg 2)))"),
        ("[true false]", "(vcat (row true false))"),
        ("[1 true; false 0]", "(vcat (row 1 true) (row false 0))"),
        ("[1 - 2]", "(vect (- 1 2))"),
        ("[1 -  2]", "(vect (- 1 2))"),
        ("[1-2]", "(vect (- 1 2))"),
        ("[a +b]", "(vcat (row a (plus b)))"),
        ("[a' b']", "(vcat (row (' a) (' b)))"),
        ("[a' * b']", "(vect (* (' a) (' b)))"),
        ("[f(x) g(y)]", "(vcat (row (call f x) (call g y)))"),
        ("[f (x)]", "(vcat (row f x))"),
        ("[x [1]]", "(vcat (row x (vect 1)))"),
        ("[x[1]]", "(vect (ref x 1))"),
        ("[2x 3y]", "(vcat (row (* 2 x) (* 3 y)))"),
        ("[1 :a]", "(vcat (row 1 :a))"),
        ("[1 : 3]", "(vect (range 1 3))"),
        ("[x .- 1]", "(vect (.- x 1))"),
        ("[x .-1]", "(vcat (row x (.neg 1)))"),
        ("[f(a -1)]", "(vect (call f (- a 1)))"),
        ("[c ? 1 : 2]", "(vect (? c 1 2))"),
    ]);
}

#[test]
fn comprehensions() {
    check(&[
        ("[f(i) for i in 1:n]", "(comprehension (call f i) (= i (range 1 n)))"),
        ("[x for x in xs if x > 0]", "(comprehension x (= x xs) (if (> x 0)))"),
        (
            "[i+j for i in 1:2, j in 1:3]",
            "(comprehension (+ i j) (= i (range 1 2)) (= j (range 1 3)))",
        ),
        ("[x for x = xs]", "(comprehension x (= x xs))"),
        ("[x for x ∈ xs]", "(comprehension x (= x xs))"),
        ("[k for (k, v) in d]", "(comprehension k (= (tuple k v) d))"),
        ("[f(x)\n for x in xs]", "(comprehension (call f x) (= x xs))"),
        ("(x^2 for x in xs)", "(generator (^ x 2) (= x xs))"),
        (
            "sum(x for x in xs; init=0)",
            "(call sum (generator x (= x xs)) (kw init 0))",
        ),
        ("[(x for x in xs)]", "(vect (generator x (= x xs)))"),
        // Nested `for`s, as Julia lowers them: flatten of generators, the filter innermost; an
        // array comprehension of single clauses stays flat, one with a product group collects.
        (
            "(i + j for i in a for j in b if j > i)",
            "(call (. Iterators flatten) (generator (generator (+ i j) (= j b) (if (> j i))) (= i a)))",
        ),
        (
            "[(i, j) for i in a for j in b]",
            "(comprehension (tuple i j) flat (= i a) (= j b))",
        ),
        // A filter may end each group; one before a nested `for` filters the outer clauses.
        (
            "(i + j for i in a if i > 1 for j in b)",
            "(call (. Iterators flatten) (generator (generator (+ i j) (= j b)) (= i a) (if (> i 1))))",
        ),
        (
            "[j for i in a if p(i) for j in b if q(j)]",
            "(call collect (call (. Iterators flatten) (generator (generator j (= j b) (if (call q j))) (= i a) (if (call p i)))))",
        ),
        (
            "[k for i in a, j in b for k in c]",
            "(call collect (call (. Iterators flatten) (generator (generator k (= k c)) (= i a) (= j b))))",
        ),
        (
            "[Scenario{:gradient,:out}(f, x; res1=2x) for x in x_candidates]",
            "(comprehension (call (curly Scenario :gradient :out) f x (kw res1 (* 2 x))) (= x x_candidates))",
        ),
    ]);
}

#[test]
fn tuples_and_destructuring() {
    check(&[
        ("()", "(tuple)"),
        ("(a,)", "(tuple a)"),
        ("(a, b)", "(tuple a b)"),
        ("(x)", "x"),
        ("(x = 1, y = 2)", "(tuple (= x 1) (= y 2))"),
        ("(x = 1)", "(= x 1)"),
        ("(xs...,)", "(tuple (... xs))"),
        ("(a; b)", "(block a b)"),
        ("y, z = f(x)", "(= (tuple y z) (call f x))"),
        ("(a, b) = t", "(= (tuple a b) t)"),
        ("a, b = b, a", "(= (tuple a b) (tuple b a))"),
        ("x = 1, 2", "(= x (tuple 1 2))"),
        (
            "xsmall, xbig, x0big = float.(1:5), float.(1:1000), zeros(1000)",
            "(= (tuple xsmall xbig x0big) (tuple (.call float (range 1 5)) (.call float (range 1 1000)) (call zeros 1000)))",
        ),
        ("(a, (b, c)) = t", "(= (tuple a (tuple b c)) t)"),
    ]);
}

#[test]
fn assignments() {
    check(&[
        ("x = 1", "(= x 1)"),
        ("a = b = 3", "(= a (= b 3))"),
        ("x += v", "(+= x v)"),
        ("x -= 0.1 * g", "(-= x (* 0.1 g))"),
        ("x *= 2", "(*= x 2)"),
        ("x /= 2", "(/= x 2)"),
        ("x ^= 2", "(^= x 2)"),
        ("y[i] = v", "(= (ref y i) v)"),
        ("y[2:3] .= 0", "(.= (ref y (range 2 3)) 0)"),
        ("y .= f.(x)", "(.= y (.call f x))"),
        ("x .+= 1", "(.+= x 1)"),
        ("x .-= 1", "(.-= x 1)"),
        ("x .*= 2", "(.*= x 2)"),
        ("x ./= 2", "(./= x 2)"),
        ("p.x = 1", "(= (. p x) 1)"),
        ("x =\n  1", "(= x 1)"),
        ("const N = 10", "(= N 10)"),
    ]);
}

#[test]
fn lambdas() {
    check(&[
        ("x -> x^2", "(-> (params x) (block (^ x 2)))"),
        ("(x, y) -> x + y", "(-> (params x y) (block (+ x y)))"),
        ("() -> 1", "(-> (params) (block 1))"),
        ("(x) -> x", "(-> (params x) (block x))"),
        ("(x, y = 2) -> x", "(-> (params x (= y 2)) (block x))"),
        ("(args...) -> args", "(-> (params (... args)) (block args))"),
        ("((a, b), c) -> a", "(-> (params (tuple a b) c) (block a))"),
        ("x -> begin\n  x\nend", "(-> (params x) (block (block x)))"),
        (
            "map(x -> 2x, v)",
            "(call map (-> (params x) (block (* 2 x))) v)",
        ),
        (
            "x -> y -> x + y",
            "(-> (params x) (block (-> (params y) (block (+ x y)))))",
        ),
        (
            "x -> x > 0 ? 1 : -1",
            "(-> (params x) (block (? (> x 0) 1 (neg 1))))",
        ),
        (
            "f = function (x)\n  x\nend",
            "(= f (-> (params x) (block x)))",
        ),
        ("function(x) x end", "(-> (params x) (block x))"),
    ]);
}

#[test]
fn function_definitions() {
    check(&[
        ("f(x) = x^2", "(function f (params x) (block (^ x 2)))"),
        ("f(x, y=2) = x", "(function f (params x (= y 2)) (block x))"),
        (
            "f(x; k=1) = x",
            "(function f (params x (; (= k 1))) (block x))",
        ),
        (
            "f(x, args...) = x",
            "(function f (params x (... args)) (block x))",
        ),
        (
            "f(x; kw...) = x",
            "(function f (params x (; (... kw))) (block x))",
        ),
        ("f(x; k) = k", "(function f (params x (; k)) (block k))"),
        ("g() = 1", "(function g (params) (block 1))"),
        (
            "h((a, b)) = a",
            "(function h (params (tuple a b)) (block a))",
        ),
        ("f(x) = x, 1", "(function f (params x) (block (tuple x 1)))"),
        (
            "f!(y, x) = (y .= 2x)",
            "(function f! (params y x) (block (.= y (* 2 x))))",
        ),
        (
            "function f(x, y=2; k=1)\n  return x + y + k\nend",
            "(function f (params x (= y 2) (; (= k 1))) (block (return (+ (+ x y) k))))",
        ),
        ("function f() end", "(function f (params) (block))"),
        ("function f(x) x end", "(function f (params x) (block x))"),
        (
            "begin\n  f(x) = 1\nend",
            "(block (function f (params x) (block 1)))",
        ),
        ("g = (f(x) = 1)", "(= g (function f (params x) (block 1)))"),
    ]);
}

#[test]
fn docstrings() {
    check(&[
        (
            "\"doc\"\nf(x) = 1",
            "(function (doc \"doc\") f (params x) (block 1))",
        ),
        (
            "\"\"\"\n    f(x)\n\nSquares.\n\"\"\"\nfunction f(x)\n  x^2\nend",
            "(function (doc \"    f(x)\\n\\nSquares.\\n\") f (params x) (block (^ x 2)))",
        ),
        (
            "\"\"\"\n    g(x)\n\n    Doubles.\n    \"\"\"\ng(x) = 2x",
            "(function (doc \"g(x)\\n\\nDoubles.\\n\") g (params x) (block (* 2 x)))",
        ),
        // A blank line in between, or a statement that is no definition: no docstring.
        (
            "\"not doc\"\n\nf(x) = 1",
            "\"not doc\"\n(function f (params x) (block 1))",
        ),
        ("\"text\"\nx = 1", "\"text\"\n(= x 1)"),
        (
            "\"$x\"\nf(x) = 1",
            "(string x)\n(function f (params x) (block 1))",
        ),
    ]);
}

#[test]
fn conditionals() {
    check(&[
        ("if a\n  1\nend", "(if a (block 1))"),
        ("if a\n  1\nelse\n  2\nend", "(if a (block 1) (else 2))"),
        (
            "if a\n  1\nelseif b\n  2\nelseif c\n  3\nelse\n  4\nend",
            "(if a (block 1) (elseif b (block 2)) (elseif c (block 3)) (else 4))",
        ),
        ("if x > 0 y = 1 end", "(if (> x 0) (block (= y 1)))"),
        ("if (x > 0) y end", "(if (> x 0) (block y))"),
        ("x = if c 1 else 2 end", "(= x (if c (block 1) (else 2)))"),
        ("x > 0 && return x", "(&& (> x 0) (return x))"),
        ("c || continue", "(|| c continue)"),
    ]);
}

#[test]
fn loops() {
    check(&[
        (
            "for i in 1:n\n  s += i\nend",
            "(for (iter (= i (range 1 n))) (block (+= s i)))",
        ),
        ("for i = 1:n end", "(for (iter (= i (range 1 n))) (block))"),
        ("for i ∈ x end", "(for (iter (= i x)) (block))"),
        (
            "for (i, x) in enumerate(v)\n  println(i, x)\nend",
            "(for (iter (= (tuple i x) (call enumerate v))) (block (call println i x)))",
        ),
        (
            "for i in 1:n, j in 1:m\n  A[i, j] = i + j\nend",
            "(for (iter (= i (range 1 n)) (= j (range 1 m))) (block (= (ref A i j) (+ i j))))",
        ),
        (
            "for i in eachindex(x) x[i] = 0 end",
            "(for (iter (= i (call eachindex x))) (block (= (ref x i) 0)))",
        ),
        (
            "while i < 3\n  i += 1\n  i > 2 && break\nend",
            "(while (< i 3) (block (+= i 1) (&& (> i 2) break)))",
        ),
        ("while true; break; end", "(while true (block break))"),
        (
            "for x in xs\n  continue\nend",
            "(for (iter (= x xs)) (block continue))",
        ),
    ]);
}

#[test]
fn returns() {
    check(&[
        ("return", "(return)"),
        ("return x", "(return x)"),
        ("return x, y", "(return (tuple x y))"),
        (
            "function f()\n  return\nend",
            "(function f (params) (block (return)))",
        ),
        ("if c return end", "(if c (block (return)))"),
    ]);
}

#[test]
fn try_catch_finally() {
    check(&[
        (
            "try\n  f()\ncatch e\n  println(e)\nfinally\n  g()\nend",
            "(try (block (call f)) (catch e (block (call println e))) (finally (call g)))",
        ),
        (
            "try\n  f()\ncatch\n  1\nend",
            "(try (block (call f)) (catch _ (block 1)))",
        ),
        (
            "try f() catch; 1 end",
            "(try (block (call f)) (catch _ (block 1)))",
        ),
        (
            "try f() catch err println(err) end",
            "(try (block (call f)) (catch err (block (call println err))))",
        ),
        (
            "try\n  f()\nfinally\n  g()\nend",
            "(try (block (call f)) (finally (call g)))",
        ),
        ("try\n  f()\nend", "(try (block (call f)))"),
        (
            "throw(ArgumentError(\"bad\"))",
            "(call throw (call ArgumentError \"bad\"))",
        ),
    ]);
}

#[test]
fn blocks_and_scopes() {
    check(&[
        ("begin\n  x = 1\n  x + 1\nend", "(block (= x 1) (+ x 1))"),
        ("begin x end", "(block x)"),
        (
            "let a = 1, b = 2\n  a + b\nend",
            "(let (bindings (= a 1) (= b 2)) (block (+ a b)))",
        ),
        ("let\n  1\nend", "(let (bindings) (block 1))"),
        ("let x\n  x\nend", "(let (bindings x) (block x))"),
        ("let x = 1; x end", "(let (bindings (= x 1)) (block x))"),
        ("global x", "(global x)"),
        ("global x = 1", "(global (= x 1))"),
        ("global x, y", "(global x y)"),
        ("local x = 1, y", "(local (= x 1) y)"),
    ]);
}

#[test]
fn statements_and_separators() {
    check(&[
        ("", ""),
        (";", ""),
        ("# only a comment", ""),
        ("x = 1; y = 2", "(= x 1)\n(= y 2)"),
        ("x = 1;", "(= x 1)"),
        ("a\n\n\nb", "a\nb"),
        ("#= multi\nline =# x", "x"),
        ("#= nested #= comment =# =# x", "x"),
        ("x = 1 # trailing comment\ny", "(= x 1)\ny"),
        ("x = (1\n  + 2)", "(= x (+ 1 2))"),
        ("f(a,\n  b)", "(call f a b)"),
        ("a &&\n  b", "(&& a b)"),
        ("x = 1\r\ny = 2", "(= x 1)\n(= y 2)"),
    ]);
}

#[test]
fn macros() {
    check(&[
        ("@time f(x)", "(@time (call f x))"),
        ("@elapsed f(x)", "(@elapsed (call f x))"),
        ("t = @elapsed f(x)", "(= t (@elapsed (call f x)))"),
        ("@assert x > 0 \"msg\"", "(@assert (> x 0) \"msg\")"),
        ("@assert(c, \"m\")", "(@assert c \"m\")"),
        ("@show x y", "(@show x y)"),
        ("@show x -1", "(@show x (neg 1))"),
        ("@show x - 1", "(@show (- x 1))"),
        ("@b f($x)", "(@b (call f ($ x)))"),
        (
            "@b hessian($f, $p1, $back1, $xbig)",
            "(@b (call hessian ($ f) ($ p1) ($ back1) ($ xbig)))",
        ),
        ("@btime f($(x + 1))", "(@btime (call f ($ (+ x 1))))"),
        ("@time y = f(x)", "(@time (= y (call f x)))"),
        (
            "@time for i in 1:3\n  f(i)\nend",
            "(@time (for (iter (= i (range 1 3))) (block (call f i))))",
        ),
        (
            "@elapsed begin\n  sleep(1)\nend",
            "(@elapsed (block (call sleep 1)))",
        ),
        ("if c @show x end", "(if c (block (@show x)))"),
        ("(@time f(x))", "(@time (call f x))"),
        ("@time f(x); g(x)", "(@time (call f x))\n(call g x)"),
    ]);
}

#[test]
fn using_and_import() {
    check(&[
        ("using DifferentiationInterface", "using"),
        ("import ForwardDiff", "using"),
        ("import ForwardDiff, ReverseDiff", "using"),
        ("using DifferentiationInterface, Chairmarks", "using"),
        ("using X: y, z", "(import X y z)"),
        ("import X: y", "(import X y)"),
        ("import Base: +, *, /, sign", "(import Base + * / sign)"),
        (
            "using LinearAlgebra: norm\nx",
            "(import LinearAlgebra norm)\nx",
        ),
        ("import A.B", "(import A B)"),
        ("import A.B.c", "(import B c)"),
        // Other names: modules, imported names, a member by its path.
        (
            "import DifferentiationInterface as DI",
            "(import DifferentiationInterface as DI)",
        ),
        (
            "import LinearAlgebra as LA, ForwardDiff",
            "(import LinearAlgebra as LA)",
        ),
        ("import A as B, C as D", "(import A as B C as D)"),
        ("using X: y as z, w", "(import X w y as z)"),
        ("import A.f as g", "(import A f as g)"),
    ]);
}

#[test]
fn types_and_methods() {
    check(&[
        ("struct P; x; end", "(struct P x)"),
        (
            "mutable struct Dual{T} <: Number\n  val::T\n  der::T\nend",
            "(struct mutable Dual (params T) (<: Number) (:: val T) (:: der T))",
        ),
        (
            "struct S\n  a::Int\n  S(a) = new(a)\nend",
            "(struct S (:: a Int) (function S (params a) (block (call new a))))",
        ),
        ("abstract type Shape end", "(abstract Shape)"),
        (
            "abstract type AbstractSolver <: Any end",
            "(abstract AbstractSolver (<: Any))",
        ),
        (
            "f(x::Int, ::Float64) = x",
            "(function f (params (:: x Int) (:: _ Float64)) (block x))",
        ),
        (
            "+(a::T, b::T) = a",
            "(function + (params (:: a T) (:: b T)) (block a))",
        ),
        (
            "Base.:+(a, b) = a",
            "(function (module Base) + (params a b) (block a))",
        ),
        (
            "Base.show(io::IO, x) = 1",
            "(function (module Base) show (params (:: io IO) x) (block 1))",
        ),
        (
            "(l::Layer)(x) = x",
            "(function (callable (:: l Layer)) (params x) (block x))",
        ),
        (
            "function (l::Layer)(x)\n x\nend",
            "(function (callable (:: l Layer)) (params x) (block x))",
        ),
        ("x::Vector{Float64}", "(:: x (curly Vector Float64))"),
        (
            "f(xs::Int...) = xs",
            "(function f (params (... (:: xs Int))) (block xs))",
        ),
        ("Dual <: Number", "(<: Dual Number)"),
        ("a ∪ b", "(call union a b)"),
        (
            "map(x) do y\n y^2\nend",
            "(call map (-> (params y) (block (^ y 2))) x)",
        ),
        (
            "(x; s = 1.0) -> x * s",
            "(-> (params x (; (= s 1.0))) (block (* x s)))",
        ),
    ]);
}
