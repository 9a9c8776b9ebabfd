mod common;
#[test]
fn scratch() {
    let src = std::fs::read_to_string("/tmp/scratch.jl").unwrap();
    for chunk in src.split("\n----\n") {
        match difflab_syntax::parse(chunk) {
            Ok(b) => println!("{chunk:?}\n  => {}", b.iter().map(common::expr).collect::<Vec<_>>().join(" | ")),
            Err(e) => println!("{chunk:?}\n  ERR {} {:?} incomplete={}", e.message(), e.span, e.is_incomplete()),
        }
    }
}
