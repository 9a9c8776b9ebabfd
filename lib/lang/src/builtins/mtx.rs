//! Matrix Market files: `readmtx(path)` and `writemtx(path, A)`.
//!
//! Coordinate files become sparse matrices (general, symmetric, skew-symmetric and hermitian
//! real files are expanded to all their entries; `pattern` files hold `true`s; stored zeros and
//! summed duplicates behave as in `sparse(I, J, V)`), array files dense matrices (`integer` ones
//! `Int64`). Writing gives a coordinate file for a sparse matrix (`pattern` for a `Bool` one)
//! and an array file for a dense one, with numbers that read back exactly. Unreadable files are
//! `SystemError`s, malformed ones `ArgumentError`s naming the file and line.

use super::sparse::sparse_value;
use super::Args;
use crate::display::print_string;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::operand;
use crate::value::Value;
use sprs::TriMat;

fn malformed(path: &str, line: usize, what: &str) -> Flow {
    fail(
        ErrorKind::ArgumentError,
        format!("{path}:{line}: malformed Matrix Market file: {what}"),
    )
}

/// A number as Matrix Market files write it; Fortran's `1.5D+03` is accepted too.
fn parse_number(word: &str) -> Option<f64> {
    word.parse::<f64>()
        .ok()
        .or_else(|| word.replace(['D', 'd'], "e").parse::<f64>().ok())
}

/// Parses Matrix Market text into a value (`path` names the file in errors).
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
    if !matches!(format, "coordinate" | "array") {
        return Err(malformed(
            path,
            1,
            &format!("unknown format `{format}` (expected coordinate or array)"),
        ));
    }
    if !matches!(field, "real" | "integer" | "pattern" | "double") {
        return Err(malformed(
            path,
            1,
            &format!("unsupported field `{field}` (difflab reads real, integer and pattern files)"),
        ));
    }
    if !matches!(
        symmetry,
        "general" | "symmetric" | "skew-symmetric" | "hermitian"
    ) {
        return Err(malformed(
            path,
            1,
            &format!("unknown symmetry `{symmetry}`"),
        ));
    }
    if format == "array" && field == "pattern" {
        return Err(malformed(path, 1, "an array file cannot be a pattern"));
    }
    let skew = symmetry == "skew-symmetric";
    let mut data = lines.filter(|(_, l)| !l.trim_start().starts_with('%') && !l.trim().is_empty());
    let (size_line, sizes) = data
        .next()
        .ok_or_else(|| malformed(path, 2, "missing size line"))?;
    let sizes: Vec<usize> = sizes
        .split_whitespace()
        .map(|w| {
            w.parse()
                .map_err(|_| malformed(path, size_line + 1, "sizes must be non-negative integers"))
        })
        .collect::<Result<_, _>>()?;
    let last_line = text.lines().count();
    match (format, sizes.as_slice()) {
        ("coordinate", &[m, n, count]) => {
            let symmetric = symmetry != "general";
            if symmetric && m != n {
                return Err(malformed(
                    path,
                    size_line + 1,
                    &format!("a {symmetry} matrix must be square, not {m}×{n}"),
                ));
            }
            let entries = if symmetric {
                count.saturating_mul(2)
            } else {
                count
            };
            // Three numbers per entry and an offset per column (a file may declare 10^9 columns).
            interp.check_alloc(
                entries
                    .saturating_mul(3)
                    .saturating_add(n)
                    .saturating_add(1),
            )?;
            let mut tri = TriMat::with_capacity((m, n), entries);
            let mut read = 0usize;
            for (line, text) in data {
                if read == count {
                    return Err(malformed(
                        path,
                        line + 1,
                        &format!("more entries than the {count} the size line announces"),
                    ));
                }
                let mut w = text.split_whitespace();
                let mut index = |what: &str, extent: usize| -> Result<usize, Flow> {
                    let k: usize = w
                        .next()
                        .and_then(|v| v.parse().ok())
                        .ok_or_else(|| malformed(path, line + 1, &format!("bad {what} index")))?;
                    if k == 0 || k > extent {
                        return Err(malformed(
                            path,
                            line + 1,
                            &format!("{what} index {k} outside 1:{extent}"),
                        ));
                    }
                    Ok(k - 1)
                };
                let (i, j) = (index("row", m)?, index("column", n)?);
                let v = if field == "pattern" {
                    1.0
                } else {
                    w.next()
                        .and_then(parse_number)
                        .ok_or_else(|| malformed(path, line + 1, "missing or bad value"))?
                };
                tri.add_triplet(i, j, v);
                if symmetric && i != j {
                    tri.add_triplet(j, i, if skew { -v } else { v });
                }
                read += 1;
            }
            if read < count {
                return Err(malformed(
                    path,
                    last_line,
                    &format!("the size line announces {count} entries, the file has {read}"),
                ));
            }
            let eltype = if field == "pattern" {
                ElType::Bool
            } else {
                ElType::Float64
            };
            Ok(sparse_value(tri.to_csc(), eltype))
        }
        ("array", &[m, n]) => {
            let symmetric = symmetry != "general";
            if symmetric && m != n {
                return Err(malformed(
                    path,
                    size_line + 1,
                    "a symmetric array file must be square",
                ));
            }
            interp.check_alloc(m.saturating_mul(n))?;
            // General files list every entry column by column; symmetric ones the lower
            // triangle (skew-symmetric ones without the diagonal), column by column.
            let positions: Vec<(usize, usize)> = if symmetric {
                (0..n)
                    .flat_map(|j| ((if skew { j + 1 } else { j })..m).map(move |i| (i, j)))
                    .collect()
            } else {
                (0..n).flat_map(|j| (0..m).map(move |i| (i, j))).collect()
            };
            let mut out = vec![0.0; m * n];
            let mut read = 0usize;
            for (line, text) in data {
                let Some(&(i, j)) = positions.get(read) else {
                    return Err(malformed(
                        path,
                        line + 1,
                        &format!(
                            "more values than the {} a {m}×{n} array holds",
                            positions.len()
                        ),
                    ));
                };
                let v = text
                    .split_whitespace()
                    .next()
                    .and_then(parse_number)
                    .ok_or_else(|| malformed(path, line + 1, "a value is not a number"))?;
                out[i + j * m] = v;
                if symmetric && i != j {
                    out[j + i * m] = if skew { -v } else { v };
                }
                read += 1;
            }
            if read < positions.len() {
                return Err(malformed(
                    path,
                    last_line,
                    &format!("expected {} values, found {read}", positions.len()),
                ));
            }
            let eltype = if field == "integer" {
                ElType::Int64
            } else {
                ElType::Float64
            };
            Ok(super::array(eltype, &[m, n], out))
        }
        _ => Err(malformed(
            path,
            size_line + 1,
            &format!(
                "the size line of a {format} file holds {}",
                if format == "coordinate" {
                    "rows, columns and entries"
                } else {
                    "rows and columns"
                }
            ),
        )),
    }
}

fn readmtx_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("readmtx", 1, 1)?;
    let path = print_string(&args.pos[0]);
    let text = super::files::read_text(&path)?;
    parse_mtx(interp, &path, &text)
}

/// A number written so that it reads back exactly (Rust's shortest round-trip form).
fn number_text(x: f64) -> String {
    if x.is_finite() && x == x.trunc() && x.abs() < 1e15 && !(x == 0.0 && x.is_sign_negative()) {
        format!("{}", x as i64)
    } else {
        format!("{x:e}")
    }
}

/// Matrix Market text for a sparse or dense matrix value (a vector is one column).
pub fn format_mtx(v: &Value) -> Result<String, Flow> {
    use std::fmt::Write;
    match v {
        Value::Sparse(s) => {
            let s = s.borrow();
            let m = &s.matrix;
            let pattern = s.eltype == ElType::Bool;
            let mut out = format!(
                "%%MatrixMarket matrix coordinate {} general\n{} {} {}\n",
                if pattern { "pattern" } else { "real" },
                m.rows(),
                m.cols(),
                m.nnz()
            );
            for (j, col) in m.outer_iterator().enumerate() {
                for (i, &x) in col.iter() {
                    let _ = if pattern {
                        writeln!(out, "{} {}", i + 1, j + 1)
                    } else {
                        writeln!(out, "{} {} {}", i + 1, j + 1, number_text(x))
                    };
                }
            }
            Ok(out)
        }
        other => {
            let o = operand(other)?.ok_or_else(|| {
                fail(
                    ErrorKind::MethodError,
                    format!("writemtx needs a matrix, got a {}", other.type_name()),
                )
            })?;
            let t = o.tensor();
            if !t.is_plain() {
                return Err(fail(
                    ErrorKind::MethodError,
                    "writemtx writes plain numbers; these carry derivatives",
                ));
            }
            let (m, n) = match *t.shape() {
                [m] => (m, 1),
                [m, n] => (m, n),
                _ => {
                    return Err(fail(
                        ErrorKind::ArgumentError,
                        "writemtx needs a vector or a matrix",
                    ))
                }
            };
            let field = if o.eltype == ElType::Float64 {
                "real"
            } else {
                "integer"
            };
            let mut out = format!("%%MatrixMarket matrix array {field} general\n{m} {n}\n");
            for x in t.to_col_major() {
                let _ = writeln!(out, "{}", number_text(x));
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
    "readmtx" => readmtx_, false, "    readmtx(path)\n\nReads a Matrix Market file: coordinate files become a `SparseMatrixCSC` (symmetric ones are expanded; pattern files hold `true`s), array files a dense matrix.\n\n```\njulia> A = readmtx(\"tests/fixtures/matrices/west0067.mtx\"); size(A), nnz(A)\n((67, 67), 294)\n```";
    "writemtx" => writemtx_, false, "    writemtx(path, A)\n\nWrites a sparse matrix as a coordinate file (`pattern` for a Bool one), a dense one (or a vector) as an array file; the numbers read back exactly.\n\n```\njulia> path = joinpath(tempdir(), \"m.mtx\");\n\njulia> writemtx(path, sparse([1, 2], [1, 2], [1.0, 2.0]))\n\njulia> readmtx(path) == sparse([1, 2], [1, 2], [1.0, 2.0])\ntrue\n```";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Config;
    use std::collections::HashSet;

    fn interp() -> Interp {
        Interp::new(
            Config::default(),
            Box::new(crate::output::Capture::default()),
        )
    }

    #[test]
    fn huge_declared_sizes_are_refused_before_allocating() {
        // A file found by fuzzing: six rows, half a billion columns and no entries, whose
        // column offsets alone exceed a small memory limit.
        let small = Interp::new(
            Config {
                memory_limit: 1 << 24,
                ..Config::default()
            },
            Box::new(crate::output::Capture::default()),
        );
        let text = "%%MatrixMarket matrix coordinate integer general\n%---\n6 499440055 0000";
        let error = match parse_mtx(&small, "huge.mtx", text) {
            Err(Flow::Error(e)) => e,
            _ => panic!("a 6×499440055 matrix fits in 16 MiB"),
        };
        assert_eq!(error.kind, crate::error::ErrorKind::OutOfMemoryError);
        assert!(parse_mtx(
            &small,
            "small.mtx",
            "%%MatrixMarket matrix coordinate integer general\n6 4 0"
        )
        .is_ok());
    }

    fn ok(r: EvalResult) -> Value {
        match r {
            Ok(v) => v,
            Err(Flow::Error(e)) => panic!("{}: {}", e.kind.name(), e.message),
            Err(_) => panic!("unexpected control flow"),
        }
    }

    fn error(r: EvalResult) -> (ErrorKind, String) {
        match r {
            Err(Flow::Error(e)) => (e.kind, e.message),
            _ => panic!("an error was expected"),
        }
    }

    fn read(interp: &mut Interp, path: &str) -> EvalResult {
        readmtx_(interp, Args::positional(vec![Value::str(path)]))
    }

    fn write(interp: &mut Interp, path: &str, v: &Value) -> EvalResult {
        writemtx_(interp, Args::positional(vec![Value::str(path), v.clone()]))
    }

    fn scratch(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!("difflab-mtx-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok();
        dir.join(name).to_string_lossy().into_owned()
    }

    fn sparse_parts(v: &Value) -> (ElType, sprs::CsMat<f64>) {
        match v {
            Value::Sparse(s) => {
                let s = s.borrow();
                (s.eltype, s.matrix.to_owned())
            }
            other => panic!("a sparse matrix expected, got {}", other.type_name()),
        }
    }

    /// The header sizes and the distinct stored positions of a coordinate file, counted
    /// without the reader (symmetric files mirrored).
    fn expected_pattern(text: &str) -> ((usize, usize), usize) {
        let mut lines = text.lines();
        let banner = lines.next().unwrap_or_default().to_lowercase();
        let general = banner.contains("general");
        let mut data = lines.filter(|l| !l.starts_with('%') && !l.trim().is_empty());
        let sizes: Vec<usize> = data
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        let mut positions = HashSet::new();
        for line in data {
            let mut w = line
                .split_whitespace()
                .map(|w| w.parse::<usize>().unwrap_or(0));
            let (i, j) = (w.next().unwrap_or(0), w.next().unwrap_or(0));
            positions.insert((i, j));
            if !general {
                positions.insert((j, i));
            }
        }
        ((sizes[0], sizes[1]), positions.len())
    }

    #[test]
    fn every_test_matrix_reads_and_round_trips() {
        // The package directory at run time, so a copy of the repository reads its own files.
        let package =
            std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets the package directory");
        let dir = std::path::Path::new(&package).join("../../tests/fixtures/matrices");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| {
                panic!(
                    "the test matrices are in tests/fixtures/matrices ({}): {e}",
                    dir.display()
                )
            })
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "mtx"))
            .collect();
        files.sort();
        assert_eq!(files.len(), 20);
        let mut it = interp();
        for file in files {
            let path = file.to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let (size, count) = expected_pattern(&text);
            let a = ok(read(&mut it, &path));
            let (eltype, m) = sparse_parts(&a);
            assert_eq!((m.rows(), m.cols()), size, "{path}");
            assert_eq!(m.nnz(), count, "{path}");
            let pattern = text.lines().next().unwrap_or_default().contains("pattern");
            assert_eq!(eltype == ElType::Bool, pattern, "{path}");
            let copy = scratch("copy.mtx");
            ok(write(&mut it, &copy, &a));
            let (eltype_back, back) = sparse_parts(&ok(read(&mut it, &copy)));
            assert_eq!(eltype_back, eltype, "{path}");
            assert_eq!(back.shape(), m.shape(), "{path}");
            assert_eq!(back.indptr().to_proper(), m.indptr().to_proper(), "{path}");
            assert_eq!(back.indices(), m.indices(), "{path}");
            assert_eq!(back.data(), m.data(), "{path}");
            std::fs::remove_file(&copy).ok();
        }
    }

    #[test]
    fn symmetric_and_skew_files_are_expanded() {
        let it = interp();
        let text = "%%MatrixMarket matrix coordinate real skew-symmetric\n% a comment\n\n3 3 2\n2 1 1.5\n3 2 -2D+00\n";
        let (_, m) = sparse_parts(&ok(parse_mtx(&it, "skew.mtx", text)));
        assert_eq!(m.nnz(), 4);
        assert_eq!(m.get(0, 1), Some(&-1.5));
        assert_eq!(m.get(1, 0), Some(&1.5));
        assert_eq!(m.get(1, 2), Some(&2.0));
        let text = "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n";
        let a = ok(parse_mtx(&it, "sym.mtx", text));
        assert_eq!(
            crate::value::convert::to_tensor(&a)
                .map(|t| t.to_col_major())
                .ok(),
            Some(vec![1.0, 2.0, 2.0, 3.0])
        );
    }

    #[test]
    fn dense_matrices_and_patterns_round_trip() {
        let mut it = interp();
        let path = scratch("dense.mtx");
        let a = super::super::array(
            ElType::Float64,
            &[2, 3],
            vec![1.0, -2.5, 1e-300, 0.1, f64::MAX, -0.0],
        );
        ok(write(&mut it, &path, &a));
        let back = ok(read(&mut it, &path));
        assert_eq!(back.type_name(), "Matrix{Float64}");
        let bits = |v: &Value| -> Vec<u64> {
            crate::value::convert::to_tensor(v)
                .map(|t| t.to_col_major().iter().map(|x| x.to_bits()).collect())
                .unwrap_or_default()
        };
        assert_eq!(bits(&back), bits(&a));
        let ints = super::super::array(ElType::Int64, &[2], vec![3.0, -4.0]);
        ok(write(&mut it, &path, &ints));
        let back = ok(read(&mut it, &path));
        assert_eq!(back.type_name(), "Matrix{Int64}");
        let text = "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 1\n";
        let p = ok(parse_mtx(&it, "p.mtx", text));
        ok(write(&mut it, &path, &p));
        assert!(std::fs::read_to_string(&path)
            .unwrap_or_default()
            .starts_with("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 1\n"));
        assert_eq!(
            ok(read(&mut it, &path)).type_name(),
            "SparseMatrixCSC{Bool, Int64}"
        );
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn malformed_files_name_the_line() {
        let it = interp();
        let cases = [
            ("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", "m.mtx:1:"),
            ("%%MatrixMarket matrix coordinate real general\n2 2\n", "m.mtx:2:"),
            ("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.0\n3 1 2.0\n", "m.mtx:4: malformed Matrix Market file: row index 3 outside 1:2"),
            ("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 x\n", "m.mtx:3:"),
            ("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1.0\n", "m.mtx:3: malformed Matrix Market file: the size line announces 3 entries, the file has 1"),
            ("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1.0\n2 2 2.0\n", "m.mtx:4:"),
            ("%%MatrixMarket matrix array real general\n2 1\n1.0\n", "m.mtx:3:"),
            ("not a header\n", "m.mtx:1:"),
        ];
        for (text, want) in cases {
            let (kind, msg) = error(parse_mtx(&it, "m.mtx", text));
            assert_eq!(kind, ErrorKind::ArgumentError);
            assert!(msg.starts_with(want), "{msg:?} should start with {want:?}");
        }
        let mut it = interp();
        let (kind, msg) = error(read(&mut it, "/no/such/dir/file.mtx"));
        assert_eq!(kind, ErrorKind::SystemError);
        assert!(msg.contains("/no/such/dir/file.mtx"));
        let (kind, _) = error(write(&mut it, "/no/such/dir/file.mtx", &Value::Float(1.0)));
        assert_eq!(kind, ErrorKind::ArgumentError);
    }
}
