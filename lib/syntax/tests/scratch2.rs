//! scratch
#[test]
fn deep() {
    let shapes: Vec<(&str, &str, &str)> = vec![
        ("(", "x", ")"), ("[", "x", "]"), ("f(", "x", ")"), ("-", "x", ""), ("x^", "y", ""),
        ("begin ", "x", " end"), ("if c ", "x", " end"), ("x = ", "1", ""), ("a ? b : ", "c", ""),
        ("x -> ", "x", ""), ("\"$(", "x", ")\""), ("$(", "x", ")"), ("@m ", "x", ""), ("x[", "1", "]"),
        ("1 + ", "1", ""), ("", "x", "'"), ("", "x", ".y"), ("", "f", "(1)"), ("a || ", "b", ""),
        ("a => ", "b", ""), ("(x, ", "y", ")"), ("[x for x in ", "y", "]"), ("function f()\n", "x", "\nend"),
        ("try\n", "x", "\ncatch\nend"), ("let ", "x", " end"), ("for i in 1:2 ", "x", " end"),
        ("2", "x", ""), ("!", "x", ""), ("a < ", "b", ""), ("x.", "y", ""), ("T{", "x", "}"),
        ("for (", "i", ") in x end"), ("f((", "a", ")) = 1"), ("@m(", "x", ")"), ("\"$(\"", "", "\")\""),
    ];
    for n in [10usize, 100, 300, 499, 501, 2000, 100_000] {
        for (open, mid, close) in &shapes {
            let src = format!("{}{}{}", open.repeat(n), mid, close.repeat(n));
            let src = if open.starts_with('$') || open.starts_with("@m") { format!("@m {src}") } else { src };
            eprintln!("start {n} {open:?}");
            let t = std::time::Instant::now();
            let r = difflab_syntax::parse(&src);
            let dt = t.elapsed();
            let res = match &r { Ok(_) => "ok".to_string(), Err(e) => e.message() };
            if n >= 300 || dt.as_millis() > 50 { println!("{n} {open:?}: {res} {dt:?}"); }
        }
    }
}
