use smt2parser::CommandStream;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let s = std::fs::read_to_string(&path).unwrap();
    let t = std::time::Instant::now();
    let n = CommandStream::new(s.as_bytes(), smt2parser::concrete::SyntaxBuilder, None).count();
    println!("smt2parser only: {n} cmds {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let _ = chcsolve::frontend::parse_str(&s);
    println!("full: {:?}", t.elapsed());
}
