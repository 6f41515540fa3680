//! Times the front-end: `parsetime FILE` (smt2parser alone, then the full parse), `parsetime --check FILE...` (full parse only; one `ok`/error line per file) or `parsetime --dump FILE` (prints the parsed system or the error).
use smt2parser::CommandStream;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--check") {
        for path in &args[1..] {
            let s = std::fs::read_to_string(path).unwrap();
            match chcsolve::frontend::parse_str(&s) {
                Ok(sys) => println!("ok {path} {} clauses", sys.clauses.len()),
                Err(e) => println!("{e} {path}"),
            }
        }
        return;
    }
    if args.first().map(String::as_str) == Some("--dump") {
        let s = std::fs::read_to_string(&args[1]).unwrap();
        match chcsolve::frontend::parse_str(&s) {
            Ok(sys) => {
                print!("{sys}");
                for c in &sys.clauses {
                    println!("; line {}", c.line);
                }
            }
            Err(e) => println!("{e}"),
        }
        return;
    }
    let path = &args[0];
    let s = std::fs::read_to_string(path).unwrap();
    let t = std::time::Instant::now();
    let n = CommandStream::new(s.as_bytes(), smt2parser::concrete::SyntaxBuilder, None).count();
    println!("smt2parser only: {n} cmds {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let r = chcsolve::frontend::parse_str(&s);
    println!("full: {:?}", t.elapsed());
    if let Err(e) = r {
        println!("{e}");
    }
}
