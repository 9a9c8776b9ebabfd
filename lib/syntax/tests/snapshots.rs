//! Snapshots (`expect_test`) of the full `Debug` tree, spans included, for representative
//! inputs, and of the error messages for a set of wrong ones. Update them with
//! `UPDATE_EXPECT=1 cargo test -p difflab-syntax --test snapshots` after a deliberate change.

use difflab_syntax::parse;
use expect_test::{expect, Expect};

fn check(src: &str, expected: Expect) {
    let block = parse(src).unwrap_or_else(|e| panic!("{src:?}: {}", e.message()));
    expected.assert_eq(&format!("{block:#?}"));
}

#[test]
fn coefficient_and_power() {
    check(
        "2x^2 - 1",
        expect![[r#"
        [
            Expr {
                kind: Binary {
                    op: Sub,
                    dotted: false,
                    lhs: Expr {
                        kind: Binary {
                            op: Mul,
                            dotted: false,
                            lhs: Expr {
                                kind: Int(
                                    2,
                                ),
                                span: Span {
                                    start: 0,
                                    end: 1,
                                },
                            },
                            rhs: Expr {
                                kind: Binary {
                                    op: Pow,
                                    dotted: false,
                                    lhs: Expr {
                                        kind: Ident(
                                            x,
                                        ),
                                        span: Span {
                                            start: 1,
                                            end: 2,
                                        },
                                    },
                                    rhs: Expr {
                                        kind: Int(
                                            2,
                                        ),
                                        span: Span {
                                            start: 3,
                                            end: 4,
                                        },
                                    },
                                },
                                span: Span {
                                    start: 1,
                                    end: 4,
                                },
                            },
                        },
                        span: Span {
                            start: 0,
                            end: 4,
                        },
                    },
                    rhs: Expr {
                        kind: Int(
                            1,
                        ),
                        span: Span {
                            start: 7,
                            end: 8,
                        },
                    },
                },
                span: Span {
                    start: 0,
                    end: 8,
                },
            },
        ]"#]],
    );
}

#[test]
fn short_definition_with_keyword_shorthand_end_and_adjoint() {
    check(
        "f(x; k) = x[end]'",
        expect![[r#"
            [
                Expr {
                    kind: Function(
                        FunctionDef {
                            name: Some(
                                f,
                            ),
                            module: None,
                            callable: None,
                            params: [
                                Param {
                                    pattern: Name(
                                        x,
                                    ),
                                    default: None,
                                    vararg: false,
                                    annotation: None,
                                },
                            ],
                            kwparams: [
                                Param {
                                    pattern: Name(
                                        k,
                                    ),
                                    default: None,
                                    vararg: false,
                                    annotation: None,
                                },
                            ],
                            type_vars: [],
                            return_type: None,
                            body: [
                                Expr {
                                    kind: Adjoint(
                                        Expr {
                                            kind: Index {
                                                target: Expr {
                                                    kind: Ident(
                                                        x,
                                                    ),
                                                    span: Span {
                                                        start: 10,
                                                        end: 11,
                                                    },
                                                },
                                                indices: [
                                                    Expr {
                                                        kind: End,
                                                        span: Span {
                                                            start: 12,
                                                            end: 15,
                                                        },
                                                    },
                                                ],
                                            },
                                            span: Span {
                                                start: 10,
                                                end: 16,
                                            },
                                        },
                                    ),
                                    span: Span {
                                        start: 10,
                                        end: 17,
                                    },
                                },
                            ],
                            doc: None,
                            span: Span {
                                start: 0,
                                end: 17,
                            },
                        },
                    ),
                    span: Span {
                        start: 0,
                        end: 17,
                    },
                },
            ]"#]],
    );
}

#[test]
fn docstring_and_function_with_defaults_and_varargs() {
    check(
        "\"Adds.\"\nfunction g(a, b = 2; k...)\n    a + b\nend",
        expect![[r#"
            [
                Expr {
                    kind: Function(
                        FunctionDef {
                            name: Some(
                                g,
                            ),
                            module: None,
                            callable: None,
                            params: [
                                Param {
                                    pattern: Name(
                                        a,
                                    ),
                                    default: None,
                                    vararg: false,
                                    annotation: None,
                                },
                                Param {
                                    pattern: Name(
                                        b,
                                    ),
                                    default: Some(
                                        Expr {
                                            kind: Int(
                                                2,
                                            ),
                                            span: Span {
                                                start: 26,
                                                end: 27,
                                            },
                                        },
                                    ),
                                    vararg: false,
                                    annotation: None,
                                },
                            ],
                            kwparams: [
                                Param {
                                    pattern: Name(
                                        k,
                                    ),
                                    default: None,
                                    vararg: true,
                                    annotation: None,
                                },
                            ],
                            type_vars: [],
                            return_type: None,
                            body: [
                                Expr {
                                    kind: Binary {
                                        op: Add,
                                        dotted: false,
                                        lhs: Expr {
                                            kind: Ident(
                                                a,
                                            ),
                                            span: Span {
                                                start: 39,
                                                end: 40,
                                            },
                                        },
                                        rhs: Expr {
                                            kind: Ident(
                                                b,
                                            ),
                                            span: Span {
                                                start: 43,
                                                end: 44,
                                            },
                                        },
                                    },
                                    span: Span {
                                        start: 39,
                                        end: 44,
                                    },
                                },
                            ],
                            doc: Some(
                                "Adds.",
                            ),
                            span: Span {
                                start: 8,
                                end: 48,
                            },
                        },
                    ),
                    span: Span {
                        start: 8,
                        end: 48,
                    },
                },
            ]"#]],
    );
}

#[test]
fn matrix_literal_with_negative_element() {
    check(
        "[1 -2; 3 4]",
        expect![[r#"
        [
            Expr {
                kind: Concat(
                    [
                        [
                            Expr {
                                kind: Int(
                                    1,
                                ),
                                span: Span {
                                    start: 1,
                                    end: 2,
                                },
                            },
                            Expr {
                                kind: Unary {
                                    op: Neg,
                                    dotted: false,
                                    operand: Expr {
                                        kind: Int(
                                            2,
                                        ),
                                        span: Span {
                                            start: 4,
                                            end: 5,
                                        },
                                    },
                                },
                                span: Span {
                                    start: 3,
                                    end: 5,
                                },
                            },
                        ],
                        [
                            Expr {
                                kind: Int(
                                    3,
                                ),
                                span: Span {
                                    start: 7,
                                    end: 8,
                                },
                            },
                            Expr {
                                kind: Int(
                                    4,
                                ),
                                span: Span {
                                    start: 9,
                                    end: 10,
                                },
                            },
                        ],
                    ],
                ),
                span: Span {
                    start: 0,
                    end: 11,
                },
            },
        ]"#]],
    );
}

#[test]
fn destructuring_a_dotted_call() {
    check(
        "y, z = f.(x)",
        expect![[r#"
        [
            Expr {
                kind: Assign {
                    target: Expr {
                        kind: Tuple(
                            [
                                Arg {
                                    value: Expr {
                                        kind: Ident(
                                            y,
                                        ),
                                        span: Span {
                                            start: 0,
                                            end: 1,
                                        },
                                    },
                                    splat: false,
                                },
                                Arg {
                                    value: Expr {
                                        kind: Ident(
                                            z,
                                        ),
                                        span: Span {
                                            start: 3,
                                            end: 4,
                                        },
                                    },
                                    splat: false,
                                },
                            ],
                        ),
                        span: Span {
                            start: 0,
                            end: 4,
                        },
                    },
                    op: None,
                    dotted: false,
                    value: Expr {
                        kind: Call {
                            callee: Expr {
                                kind: Ident(
                                    f,
                                ),
                                span: Span {
                                    start: 7,
                                    end: 8,
                                },
                            },
                            args: [
                                Arg {
                                    value: Expr {
                                        kind: Ident(
                                            x,
                                        ),
                                        span: Span {
                                            start: 10,
                                            end: 11,
                                        },
                                    },
                                    splat: false,
                                },
                            ],
                            kwargs: [],
                            dotted: true,
                        },
                        span: Span {
                            start: 7,
                            end: 12,
                        },
                    },
                },
                span: Span {
                    start: 0,
                    end: 12,
                },
            },
        ]"#]],
    );
}

#[test]
fn interpolated_string() {
    check(
        "\"v = $(x + 1)\"",
        expect![[r#"
        [
            Expr {
                kind: Str(
                    [
                        Text(
                            "v = ",
                        ),
                        Interp(
                            Expr {
                                kind: Binary {
                                    op: Add,
                                    dotted: false,
                                    lhs: Expr {
                                        kind: Ident(
                                            x,
                                        ),
                                        span: Span {
                                            start: 7,
                                            end: 8,
                                        },
                                    },
                                    rhs: Expr {
                                        kind: Int(
                                            1,
                                        ),
                                        span: Span {
                                            start: 11,
                                            end: 12,
                                        },
                                    },
                                },
                                span: Span {
                                    start: 7,
                                    end: 12,
                                },
                            },
                        ),
                    ],
                ),
                span: Span {
                    start: 0,
                    end: 14,
                },
            },
        ]"#]],
    );
}

#[test]
fn macro_with_interpolation() {
    check(
        "@b f($x)",
        expect![[r#"
        [
            Expr {
                kind: Macro {
                    name: b,
                    args: [
                        Expr {
                            kind: Call {
                                callee: Expr {
                                    kind: Ident(
                                        f,
                                    ),
                                    span: Span {
                                        start: 3,
                                        end: 4,
                                    },
                                },
                                args: [
                                    Arg {
                                        value: Expr {
                                            kind: Interpolate(
                                                Expr {
                                                    kind: Ident(
                                                        x,
                                                    ),
                                                    span: Span {
                                                        start: 6,
                                                        end: 7,
                                                    },
                                                },
                                            ),
                                            span: Span {
                                                start: 5,
                                                end: 7,
                                            },
                                        },
                                        splat: false,
                                    },
                                ],
                                kwargs: [],
                                dotted: false,
                            },
                            span: Span {
                                start: 3,
                                end: 8,
                            },
                        },
                    ],
                },
                span: Span {
                    start: 0,
                    end: 8,
                },
            },
        ]"#]],
    );
}

#[test]
fn for_loop_over_a_tuple_pattern() {
    check(
        "for (i, x) in enumerate(v) s += x end",
        expect![[r#"
        [
            Expr {
                kind: For {
                    generators: [
                        Generator {
                            pattern: Tuple(
                                [
                                    Name(
                                        i,
                                    ),
                                    Name(
                                        x,
                                    ),
                                ],
                            ),
                            iter: Expr {
                                kind: Call {
                                    callee: Expr {
                                        kind: Ident(
                                            enumerate,
                                        ),
                                        span: Span {
                                            start: 14,
                                            end: 23,
                                        },
                                    },
                                    args: [
                                        Arg {
                                            value: Expr {
                                                kind: Ident(
                                                    v,
                                                ),
                                                span: Span {
                                                    start: 24,
                                                    end: 25,
                                                },
                                            },
                                            splat: false,
                                        },
                                    ],
                                    kwargs: [],
                                    dotted: false,
                                },
                                span: Span {
                                    start: 14,
                                    end: 26,
                                },
                            },
                        },
                    ],
                    body: [
                        Expr {
                            kind: Assign {
                                target: Expr {
                                    kind: Ident(
                                        s,
                                    ),
                                    span: Span {
                                        start: 27,
                                        end: 28,
                                    },
                                },
                                op: Some(
                                    Add,
                                ),
                                dotted: false,
                                value: Expr {
                                    kind: Ident(
                                        x,
                                    ),
                                    span: Span {
                                        start: 32,
                                        end: 33,
                                    },
                                },
                            },
                            span: Span {
                                start: 27,
                                end: 33,
                            },
                        },
                    ],
                },
                span: Span {
                    start: 0,
                    end: 37,
                },
            },
        ]"#]],
    );
}

#[test]
fn curly_call_with_symbols_and_keyword() {
    check(
        "Scenario{:gradient, :out}(f, x; res1=2x)",
        expect![[r#"
            [
                Expr {
                    kind: Call {
                        callee: Expr {
                            kind: Curly {
                                name: Scenario,
                                params: [
                                    Expr {
                                        kind: Symbol(
                                            gradient,
                                        ),
                                        span: Span {
                                            start: 9,
                                            end: 18,
                                        },
                                    },
                                    Expr {
                                        kind: Symbol(
                                            out,
                                        ),
                                        span: Span {
                                            start: 20,
                                            end: 24,
                                        },
                                    },
                                ],
                            },
                            span: Span {
                                start: 0,
                                end: 25,
                            },
                        },
                        args: [
                            Arg {
                                value: Expr {
                                    kind: Ident(
                                        f,
                                    ),
                                    span: Span {
                                        start: 26,
                                        end: 27,
                                    },
                                },
                                splat: false,
                            },
                            Arg {
                                value: Expr {
                                    kind: Ident(
                                        x,
                                    ),
                                    span: Span {
                                        start: 29,
                                        end: 30,
                                    },
                                },
                                splat: false,
                            },
                        ],
                        kwargs: [
                            Kwarg {
                                name: res1,
                                value: Expr {
                                    kind: Binary {
                                        op: Mul,
                                        dotted: false,
                                        lhs: Expr {
                                            kind: Int(
                                                2,
                                            ),
                                            span: Span {
                                                start: 37,
                                                end: 38,
                                            },
                                        },
                                        rhs: Expr {
                                            kind: Ident(
                                                x,
                                            ),
                                            span: Span {
                                                start: 38,
                                                end: 39,
                                            },
                                        },
                                    },
                                    span: Span {
                                        start: 37,
                                        end: 39,
                                    },
                                },
                                splat: false,
                            },
                        ],
                        dotted: false,
                    },
                    span: Span {
                        start: 0,
                        end: 40,
                    },
                },
            ]"#]],
    );
}

#[test]
fn error_messages() {
    let inputs = [
        "end",
        "x = )",
        "1 2",
        "function f(x)",
        "x = [1, 2",
        "\"abc",
        "x +",
        "f(x,\n  y",
        "if a\n  b\nelse",
        "'ab'",
        "module M end",
        "@",
        "a ~ b",
        "1 = 2",
        "f (x)",
    ];
    let mut out = String::new();
    for src in inputs {
        let e = parse(src).expect_err(src);
        out.push_str(&format!(
            "{src:?} -> {} [{}..{}]{}\n",
            e.message(),
            e.span.start,
            e.span.end,
            if e.is_incomplete() {
                " (incomplete)"
            } else {
                ""
            }
        ));
    }
    expect![[r#"
        "end" -> unexpected "end" [0..3]
        "x = )" -> unexpected ")" [4..5]
        "1 2" -> extra token "2" after end of expression [2..3]
        "function f(x)" -> incomplete: "function" at 1:1 requires end [0..8] (incomplete)
        "x = [1, 2" -> incomplete: "[" at 1:5 requires "]" [4..5] (incomplete)
        "\"abc" -> unterminated string literal [0..1] (incomplete)
        "x +" -> unexpected end of input [3..3] (incomplete)
        "f(x,\n  y" -> incomplete: "(" at 1:2 requires ")" [1..2] (incomplete)
        "if a\n  b\nelse" -> incomplete: "if" at 1:1 requires end [0..2] (incomplete)
        "'ab'" -> character literal contains multiple characters [0..4]
        "module M end" -> "module" not supported [0..6]
        "@" -> invalid character "@" [0..1]
        "a ~ b" -> invalid character "~" [2..3]
        "1 = 2" -> invalid assignment location "1" [0..1]
        "f (x)" -> space before "(" not allowed in "f (" [2..3]
    "#]]
    .assert_eq(&out);
}
