//! Times the front-end: `parsetime FILE` (smt2parser alone, then the full parse),
//! `parsetime --front FILE` (parse, preprocessing and the transition system: all that runs
//! before the first engine query, each phase's wall and CPU time), `parsetime --check FILE...` (full parse only; one `ok`/error line per file) or `parsetime --dump FILE` (prints the parsed system or the error).
use smt2parser::CommandStream;

/// Counts the heap, for the figures of `--front`.
#[global_allocator]
static ALLOC: chcsolve::mem::CountingAlloc = chcsolve::mem::CountingAlloc;

fn main() {
    env_logger::init();
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
    if args.first().map(String::as_str) == Some("--front") {
        front(&args[1]);
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

/// CPU time of the process (user + system), in seconds.
fn cpu() -> f64 {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 * 1e-6;
    t(ru.ru_utime) + t(ru.ru_stime)
}

/// CPU time of the calling thread (user + system), in seconds.
fn thread_cpu() -> f64 {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut ru) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 * 1e-6;
    t(ru.ru_utime) + t(ru.ru_stime)
}

/// Each phase before the first engine query: wall and CPU seconds (of the process, and of
/// the main thread: on an idle machine with enough cores the wall time is about the main
/// thread's CPU time).
fn front(path: &str) {
    let (w0, c0, m0) = (std::time::Instant::now(), cpu(), thread_cpu());
    let mut main = thread_cpu();
    let mut phase = |name: &str, w: &mut std::time::Instant, c: &mut f64| {
        let now = cpu();
        let now_main = thread_cpu();
        println!(
            "{name}: wall {:.3}s cpu {:.3}s (main thread {:.3}s), heap {} MB, {} terms",
            w.elapsed().as_secs_f64(),
            now - *c,
            now_main - main,
            chcsolve::mem::used() >> 20,
            chcsolve::logic::factory_size()
        );
        *w = std::time::Instant::now();
        *c = now;
        main = now_main;
    };
    let (mut w, mut c) = (w0, c0);
    let s = std::fs::read_to_string(path).unwrap();
    let sys = chcsolve::frontend::parse_str(&s).unwrap();
    phase("parse", &mut w, &mut c);
    // as chcsolve does: the system shared with the first back-translator, the result shared
    // with the clause-graph engines
    let sys = std::sync::Arc::new(sys);
    let (psys, _backs) = chcsolve::frontend::passes::preprocess_shared(sys.clone());
    phase("preprocess", &mut w, &mut c);
    let graph = psys.clone();
    let adapter = chcsolve::ts::TsAdapter::new(&psys);
    phase("transition system", &mut w, &mut c);
    println!(
        "total: wall {:.3}s cpu {:.3}s (main thread {:.3}s) ({} clauses, {} after preprocessing, linear: {})",
        w0.elapsed().as_secs_f64(),
        cpu() - c0,
        thread_cpu() - m0,
        sys.clauses.len(),
        graph.clauses.len(),
        adapter.is_some()
    );
    let heap = |what: &str| println!("{what}: heap {} MB", chcsolve::mem::used() >> 20);
    drop(sys);
    heap("without the parsed system");
    drop(_backs);
    heap("without the back-translators");
    drop(adapter);
    heap("without the transition system");
}
