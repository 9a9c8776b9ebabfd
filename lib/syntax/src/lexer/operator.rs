//! Operator tokens: the longest match among ASCII and Unicode operators (`+=`, `===`, `|>`,
//! `≈`, `∈`, `÷=`), and their dotted broadcasting forms (`.+`, `.==`, `.=`, `.+=`, `.=>`).

use super::{Op, TokenKind};
use crate::ast::BinOp;

/// The dotted (broadcasting) form of an operator token, when it has one.
pub(super) fn dotted(kind: TokenKind) -> Option<TokenKind> {
    match kind {
        TokenKind::Op { op, .. } => match op {
            Op::Compose
            | Op::CDot
            | Op::Subtype
            | Op::Union
            | Op::Intersect
            | Op::SetRelation(_) => None,
            op => Some(TokenKind::Op { op, dotted: true }),
        },
        TokenKind::Assign { op, .. } => Some(TokenKind::Assign { op, dotted: true }),
        _ => None,
    }
}

/// The operator (or other punctuation made of symbols) at the start of `rest`, with its length
/// in bytes; the longest match wins.
pub(super) fn operator_at(rest: &str) -> Option<(TokenKind, usize)> {
    use TokenKind as T;
    let op = |op| T::Op { op, dotted: false };
    let assign = |op| T::Assign {
        op: Some(op),
        dotted: false,
    };
    let bytes = rest.as_bytes();
    let second = bytes.get(1).copied();
    let third = bytes.get(2).copied();
    let with_eq = |plain: TokenKind, compound: BinOp| {
        if second == Some(b'=') {
            (assign(compound), 2)
        } else {
            (plain, 1)
        }
    };
    Some(match *bytes.first()? {
        b'+' => with_eq(op(Op::Plus), BinOp::Add),
        b'-' => match second {
            Some(b'>') => (T::Arrow, 2),
            _ => with_eq(op(Op::Minus), BinOp::Sub),
        },
        b'*' => with_eq(op(Op::Star), BinOp::Mul),
        b'/' => with_eq(op(Op::Slash), BinOp::Div),
        b'\\' => with_eq(op(Op::Backslash), BinOp::LeftDiv),
        b'^' => with_eq(op(Op::Caret), BinOp::Pow),
        b'%' => with_eq(op(Op::Percent), BinOp::Rem),
        b'=' => match (second, third) {
            (Some(b'='), Some(b'=')) => (op(Op::Identical), 3),
            (Some(b'='), _) => (op(Op::Eq), 2),
            (Some(b'>'), _) => (op(Op::Pair), 2),
            _ => (
                T::Assign {
                    op: None,
                    dotted: false,
                },
                1,
            ),
        },
        b'!' => match (second, third) {
            (Some(b'='), Some(b'=')) => (op(Op::NotIdentical), 3),
            (Some(b'='), _) => (op(Op::Ne), 2),
            _ => (op(Op::Not), 1),
        },
        b'<' => match second {
            Some(b'=') => (op(Op::Le), 2),
            Some(b':') => (op(Op::Subtype), 2),
            _ => (op(Op::Lt), 1),
        },
        b'>' => match second {
            Some(b'=') => (op(Op::Ge), 2),
            _ => (op(Op::Gt), 1),
        },
        b'&' => match second {
            Some(b'&') => (T::AndAnd, 2),
            _ => with_eq(op(Op::Amp), BinOp::BitAnd),
        },
        b'|' => match second {
            Some(b'|') => (T::OrOr, 2),
            Some(b'>') => (op(Op::Pipe), 2),
            _ => with_eq(op(Op::Bar), BinOp::BitOr),
        },
        b':' => match second {
            Some(b':') => (T::ColonColon, 2),
            _ => (T::Colon, 1),
        },
        _ => {
            let c = rest.chars().next()?;
            let len = c.len_utf8();
            let kind = match c {
                '÷' => {
                    if rest[len..].starts_with('=') {
                        return Some((assign(BinOp::IntDiv), len + 1));
                    }
                    op(Op::IntDiv)
                }
                '≠' => op(Op::Ne),
                '≤' => op(Op::Le),
                '≥' => op(Op::Ge),
                '≈' => op(Op::Approx),
                '≉' => op(Op::NotApprox),
                '≡' => op(Op::Identical),
                '≢' => op(Op::NotIdentical),
                '∈' => op(Op::In),
                '∉' => op(Op::NotIn),
                '√' => op(Op::Sqrt),
                '∘' => op(Op::Compose),
                '⋅' => op(Op::CDot),
                '∪' => op(Op::Union),
                '∩' => op(Op::Intersect),
                '⊆' | '⊇' | '⊊' | '⊋' | '⊈' | '⊉' => op(Op::SetRelation(c)),
                _ => return None,
            };
            (kind, len)
        }
    })
}
