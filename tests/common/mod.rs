//! Shared helpers for the integration tests: reading the problem lists of `bench-chc/`.
#![allow(dead_code)] // each test file uses some of these helpers

use std::path::PathBuf;

pub fn bench_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench-chc")
}

/// Rows of a TSV with a header: the values of the named columns.
pub fn read_tsv(path: &std::path::Path, cols: &[&str]) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let idx: Vec<usize> = cols
        .iter()
        .map(|c| {
            header
                .iter()
                .position(|h| h == c)
                .unwrap_or_else(|| panic!("no column {c}"))
        })
        .collect();
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            idx.iter().map(|&i| f[i].to_string()).collect()
        })
        .collect()
}

/// An assignment of integers to variables of sort Int, by name.
pub fn ints(pairs: &[(&str, i64)]) -> chcsolve::logic::Assignment {
    pairs
        .iter()
        .map(|(n, v)| {
            (
                chcsolve::logic::Var {
                    name: (*n).into(),
                    sort: chcsolve::logic::Sort::Int,
                },
                chcsolve::logic::Value::Int(num_bigint::BigInt::from(*v)),
            )
        })
        .collect()
}
