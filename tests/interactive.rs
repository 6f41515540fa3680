//! The interactive mode driven the way a tool drives a solver over a pipe: each command is
//! written, and its answer read before the next is written. A session that waits for the
//! end of its input before it answers hangs there: each answer has its own timeout, which
//! fails the test.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// How long one answer may take (the problems here are solved in well under a second).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// A running `chcsolve` session.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chcsolve"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            lines,
        }
    }

    /// Writes a command (and flushes it); the pipe stays open.
    fn send(&mut self, cmd: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{cmd}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next output line, or a failed test when none comes in time.
    fn line(&self, after: &str) -> String {
        self.lines.recv_timeout(ANSWER_TIMEOUT).unwrap_or_else(|e| {
            panic!("no answer to `{after}` within {ANSWER_TIMEOUT:?} (the session hangs: {e})")
        })
    }

    /// Writes a command and reads its one-line answer.
    fn ask(&mut self, cmd: &str) -> String {
        self.send(cmd);
        self.line(cmd)
    }

    /// Writes a command and reads its answer up to a line `)` (a model).
    fn ask_block(&mut self, cmd: &str) -> Vec<String> {
        self.send(cmd);
        let mut out = vec![self.line(cmd)];
        while out.last().unwrap() != ")" && out.len() < 100 {
            out.push(self.line(cmd));
        }
        out
    }

    /// Sends `(exit)` and returns the exit code.
    fn exit(mut self) -> Option<i32> {
        self.send("(exit)");
        for _ in 0..ANSWER_TIMEOUT.as_millis() / 10 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the session did not end after (exit)");
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The counter `x = 0`, `x < 10 => x + 1` of a CHC-COMP session.
const COUNTER: [&str; 4] = [
    "(set-logic HORN)",
    "(declare-fun P (Int) Bool)",
    "(assert (forall ((x Int)) (=> (= x 0) (P x))))",
    "(assert (forall ((x Int)) (=> (and (P x) (< x 10)) (P (+ x 1)))))",
];

#[test]
fn chc_comp_session_answers_each_check_as_it_comes() {
    let mut s = Session::start(&["--interactive"]);
    assert_eq!(s.ask("(set-option :print-success true)"), "success");
    assert_eq!(s.ask("(set-option :timeout 20000)"), "success");
    // switched off, it answers nothing (as z3 does)
    s.send("(set-option :print-success false)");
    for c in COUNTER {
        s.send(c);
    }
    // x = 10 is reachable: unsat, and no model
    s.send("(push 1)");
    s.send("(assert (forall ((x Int)) (=> (and (P x) (= x 10)) false)))");
    assert_eq!(s.ask("(check-sat)"), "unsat");
    assert!(s
        .ask("(get-model)")
        .starts_with("(error \"line 11: model is not available"));
    assert_eq!(
        s.ask("(get-info :reason-unknown)"),
        "(:reason-unknown \"\")"
    );
    // the query popped, x > 10 is not reachable: sat, with a model
    s.send("(pop 1)");
    s.send("(assert (forall ((x Int)) (=> (and (P x) (> x 10)) false)))");
    assert_eq!(s.ask("(check-sat)"), "sat");
    let model = s.ask_block("(get-model)");
    assert!(
        model
            .iter()
            .any(|l| l.contains("(define-fun P ((x0 Int)) Bool")),
        "{model:?}"
    );
    // a bad command: its error, and the session goes on without it
    let e = s.ask("(assert (forall ((x Int)) (=> (Q x) false)))");
    assert!(
        e.starts_with("(error \"line 17: ") && e.contains("`Q`"),
        "{e}"
    );
    let e = s.ask("(pop 1)");
    assert!(
        e.starts_with("(error \"line 18: pop 1: only 0 scopes"),
        "{e}"
    );
    assert_eq!(s.ask("(check-sat)"), "sat");
    // reset: the same names again, another problem
    s.send("(reset)");
    for c in COUNTER {
        s.send(c);
    }
    s.send("(assert (forall ((x Int)) (=> (and (P x) (= x 7)) false)))");
    assert_eq!(s.ask("(check-sat)"), "unsat");
    // an error during the session: exit code 1
    assert_eq!(s.exit(), Some(1));
}

#[test]
fn fixedpoint_session_answers_each_query_and_takes_more_rules() {
    // `-` is the interactive mode too
    let mut s = Session::start(&["-"]);
    for c in [
        "(declare-rel Inv (Int))",
        "(declare-rel Big ())",
        "(declare-var x Int)",
        "(rule (=> (= x 0) (Inv x)))",
        "(rule (=> (and (Inv x) (< x 5)) (Inv (+ x 1))))",
        "(rule (=> (and (Inv x) (> x 3)) Big))",
    ] {
        s.send(c);
    }
    // z3's reading: sat is reachable
    assert_eq!(s.ask("(query Big)"), "sat");
    s.send("(declare-rel Late ())");
    assert_eq!(s.ask("(query Late)"), "unsat");
    // after a query's unsat, the model of the clauses
    let model = s.ask_block("(get-model)");
    assert!(
        model.iter().any(|l| l.contains("define-fun Inv")),
        "{model:?}"
    );
    s.send("(rule (=> (and (Inv x) (= x 5)) Late))");
    assert_eq!(s.ask("(query Late)"), "sat");
    assert_eq!(s.exit(), Some(0));
}

/// A file with scopes read through the interactive mode: each answer solved and judged
/// against the commands in force (`--stats` says so), none left unknown.
#[test]
fn a_file_with_push_and_pop_is_solved_and_judged() {
    let file = "(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(assert (forall ((x Int)) (=> (and (P x) (< x 10)) (P (+ x 1)))))
(push 1)
(assert (forall ((x Int)) (=> (and (P x) (= x 10)) false)))
(check-sat)
(pop 1)
(assert (forall ((x Int)) (=> (and (P x) (> x 10)) false)))
(check-sat)
";
    let mut child = Command::new(env!("CARGO_BIN_EXE_chcsolve"))
        .args(["--stats", "--timeout", "30", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(file.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        ["unsat", "sat"],
        "{stderr}"
    );
    let judged: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("; judged:"))
        .collect();
    assert_eq!(judged.len(), 2, "{stderr}");
    for j in judged {
        assert!(
            j.starts_with("; judged: 1 by z3") && j.ends_with("(rejected: 0, undecided: 0)"),
            "{j}"
        );
    }
}
