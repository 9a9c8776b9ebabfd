//! Unit tests of the lexer: numbers, identifiers, operators, comments, strings.

use super::*;

fn kinds(src: &str) -> Vec<TokenKind> {
    let (tokens, error) = lex(src);
    assert!(error.is_none(), "{src:?}: {error:?}");
    tokens.into_iter().map(|t| t.kind).collect()
}

fn op(op: Op, dotted: bool) -> TokenKind {
    TokenKind::Op { op, dotted }
}

#[test]
fn numbers() {
    let cases: &[(&str, TokenKind)] = &[
        ("1_000", TokenKind::Int(1000)),
        ("1.5", TokenKind::Float(1.5)),
        ("1e-3", TokenKind::Float(1e-3)),
        (".5", TokenKind::Float(0.5)),
        ("1.", TokenKind::Float(1.0)),
        ("2.5e10", TokenKind::Float(2.5e10)),
        ("1f0", TokenKind::Float(1.0)),
        ("1E3", TokenKind::Float(1000.0)),
        ("0xff", TokenKind::Int(255)),
        ("0b101", TokenKind::Int(5)),
    ];
    for (src, expected) in cases {
        assert_eq!(kinds(src)[0], *expected, "{src}");
    }
}

#[test]
fn numbers_next_to_operators() {
    assert_eq!(kinds("1.+x")[..2], [TokenKind::Int(1), op(Op::Plus, true)]);
    assert_eq!(
        kinds("1:3")[..3],
        [TokenKind::Int(1), TokenKind::Colon, TokenKind::Int(3)]
    );
    assert_eq!(kinds("xs...")[1], TokenKind::Ellipsis);
    assert_eq!(
        kinds("2x")[..2],
        [TokenKind::Int(2), TokenKind::Ident(Name::new("x"))]
    );
    assert_eq!(
        kinds("2e")[..2],
        [TokenKind::Int(2), TokenKind::Ident(Name::new("e"))]
    );
}

#[test]
fn number_errors() {
    let (_, e) = lex("99999999999999999999");
    assert!(matches!(
        e.unwrap().kind,
        ParseErrorKind::IntegerTooLarge { .. }
    ));
    let (_, e) = lex("1e400");
    assert!(matches!(
        e.unwrap().kind,
        ParseErrorKind::FloatTooLarge { .. }
    ));
    let (_, e) = lex("0x");
    assert!(matches!(
        e.unwrap().kind,
        ParseErrorKind::InvalidNumber { .. }
    ));
}

#[test]
fn identifiers_and_bangs() {
    assert_eq!(kinds("push!(x)")[0], TokenKind::Ident(Name::new("push!")));
    assert_eq!(
        kinds("a!=b")[..3],
        [
            TokenKind::Ident(Name::new("a")),
            op(Op::Ne, false),
            TokenKind::Ident(Name::new("b"))
        ]
    );
    for name in ["α", "∇f", "x₁", "ŷ", "π", "ℯ", "x′", "x²"] {
        assert_eq!(kinds(name)[0], TokenKind::Ident(Name::new(name)), "{name}");
    }
}

#[test]
fn dotted_operators() {
    assert_eq!(kinds("a .+ b")[1], op(Op::Plus, true));
    assert_eq!(kinds("a .== b")[1], op(Op::Eq, true));
    assert_eq!(
        kinds("a .= b")[1],
        TokenKind::Assign {
            op: None,
            dotted: true
        }
    );
    assert_eq!(
        kinds("a .+= b")[1],
        TokenKind::Assign {
            op: Some(BinOp::Add),
            dotted: true
        }
    );
    assert_eq!(kinds("f.(x)")[1], TokenKind::Dot);
    assert_eq!(kinds("a.b")[1], TokenKind::Dot);
}

#[test]
fn adjoint_versus_character_literal() {
    assert_eq!(kinds("x'")[1], TokenKind::Quote);
    assert_eq!(kinds("x''")[2], TokenKind::Quote);
    assert_eq!(kinds("(x)'")[3], TokenKind::Quote);
    assert_eq!(kinds("'a'"), [TokenKind::Char('a'), TokenKind::Eof]);
    assert_eq!(kinds("f('a')")[2], TokenKind::Char('a'));
    assert_eq!(kinds("['a' 'b']")[2], TokenKind::Char('b'));
    assert_eq!(kinds("'a''")[1], TokenKind::Quote);
    let (_, e) = lex("x '");
    assert!(e.is_some());
}

#[test]
fn character_literals() {
    let cases = [
        (r"'\n'", '\n'),
        (r"'\''", '\''),
        (r"'\\'", '\\'),
        (r"'\u00e9'", 'é'),
        (r"'\x41'", 'A'),
        (r"'\u{1F600}'", '😀'),
        ("'é'", 'é'),
        ("'\"'", '"'),
        ("' '", ' '),
    ];
    for (src, c) in cases {
        assert_eq!(kinds(src), [TokenKind::Char(c), TokenKind::Eof], "{src}");
    }
    let problem = |src: &str| match lex(src).1.map(|e| (e.kind, e.span)) {
        Some((ParseErrorKind::InvalidCharLiteral { problem }, span)) => (problem, span),
        other => panic!("{src}: {other:?}"),
    };
    assert_eq!(
        problem("x = ''"),
        ("invalid empty character literal", Span::new(4, 6))
    );
    assert_eq!(
        problem("'ab' + 1"),
        (
            "character literal contains multiple characters",
            Span::new(0, 4)
        )
    );
    assert_eq!(
        problem("'a"),
        ("unterminated character literal", Span::new(0, 2))
    );
    assert_eq!(
        problem("'a\n'"),
        ("unterminated character literal", Span::new(0, 2))
    );
}

#[test]
fn comments_and_newlines() {
    assert_eq!(
        kinds("a # c\n#= x #= y =# z =# b"),
        [
            TokenKind::Ident(Name::new("a")),
            TokenKind::Newline,
            TokenKind::Ident(Name::new("b")),
            TokenKind::Eof
        ]
    );
    let (_, e) = lex("#= open");
    assert_eq!(e.unwrap().kind, ParseErrorKind::UnterminatedComment);
}

#[test]
fn strings() {
    let text = |s: &str| StrPiece::Text(s.into());
    assert_eq!(
        kinds(r#""a\tb\n\$\u03b1""#)[0],
        TokenKind::Str(vec![text("a\tb\n$α")])
    );
    let TokenKind::Str(pieces) = &kinds(r#""x = $x, $(f(y))!""#)[0] else {
        panic!()
    };
    assert_eq!(pieces.len(), 5);
    assert!(matches!(pieces[1], StrPiece::Name(..)));
    let StrPiece::Expr(tokens) = &pieces[3] else {
        panic!()
    };
    assert_eq!(tokens.len(), 6);
    let (_, e) = lex("\"abc");
    assert_eq!(e.unwrap().kind, ParseErrorKind::UnterminatedString);
    let (_, e) = lex(r#""\q""#);
    assert!(matches!(
        e.unwrap().kind,
        ParseErrorKind::InvalidEscape { .. }
    ));
    let (_, e) = lex(r#""$ x""#);
    assert_eq!(e.unwrap().kind, ParseErrorKind::InvalidInterpolation);
}

#[test]
fn string_macros_keep_their_text_as_written() {
    let prefixed = |prefix: &str, text: &str, flags: &str| TokenKind::PrefixedStr {
        prefix: Name::new(prefix),
        text: text.into(),
        flags: flags.into(),
    };
    assert_eq!(kinds(r#"r"\d+$x"i"#)[0], prefixed("r", r"\d+$x", "i"));
    assert_eq!(kinds(r#"raw"a\"b""#)[0], prefixed("raw", "a\"b", ""));
    assert_eq!(
        kinds("r\"\"\"\n    a b\n    \"\"\"x")[0],
        prefixed("r", "a b\n", "x")
    );
    // A space makes the name and the string two tokens.
    assert_eq!(kinds(r#"f "a""#)[0], TokenKind::Ident(Name::new("f")));
    let (_, e) = lex("r\"abc");
    assert_eq!(e.unwrap().kind, ParseErrorKind::UnterminatedString);
}

#[test]
fn triple_quoted_strings_are_dedented() {
    let src = "\"\"\"\n    f(x)\n\n      Doc.\n    \"\"\"";
    assert_eq!(
        kinds(src)[0],
        TokenKind::Str(vec![StrPiece::Text("f(x)\n\n  Doc.\n".into())])
    );
    assert_eq!(
        kinds("\"\"\"say \"hi\" \"\"\"")[0],
        TokenKind::Str(vec![StrPiece::Text("say \"hi\" ".into())])
    );
}

#[test]
fn spaces_are_recorded() {
    let (tokens, _) = lex("[1 -2]");
    assert!(tokens[2].space_before && !tokens[3].space_before);
}

/// The text of each token of `src` lexed tolerantly, with what the end is inside.
fn tolerant(src: &str) -> (Vec<&str>, Inside) {
    let lexed = lex_tolerant(src);
    let texts = lexed
        .tokens
        .iter()
        .filter(|t| t.kind != TokenKind::Eof)
        .map(|t| &src[t.span.start as usize..t.span.end as usize])
        .collect();
    (texts, lexed.inside)
}

#[test]
fn tolerant_lexing_runs_unterminated_literals_to_the_end() {
    assert_eq!(
        tolerant("s = \"abc"),
        (
            vec!["s", "=", "\"abc"],
            Inside::String {
                start: 4,
                content_start: 5
            }
        )
    );
    assert_eq!(
        tolerant("s = \"\"\"\nab\"\n").1,
        Inside::String {
            start: 4,
            content_start: 7
        }
    );
    assert_eq!(
        tolerant("x #= a #= b =# c"),
        (
            vec!["x"],
            Inside::Comment {
                start: 2,
                block: true
            }
        )
    );
    assert_eq!(
        tolerant("x # note"),
        (
            vec!["x"],
            Inside::Comment {
                start: 2,
                block: false
            }
        )
    );
    assert_eq!(tolerant("x # note\ny").1, Inside::Code);
    // The end inside an interpolation is code; a string inside it is the innermost literal.
    let lexed = lex_tolerant("\"a $(f(x, ");
    assert_eq!(lexed.inside, Inside::Interpolation { string_start: 0 });
    let TokenKind::Str(pieces) = &lexed.tokens[0].kind else {
        panic!("{:?}", lexed.tokens)
    };
    let StrPiece::Expr(inner) = &pieces[1] else {
        panic!("{pieces:?}")
    };
    assert_eq!(inner.len(), 5, "( f ( x , : {inner:?}");
    assert_eq!(
        tolerant("\"a $(g(\"b").1,
        Inside::String {
            start: 7,
            content_start: 8
        }
    );
}

#[test]
fn tolerant_lexing_goes_on_after_errors() {
    let lexed = lex_tolerant("x = 'ab' + 99999999999999999999 ~ y // 2 \"\\q $ ok\" end");
    let kinds: Vec<&TokenKind> = lexed.tokens.iter().map(|t| &t.kind).collect();
    assert!(matches!(
        kinds[2],
        TokenKind::Invalid(e) if matches!(**e, ParseErrorKind::InvalidCharLiteral { .. })
    ));
    assert!(kinds.iter().any(|k| matches!(
        k,
        TokenKind::Invalid(e) if matches!(**e, ParseErrorKind::IntegerTooLarge { .. })
    )));
    assert!(kinds
        .iter()
        .any(|k| matches!(k, TokenKind::Invalid(e) if **e == ParseErrorKind::InvalidChar('~'))));
    // An invalid escape and a bare `$` are text of their string, which ends where it should.
    assert!(kinds.contains(&&TokenKind::Str(vec![StrPiece::Text("\\q $ ok".into())])));
    assert_eq!(kinds[kinds.len() - 2], &TokenKind::Keyword(Keyword::End));
    assert_eq!(lexed.inside, Inside::Code);
    // Comments are reported, those inside interpolations too.
    let src = "a # one\n\"$(b #= two =# )\"";
    let comments: Vec<&str> = lex_tolerant(src)
        .comments
        .iter()
        .map(|s| &src[s.start as usize..s.end as usize])
        .collect();
    assert_eq!(comments, ["# one", "#= two =#"]);
}

#[test]
fn tolerant_and_strict_lexing_agree_on_valid_input() {
    for src in [
        "function f!(x₁, ∇f) push!(x₁, ∇f.(x₁) .^ 2) end",
        "@time a!b != c′ # note\n\"$n! $(x[end]) \\$\" #= c =# :sym",
    ] {
        let (strict, error) = lex(src);
        assert!(error.is_none(), "{error:?}");
        assert_eq!(lex_tolerant(src).tokens, strict, "{src}");
    }
}

#[test]
fn single_tokens() {
    assert!(matches!(single_token("push!"), Some(TokenKind::Ident(_))));
    assert!(matches!(single_token("∇f₁"), Some(TokenKind::Ident(_))));
    assert!(matches!(single_token("@time"), Some(TokenKind::Macro(_))));
    assert_eq!(single_token("end"), Some(TokenKind::Keyword(Keyword::End)));
    assert_eq!(single_token("a b"), None);
    assert_eq!(single_token("x≈y"), None);
    assert_eq!(single_token(""), None);
}

#[test]
fn tolerant_lexing_reads_every_prefix() {
    let src = "f(x; k=\"a\\u{3b1} $(g(\"∇\")) #=c=#\") = x₁' .+ 0x1f #= =# # ü\n@. [1 -2]'";
    for (cut, _) in src.char_indices() {
        let prefix = &src[..cut];
        let lexed = lex_tolerant(prefix);
        assert_eq!(lexed.tokens.last().map(|t| &t.kind), Some(&TokenKind::Eof));
        for t in &lexed.tokens {
            let (start, end) = (t.span.start as usize, t.span.end as usize);
            assert!(start <= end && end <= cut, "{prefix:?}: {t:?}");
            assert!(prefix.is_char_boundary(start) && prefix.is_char_boundary(end));
        }
    }
}
