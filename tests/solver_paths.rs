//! The solvers the user names reach every process an engine starts: `--z3` and
//! `--memory-limit` also hold for the interpolation backends and their checkers.

mod common;

use common::bench_dir;
use std::process::Command;

/// `--engine imc` on yices with `--z3 FAKE`, where FAKE logs its PID and its address-space
/// limit and then becomes the real z3. The interpolator's z3 (the checker of yices'
/// interpolants) must be FAKE, with the limit of `--memory-limit`: the PID of its
/// `[interp-...] started z3` debug line is in FAKE's log, with the limit beside it.
#[test]
fn interpolation_solvers_run_the_named_z3_with_the_memory_limit() {
    use chcsolve::smt::{find_solver, SolverKind};
    let z3 = find_solver(SolverKind::Z3, None).expect("z3: run solvers/install");
    find_solver(SolverKind::Yices, None).expect("yices: run solvers/install");
    let dir = std::env::temp_dir().join(format!("chcsolve-fake-z3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("calls.log");
    let _ = std::fs::remove_file(&log);
    let fake = dir.join("fake-z3");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho \"$$ $(ulimit -v)\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            z3.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mb = 3000u64;
    let out = Command::new(env!("CARGO_BIN_EXE_chcsolve"))
        .args([
            "--engine",
            "imc",
            "--solver",
            "yices",
            "--timeout",
            "60",
            "-vv",
        ])
        .arg("--memory-limit")
        .arg(mb.to_string())
        .arg("--z3")
        .arg(&fake)
        .arg(bench_dir().join("gen/counter-10-sat.smt2"))
        .env("RUST_LOG", "debug")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "sat", "{err}");
    let pids: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("[interp-") && l.contains("started z3 (pid "))
        .map(|l| {
            let rest = &l[l.find("(pid ").unwrap() + 5..];
            &rest[..rest.find(')').unwrap()]
        })
        .collect();
    assert!(!pids.is_empty(), "no interpolation z3 started:\n{err}");
    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    for pid in pids {
        let line = calls
            .lines()
            .find(|l| l.split(' ').next() == Some(pid))
            .unwrap_or_else(|| {
                panic!(
                    "interpolation z3 (pid {pid}) is not {}:\n{calls}",
                    fake.display()
                )
            });
        assert_eq!(
            line.split(' ').nth(1),
            Some((mb * 1024).to_string().as_str()),
            "interpolation z3 (pid {pid}) without the memory limit: {line}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
