//! Bad input in a large file (parsed on several threads) is one error line with its line
//! number and exit code 1, never `unknown`.

use std::process::Command;

#[test]
fn an_error_late_in_a_large_input_is_an_error_line() {
    let mut s = String::from("(set-logic HORN)\n(declare-fun p (Int) Bool)\n");
    let n = 20_000;
    let mut bad_line = 0;
    for i in 0..n {
        if i == n - 10 {
            bad_line = s.lines().count() + 1;
            s += "(assert (forall ((x Int)) (=> (p x) (p (+ x)) ))))\n";
        } else {
            s += &format!("(assert (forall ((x Int) (y{i} Int)) (=> (and (p x) (= y{i} (+ x {i}))) (p y{i}))))\n");
        }
    }
    s += "(check-sat)\n";
    assert!(s.len() > 1 << 20);
    let dir = std::env::temp_dir().join(format!("chcsolve-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("late-error.smt2");
    std::fs::write(&f, &s).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chcsolve"))
        .args(["--timeout", "30"])
        .arg(&f)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(
        lines[0].starts_with(&format!("(error \"line {bad_line}:")),
        "want line {bad_line}: {stdout}"
    );
}
