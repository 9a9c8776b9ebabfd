//! Characters (`Char`): how they print, their arithmetic with integers, conversions to and
//! from code points, and the character classes (`isletter`, `isdigit`, …) by Unicode general
//! category, as Julia defines them.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::Value;
use difflab_syntax::BinOp;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// `repr(c)`: the literal that reads back as `c` (`'a'`, `'\n'`, `'\''`, `'\x7f'`).
pub fn repr(c: char) -> String {
    let escaped = match c {
        '\'' => "\\'".into(),
        '\\' => "\\\\".into(),
        '\n' => "\\n".into(),
        '\t' => "\\t".into(),
        '\r' => "\\r".into(),
        '\0' => "\\0".into(),
        '\u{7}' => "\\a".into(),
        '\u{8}' => "\\b".into(),
        '\u{b}' => "\\v".into(),
        '\u{c}' => "\\f".into(),
        '\u{1b}' => "\\e".into(),
        c if c.is_ascii_control() => format!("\\x{:02x}", u32::from(c)),
        c if !printable(c) => format!("\\u{:x}", u32::from(c)),
        c => c.to_string(),
    };
    format!("'{escaped}'")
}

/// The REPL's display of a character: its literal, code point and category, as Julia's.
pub fn plain(c: char) -> String {
    let (abbreviation, description) = category(c);
    let encoding = if c.is_ascii() {
        "ASCII/Unicode"
    } else {
        "Unicode"
    };
    format!(
        "{}: {encoding} U+{:04X} (category {abbreviation}: {description})",
        repr(c),
        u32::from(c)
    )
}

/// Whether Julia prints the character itself in a literal (not an escape).
fn printable(c: char) -> bool {
    !matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Other | GeneralCategoryGroup::Separator
    ) || c == ' '
}

/// The Unicode general category: its abbreviation and Julia's description of it.
fn category(c: char) -> (&'static str, &'static str) {
    use GeneralCategory::*;
    match c.general_category() {
        UppercaseLetter => ("Lu", "Letter, uppercase"),
        LowercaseLetter => ("Ll", "Letter, lowercase"),
        TitlecaseLetter => ("Lt", "Letter, titlecase"),
        ModifierLetter => ("Lm", "Letter, modifier"),
        OtherLetter => ("Lo", "Letter, other"),
        NonspacingMark => ("Mn", "Mark, nonspacing"),
        SpacingMark => ("Mc", "Mark, spacing combining"),
        EnclosingMark => ("Me", "Mark, enclosing"),
        DecimalNumber => ("Nd", "Number, decimal digit"),
        LetterNumber => ("Nl", "Number, letter"),
        OtherNumber => ("No", "Number, other"),
        ConnectorPunctuation => ("Pc", "Punctuation, connector"),
        DashPunctuation => ("Pd", "Punctuation, dash"),
        OpenPunctuation => ("Ps", "Punctuation, open"),
        ClosePunctuation => ("Pe", "Punctuation, close"),
        InitialPunctuation => ("Pi", "Punctuation, initial quote"),
        FinalPunctuation => ("Pf", "Punctuation, final quote"),
        OtherPunctuation => ("Po", "Punctuation, other"),
        MathSymbol => ("Sm", "Symbol, math"),
        CurrencySymbol => ("Sc", "Symbol, currency"),
        ModifierSymbol => ("Sk", "Symbol, modifier"),
        OtherSymbol => ("So", "Symbol, other"),
        SpaceSeparator => ("Zs", "Separator, space"),
        LineSeparator => ("Zl", "Separator, line"),
        ParagraphSeparator => ("Zp", "Separator, paragraph"),
        Control => ("Cc", "Other, control"),
        Format => ("Cf", "Other, format"),
        Surrogate => ("Cs", "Other, surrogate"),
        PrivateUse => ("Co", "Other, private use"),
        Unassigned => ("Cn", "Other, not assigned"),
    }
}

/// The character with code point `code`, or Julia's error for a number that is none.
pub fn from_code(code: i64) -> Result<char, Flow> {
    u32::try_from(code)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| {
            fail(
                ErrorKind::ArgumentError,
                format!("invalid character code {code}: not a Unicode scalar value"),
            )
        })
}

/// Operators with a character operand: `c + n` and `c - n` (a character), `c - d` (the
/// distance between code points), comparisons by code point, and `*`/`^` building strings.
/// `None` when the operator has no method for these operands.
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Option<EvalResult> {
    let shifted = |c: char, n: i64| {
        Some(i64::from(u32::from(c)).checked_add(n).map_or_else(
            || {
                Err(fail(
                    ErrorKind::ArgumentError,
                    "character code out of range",
                ))
            },
            |code| from_code(code).map(Value::Char),
        ))
    };
    match (op, a, b) {
        (BinOp::Add, Value::Char(c), Value::Int(n))
        | (BinOp::Add, Value::Int(n), Value::Char(c)) => shifted(*c, *n),
        (BinOp::Sub, Value::Char(c), Value::Int(n)) => shifted(*c, n.checked_neg()?),
        (BinOp::Sub, Value::Char(c), Value::Char(d)) => Some(Ok(Value::Int(
            i64::from(u32::from(*c)) - i64::from(u32::from(*d)),
        ))),
        (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, Value::Char(c), Value::Char(d)) => {
            let order = c.cmp(d);
            Some(Ok(Value::Bool(match op {
                BinOp::Lt => order.is_lt(),
                BinOp::Le => order.is_le(),
                BinOp::Gt => order.is_gt(),
                _ => order.is_ge(),
            })))
        }
        (BinOp::Mul, Value::Char(_) | Value::Str(_), Value::Char(_) | Value::Str(_)) => {
            Some(Ok(Value::str(format!("{}{}", text_of(a)?, text_of(b)?))))
        }
        (BinOp::Pow, Value::Char(c), Value::Int(n)) if *n >= 0 => Some(
            difflab_ad::limits::reserve(
                (*n as u64).saturating_mul(c.len_utf8() as u64),
                "a repeated character",
            )
            .map_err(Flow::from)
            .map(|()| Value::str(c.to_string().repeat(*n as usize))),
        ),
        _ => None,
    }
}

/// The text of a string or a character (the needle, separator or fill that string functions
/// accept either way).
pub fn text_of(v: &Value) -> Option<std::borrow::Cow<'_, str>> {
    match v {
        Value::Str(s) => Some(std::borrow::Cow::Borrowed(s.as_str())),
        Value::Char(c) => Some(std::borrow::Cow::Owned(c.to_string())),
        _ => None,
    }
}

/// `'a':'e'` and `'a':2:'e'`: the characters from `first` to `last` by `step` code points, as a
/// vector (Julia's is a lazy `StepRange{Char}`; it iterates and indexes the same).
pub fn range(first: char, step: Option<&Value>, last: char) -> EvalResult {
    let step = match step {
        None => 1,
        Some(Value::Int(s)) if *s != 0 => *s,
        Some(Value::Int(_)) => return Err(fail(ErrorKind::ArgumentError, "step cannot be zero")),
        Some(other) => {
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching (:)(::Char, ::{}, ::Char)",
                    other.type_name()
                ),
            ))
        }
    };
    let (from, to) = (i64::from(u32::from(first)), i64::from(u32::from(last)));
    let count = if (to - from) * step.signum() < 0 {
        0
    } else {
        (to - from) / step + 1
    };
    difflab_ad::limits::reserve(
        (count as u64).saturating_mul(std::mem::size_of::<Value>() as u64),
        "a range of characters",
    )?;
    let chars = (0..count)
        .filter_map(|k| char::from_u32(u32::try_from(from + k * step).ok()?))
        .map(Value::Char)
        .collect();
    Ok(Value::list(chars))
}

fn char_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Char", 1, 1)?;
    match &args.pos[0] {
        Value::Char(c) => Ok(Value::Char(*c)),
        other => from_code(super::to_int(other, "Char")?).map(Value::Char),
    }
}

/// The character argument of a character class or conversion.
fn character(args: &Args, name: &str) -> Result<char, Flow> {
    args.arity(name, 1, 1)?;
    match &args.pos[0] {
        Value::Char(c) => Ok(*c),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", other.type_name()),
        )),
    }
}

fn codepoint_(_: &mut Interp, args: Args) -> EvalResult {
    Ok(Value::Int(i64::from(u32::from(character(
        &args,
        "codepoint",
    )?))))
}

/// Defines a character class: a builtin testing one character.
macro_rules! classes {
    ($($fn_name:ident, $name:literal, |$c:ident| $test:expr;)*) => {
        $(fn $fn_name(_: &mut Interp, args: Args) -> EvalResult {
            let $c = character(&args, $name)?;
            Ok(Value::Bool($test))
        })*
    };
}

classes! {
    isletter_, "isletter", |c| c.general_category_group() == GeneralCategoryGroup::Letter;
    isdigit_, "isdigit", |c| c.is_ascii_digit();
    isxdigit_, "isxdigit", |c| c.is_ascii_hexdigit();
    isnumeric_, "isnumeric", |c| c.general_category_group() == GeneralCategoryGroup::Number;
    ispunct_, "ispunct", |c| c.general_category_group() == GeneralCategoryGroup::Punctuation;
    isspace_, "isspace", |c| c.is_whitespace();
    isuppercase_, "isuppercase", |c| c.is_uppercase();
    islowercase_, "islowercase", |c| c.is_lowercase();
    iscntrl_, "iscntrl", |c| c.is_control();
    isprint_, "isprint", |c| printable(c);
}

/// `isascii(c)` or `isascii(s)`.
fn isascii_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isascii", 1, 1)?;
    match &args.pos[0] {
        Value::Char(c) => Ok(Value::Bool(c.is_ascii())),
        Value::Str(s) => Ok(Value::Bool(s.is_ascii())),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching isascii(::{})", other.type_name()),
        )),
    }
}

crate::builtins! {
    "Char" => char_, false, "    Char(n)\n\nThe type of characters, and its constructor: the character with code point `n`. Character literals are written in single quotes; strings iterate and index into characters.\n\n```\njulia> Char(97)\n'a': ASCII/Unicode U+0061 (category Ll: Letter, lowercase)\n\njulia> 'a' + 2\n'c': ASCII/Unicode U+0063 (category Ll: Letter, lowercase)\n\njulia> [c for c in \"ab\"]\n2-element Vector{Char}:\n 'a'\n 'b'\n```";
    "codepoint" => codepoint_, false, "    codepoint(c)\n\nThe Unicode code point of a character, as an `Int` (Julia's is a `UInt32`).\n\n```\njulia> codepoint('α')\n945\n```";
    "isletter" => isletter_, false, "    isletter(c)\n\nWhether the character is a letter (Unicode category L).\n\n```\njulia> isletter('x'), isletter('1')\n(true, false)\n```";
    "isdigit" => isdigit_, false, "    isdigit(c)\n\nWhether the character is one of `0` to `9`.\n\n```\njulia> count(isdigit, \"x1y22\")\n3\n```";
    "isxdigit" => isxdigit_, false, "    isxdigit(c)\n\nWhether the character is a hexadecimal digit.\n\n```\njulia> isxdigit('f')\ntrue\n```";
    "isnumeric" => isnumeric_, false, "    isnumeric(c)\n\nWhether the character is numeric (Unicode category N: digits of any script, fractions, numerals).\n\n```\njulia> isnumeric('½')\ntrue\n```";
    "ispunct" => ispunct_, false, "    ispunct(c)\n\nWhether the character is punctuation (Unicode category P).\n\n```\njulia> filter(ispunct, \"a, b!\")\n\",!\"\n```";
    "isspace" => isspace_, false, "    isspace(c)\n\nWhether the character is whitespace.\n\n```\njulia> isspace('\\t')\ntrue\n```";
    "isuppercase" => isuppercase_, false, "    isuppercase(c)\n\nWhether the character is an uppercase letter.\n\n```\njulia> isuppercase('A')\ntrue\n```";
    "islowercase" => islowercase_, false, "    islowercase(c)\n\nWhether the character is a lowercase letter.\n\n```\njulia> islowercase('A')\nfalse\n```";
    "iscntrl" => iscntrl_, false, "    iscntrl(c)\n\nWhether the character is a control character.\n\n```\njulia> iscntrl('\\n')\ntrue\n```";
    "isprint" => isprint_, false, "    isprint(c)\n\nWhether the character is printable (not a control, format or separator character other than the space).\n\n```\njulia> isprint('a'), isprint('\\n')\n(true, false)\n```";
    "isascii" => isascii_, false, "    isascii(c)\n    isascii(s)\n\nWhether the character, or every character of the string, is ASCII.\n\n```\njulia> isascii(\"abc\"), isascii('é')\n(true, false)\n```";
}
