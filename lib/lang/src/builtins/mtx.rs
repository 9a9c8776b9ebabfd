//! Matrix Market files: `readmtx(path)` (coordinate files become sparse matrices, array files
//! dense ones; general, symmetric and skew-symmetric; real, integer and pattern) and
//! `writemtx(path, A)`.

use super::sparse::sparse_value;
use super::Args;
use crate::display::print_string;
use crate::error::ErrorKind;
use crate::eval::operators::operand;
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::show::ElType;
use crate::value::Value;
use sprs::TriMat;

fn malformed(path: &str, line: usize, what: &str) -> Flow {
    fail(
        ErrorKind::ArgumentError,
        format!("{path}:{line}: malformed Matrix Market file: {what}"),
    )
}

/// Parses Matrix Market text into a value.
pub fn parse_mtx(interp: &Interp, path: &str, text: &str) -> EvalResult {
    let mut lines = text.lines().enumerate();
    let (_, banner) = lines
        .next()
        .ok_or_else(|| malformed(path, 1, "empty file"))?;
    let words: Vec<String> = banner.split_whitespace().map(str::to_lowercase).collect();
    if words.len() < 5 || words[0] != "%%matrixmarket" || words[1] != "matrix" {
        return Err(malformed(
            path,
            1,
            "the first line must be `%%MatrixMarket matrix <format> <field> <symmetry>`",
        ));
    }
    let (format, field, symmetry) = (words[2].as_str(), words[3].as_str(), words[4].as_str());
    if !matches!(field, "real" | "integer" | "pattern" | "double")
        || !matches!(symmetry, "general" | "symmetric" | "skew-symmetric")
    {
        return Err(malformed(
            path,
            1,
            &format!("unsupported field `{field}` or symmetry `{symmetry}`"),
        ));
    }
    let mut data = lines.filter(|(_, l)| !l.trim_start().starts_with('%') && !l.trim().is_empty());
    let (size_line, sizes) = data
        .next()
        .ok_or_else(|| malformed(path, 2, "missing size line"))?;
    let sizes: Vec<usize> = sizes
        .split_whitespace()
        .map(|w| {
            w.parse()
                .map_err(|_| malformed(path, size_line + 1, "sizes must be integers"))
        })
        .collect::<Result<_, _>>()?;
    let number = |w: Option<&str>, line: usize| -> Result<f64, Flow> {
        w.ok_or_else(|| malformed(path, line + 1, "missing value"))?
            .parse::<f64>()
            .map_err(|_| malformed(path, line + 1, "a value is not a number"))
    };
    match (format, sizes.as_slice()) {
        ("coordinate", [m, n, nnz]) => {
            let (m, n) = (*m, *n);
            interp.check_alloc(nnz.saturating_mul(2))?;
            let mut tri = TriMat::new((m, n));
            for (line, text) in data {
                let mut w = text.split_whitespace();
                let i: usize = w
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| malformed(path, line + 1, "bad row index"))?;
                let j: usize = w
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| malformed(path, line + 1, "bad column index"))?;
                if i == 0 || j == 0 || i > m || j > n {
                    return Err(malformed(
                        path,
                        line + 1,
                        &format!("index ({i}, {j}) outside a {m}×{n} matrix"),
                    ));
                }
                let v = if field == "pattern" {
                    1.0
                } else {
                    number(w.next(), line)?
                };
                tri.add_triplet(i - 1, j - 1, v);
                if i != j && symmetry != "general" {
                    tri.add_triplet(
                        j - 1,
                        i - 1,
                        if symmetry == "skew-symmetric" { -v } else { v },
                    );
                }
            }
            let eltype = if field == "pattern" {
                ElType::Bool
            } else {
                ElType::Float64
            };
            Ok(sparse_value(tri.to_csc(), eltype))
        }
        ("array", [m, n]) => {
            let (m, n) = (*m, *n);
            interp.check_alloc(m.saturating_mul(n))?;
            let mut values = Vec::with_capacity(m * n);
            for (line, text) in data {
                values.push(number(Some(text.trim()), line)?);
            }
            let mut out = vec![0.0; m * n];
            if symmetry == "general" {
                if values.len() != m * n {
                    return Err(malformed(
                        path,
                        0,
                        &format!("expected {} values, found {}", m * n, values.len()),
                    ));
                }
                out = values;
            } else {
                // Symmetric array files list the lower triangle, column by column.
                let mut k = 0;
                for j in 0..n {
                    for i in j..m {
                        let v = *values
                            .get(k)
                            .ok_or_else(|| malformed(path, 0, "too few values"))?;
                        out[i + j * m] = v;
                        out[j + i * m] = if symmetry == "skew-symmetric" && i != j {
                            -v
                        } else {
                            v
                        };
                        k += 1;
                    }
                }
            }
            Ok(super::array(ElType::Float64, &[m, n], out))
        }
        _ => Err(malformed(
            path,
            size_line + 1,
            "the size line does not fit the format",
        )),
    }
}

fn readmtx_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("readmtx", 1, 1)?;
    let path = print_string(&args.pos[0]);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        fail(
            ErrorKind::SystemError,
            format!("opening file \"{path}\": {e}"),
        )
    })?;
    parse_mtx(interp, &path, &text)
}

/// Matrix Market text for a sparse or dense matrix value.
pub fn format_mtx(v: &Value) -> Result<String, Flow> {
    let fmt = |x: f64| crate::show::float(x);
    match v {
        Value::Sparse(s) => {
            let s = s.borrow();
            let m = &s.matrix;
            let mut out = format!(
                "%%MatrixMarket matrix coordinate real general\n{} {} {}\n",
                m.rows(),
                m.cols(),
                m.nnz()
            );
            for (x, (i, j)) in m.iter() {
                out.push_str(&format!("{} {} {}\n", i + 1, j + 1, fmt(*x)));
            }
            Ok(out)
        }
        other => {
            let o = operand(other).ok_or_else(|| {
                fail(
                    ErrorKind::MethodError,
                    format!("writemtx needs a matrix, got a {}", other.type_name()),
                )
            })?;
            let t = o.tensor();
            let (m, n) = match t.shape() {
                [m] => (*m, 1),
                [m, n] => (*m, *n),
                _ => {
                    return Err(fail(
                        ErrorKind::ArgumentError,
                        "writemtx needs a vector or a matrix",
                    ))
                }
            };
            let mut out = format!("%%MatrixMarket matrix array real general\n{m} {n}\n");
            for x in t.to_col_major() {
                out.push_str(&fmt(x));
                out.push('\n');
            }
            Ok(out)
        }
    }
}

fn writemtx_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("writemtx", 2, 2)?;
    let path = print_string(&args.pos[0]);
    let text = format_mtx(&args.pos[1])?;
    std::fs::write(&path, text).map_err(|e| {
        fail(
            ErrorKind::SystemError,
            format!("writing file \"{path}\": {e}"),
        )
    })?;
    Ok(Value::Nothing)
}

crate::builtins! {
    "readmtx" => readmtx_, false, "    readmtx(path)\n\nReads a Matrix Market file: coordinate files become a `SparseMatrixCSC` (symmetric ones are expanded; pattern files hold `true`s), array files a dense matrix.\n\n```\njulia> A = readmtx(\"west0067.mtx\"); size(A), nnz(A)\n((67, 67), 294)\n```";
    "writemtx" => writemtx_, false, "    writemtx(path, A)\n\nWrites a sparse matrix as a coordinate file, a dense one as an array file.\n\n```\njulia> writemtx(\"m.mtx\", sparse([1, 2], [1, 2], [1.0, 2.0]))\n```";
}
