//! A run's progress, readable from another thread while it runs (the CLI's answer when the
//! time limit ends a run before the engines do).

use super::Options;
use std::sync::Arc;

/// A run's stage and figures so far, readable from another thread while it runs.
#[derive(Debug, Default)]
pub struct Progress(std::sync::Mutex<(&'static str, Vec<(&'static str, String)>)>);

impl Progress {
    pub fn new() -> Arc<Progress> {
        Arc::new(Progress::default())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (&'static str, Vec<(&'static str, String)>)> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Enters a stage (`parsing`, `preprocessing`, `engines`, ...).
    pub fn stage(&self, stage: &'static str) {
        self.lock().0 = stage;
    }

    /// Records (or replaces) a figure.
    pub fn record(&self, key: &'static str, value: impl ToString) {
        let mut g = self.lock();
        let value = value.to_string();
        match g.1.iter_mut().find(|(k, _)| *k == key) {
            Some(kv) => kv.1 = value,
            None => g.1.push((key, value)),
        }
    }

    /// The current stage and the figures recorded so far.
    pub fn snapshot(&self) -> (&'static str, Vec<(&'static str, String)>) {
        self.lock().clone()
    }
}

pub(super) fn progress(opts: &Options, f: impl FnOnce(&Progress)) {
    if let Some(p) = &opts.progress {
        f(p)
    }
}
