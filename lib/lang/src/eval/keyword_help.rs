//! The help of the type and method keywords (`?struct`, `?abstract type`, `?do`, `?import`,
//! `?where`): the keywords are syntax, not builtins, so their help lives here.

/// The keywords with help.
pub const KEYWORD_TOPICS: &[&str] = &["struct", "abstract type", "do", "import", "where"];

/// The help of the type and method keywords (`?struct`, `?abstract type`, `?do`, `?import`,
/// `?where`).
pub fn keyword_doc(topic: &str) -> Option<&'static str> {
    Some(match topic {
        "struct" | "mutable struct" | "mutable" => "    struct Name{T} <: Super\n        field::Type\n        other\n    end\n    mutable struct Name … end\n\nDefines a composite type. Its default constructor takes one argument per field (converted to the field's type; type parameters are inferred from the arguments, or given as in `Name{Float64}(…)`); fields are read with `x.field`, and assigned only in a `mutable struct`. Constructors written inside the body call `new(…)`; methods written outside (`Name(x) = Name(x, 0)`) add constructors. A struct may be callable: `(l::Name)(x) = …`. Redefining a struct with other fields is an error.\n\n```\njulia> struct Point{T} <: Number; x::T; y::T; end\n\njulia> p = Point(1.0, 2.0); (p.x, typeof(p))\n(1.0, Point{Float64})\n```",
        "abstract type" | "abstract" => "    abstract type Name <: Super end\n\nDefines an abstract type: it has no instances, but structs declare it as their supertype (`struct S <: Name … end`) and methods annotated with it (`f(x::Name)`) apply to all of them.\n\n```\njulia> abstract type Shape end\n\njulia> struct Square <: Shape; side::Float64; end\n\njulia> Square(2.0) isa Shape\ntrue\n```",
        "do" => "    f(args) do x, y\n        body\n    end\n\nA `do` block passes an anonymous function as the first argument of the call: `map(v) do x … end` is `map(x -> …, v)`.\n\n```\njulia> map([1, 2, 3]) do x\n           x^2\n       end\n3-element Vector{Int64}:\n 1\n 4\n 9\n```",
        "import" | "using" => "    import Base: +, show\n    using LinearAlgebra\n    import DifferentiationInterface as DI\n    using LinearAlgebra: norm as euclid\n\nEvery package name is already loaded, so `using` does nothing. `import M: f` lets you extend `f` with your own methods (`+(a::T, b::T) = …`); `Base.f(…) = …` does the same without importing. Defining a method with annotated arguments for a builtin without either is an error, as in Julia. `import M as A` names the module `A` too (`A.f` is `M.f`), and `import M: f as g` (or `import M.f as g`) binds `g` to `M.f`.\n\n```\njulia> import Base: +\n\njulia> struct V; x::Float64; end\n\njulia> +(a::V, b::V) = V(a.x + b.x); V(1.0) + V(2.0)\nV(3.0)\n\njulia> import LinearAlgebra as LA\n\njulia> LA.norm([3.0, 4.0])\n5.0\n```",
        "where" => "    f(x::T) where {T <: Real} = …\n    f(v::Vector{<:Real}) = …\n\nA `where` clause gives a method type variables: an annotation `::T` accepts any subtype of `T`'s bound (`Any` when none is given), and `T` is the argument's type inside the body (`one(T)`, `zero(T)`); `Vector{T}` binds the element type. A variable annotating several parameters (`f(x::T, y::T) where T`) requires arguments of one type, and such a method is more specific than one without the requirement. `Vector{<:Real}` is short for `Vector{T} where T <: Real`.\n\n```\njulia> addone(x::T) where {T <: Real} = x + one(T); addone(2)\n3\n\njulia> same(x::T, y::T) where T = true; same(x, y) = false; (same(1, 2), same(1, 2.0))\n(true, false)\n```",
        _ => return None,
    })
}
