//! MATPOWER case files: `readmatpower(path)`.
//!
//! A case file is a MATLAB function assigning fields of `mpc`: numeric scalars
//! (`mpc.baseMVA = 100;`) and matrices (`mpc.bus = [ … ];`, rows separated by `;` or newlines).
//! Each becomes a field of the returned named tuple, in file order, matrices as dense
//! `Matrix{Float64}`; text fields (`mpc.version = '2'`) and cell arrays (`mpc.bus_name = {…}`)
//! are skipped. This is what the power-grid benchmarks (the PGLib-OPF cases of the sparsity
//! talk's ACOPF table) need to build their Lagrangians in the language.

use super::Args;
use crate::display::print_string;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::Value;
use difflab_syntax::Name;

/// A field of `mpc` as read from the file.
#[derive(Debug, PartialEq)]
enum Field {
    Scalar(f64),
    /// Rows of equal length.
    Matrix(Vec<Vec<f64>>),
}

fn malformed(path: &str, line: usize, what: &str) -> Flow {
    fail(
        ErrorKind::ArgumentError,
        format!("{path}:{line}: malformed MATPOWER case: {what}"),
    )
}

/// The numeric fields of a case file, in order, with comments (`%` to the end of a line) removed.
fn parse_case(path: &str, text: &str) -> Result<Vec<(String, Field)>, Flow> {
    let code: String = text
        .lines()
        .map(|line| line.split('%').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let line_of = |offset: usize| code[..offset].matches('\n').count() + 1;
    let mut fields = Vec::new();
    let mut rest = 0;
    while let Some(found) = code[rest..].find("mpc.") {
        let start = rest + found + "mpc.".len();
        let name_len = code[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(code.len() - start);
        let name = &code[start..start + name_len];
        let after_name = code[start + name_len..].trim_start();
        let Some(value) = after_name.strip_prefix('=') else {
            rest = start + name_len;
            continue;
        };
        let value_start = code.len() - value.len();
        let value = value.trim_start();
        let (field, end) = match value.chars().next() {
            Some('[') => {
                let close = value.find(']').ok_or_else(|| {
                    malformed(
                        path,
                        line_of(value_start),
                        &format!("`mpc.{name}` has no `]`"),
                    )
                })?;
                let rows = parse_rows(&value[1..close])
                    .map_err(|what| malformed(path, line_of(value_start), &what))?;
                (Some(Field::Matrix(rows)), close + 1)
            }
            Some('{') => (None, value.find('}').map_or(value.len(), |c| c + 1)),
            _ => {
                let end = value.find([';', '\n']).unwrap_or(value.len());
                (value[..end].trim().parse().ok().map(Field::Scalar), end)
            }
        };
        if let Some(field) = field {
            fields.push((name.to_string(), field));
        }
        rest = code.len() - value.len() + end;
    }
    Ok(fields)
}

/// The rows of a matrix literal's body; every row must have as many numbers as the first.
fn parse_rows(body: &str) -> Result<Vec<Vec<f64>>, String> {
    let mut rows: Vec<Vec<f64>> = Vec::new();
    for row in body.split([';', '\n']) {
        let numbers = row
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(|w| {
                w.parse::<f64>()
                    .map_err(|_| format!("`{w}` is not a number"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if numbers.is_empty() {
            continue;
        }
        if let Some(first) = rows.first() {
            if first.len() != numbers.len() {
                return Err(format!(
                    "a row of {} numbers after rows of {}",
                    numbers.len(),
                    first.len()
                ));
            }
        }
        rows.push(numbers);
    }
    Ok(rows)
}

fn field_value(field: Field) -> Value {
    match field {
        Field::Scalar(x) => Value::Float(x),
        Field::Matrix(rows) => {
            let (m, n) = (rows.len(), rows.first().map_or(0, Vec::len));
            let data = (0..n)
                .flat_map(|j| rows.iter().map(move |row| row[j]))
                .collect();
            super::array(ElType::Float64, &[m, n], data)
        }
    }
}

/// The case in MATPOWER text `text` as a named tuple (`path` names the file in errors).
pub fn case_value(path: &str, text: &str) -> EvalResult {
    let fields = parse_case(path, text)?
        .into_iter()
        .map(|(name, field)| (Name::new(&name), field_value(field)))
        .collect();
    Ok(Value::named_tuple(fields))
}

fn readmatpower_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("readmatpower", 1, 1)?;
    let path = print_string(&args.pos[0]);
    let text = super::files::read_text(&path)?;
    case_value(&path, &text)
}

crate::builtins! {
    "readmatpower" => readmatpower_, false, "    readmatpower(path)\n\nReads a MATPOWER case file (as in the Power Grid Library, PGLib-OPF) into a named tuple of its numeric fields: `baseMVA` and the matrices `bus`, `gen`, `branch`, `gencost`, with MATPOWER's columns (`bus[:, 3]` is the active load Pd, `branch[:, 11]` the status, …).\n\n```\njulia> case = readmatpower(\"tests/fixtures/pglib/pglib_opf_case3_lmbd.m\");\n\njulia> size(case.branch), case.baseMVA\n((3, 13), 100.0)\n```";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scalars_and_matrices_and_skips_text_and_cells() {
        let text = "function mpc = demo\nmpc.version = '2';\nmpc.baseMVA = 100.0; % MVA\n\
                    mpc.bus = [\n\t1\t3\t110.0;\n\t2\t2\t95.5; % second\n];\n\
                    mpc.bus_name = {\n\t'A';\n\t'B';\n};\nmpc.gen = [1, 2; 3, 4];\n";
        let Ok(fields) = parse_case("demo.m", text) else {
            panic!("the demo case parses");
        };
        assert_eq!(
            fields,
            vec![
                ("baseMVA".into(), Field::Scalar(100.0)),
                (
                    "bus".into(),
                    Field::Matrix(vec![vec![1.0, 3.0, 110.0], vec![2.0, 2.0, 95.5]])
                ),
                (
                    "gen".into(),
                    Field::Matrix(vec![vec![1.0, 2.0], vec![3.0, 4.0]])
                ),
            ]
        );
    }

    #[test]
    fn ragged_rows_and_bad_numbers_are_errors_with_the_line() {
        for text in [
            "x\nmpc.bus = [1 2;\n 3];",
            "mpc.bus = [1 two];",
            "mpc.bus = [1 2;",
        ] {
            let Err(Flow::Error(e)) = parse_case("bad.m", text) else {
                panic!("{text:?} parsed");
            };
            assert_eq!(e.kind, ErrorKind::ArgumentError);
            assert!(e.message.starts_with("bad.m:"), "{}", e.message);
        }
    }
}
