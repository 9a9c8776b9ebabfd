//! scratch
#[test]
fn measure() {
    for (open, mid, close) in [("(", "x", ")"), ("[", "x", "]"), ("-", "x", ""), ("begin ", "x", " end"), ("f(", "x", ")"), ("x = ", "1", ""), ("\"$(", "x", ")\""), ("if c ", "x", " end"), ("x[", "1", "]"), ("a ? b : ", "c", ""), ("x -> ", "x", ""), ("[x for x in ", "y", "]")] {
        let per = |n: usize| {
            let src = format!("{}{}{}", open.repeat(n), mid, close.repeat(n));
            let probe = 0u8; let top = &probe as *const u8 as usize;
            difflab_syntax::MIN_SP.with(|m| m.set(usize::MAX));
            let _ = difflab_syntax::parse(&src);
            top - difflab_syntax::MIN_SP.with(|m| m.get())
        };
        let a = per(5); let b = per(25);
        println!("{open:?}: {} bytes/level", (b - a) / 20);
    }
}
