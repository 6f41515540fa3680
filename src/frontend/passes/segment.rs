//! The back-translation of counterexamples with accelerated segments ([`AccelCex`]).

use super::{cex_back, BackTranslate};
use crate::chc::{chain, AccelCex, ChcSystem, ClauseId, Link};
use crate::logic::Assignment;

/// Applies back-translators in reverse order to a counterexample with segments: runs of
/// steps are translated as chains; a segment's cycle is translated clause by clause (its
/// ends are arguments of a predicate, which keeps its id and arity through every pass).
/// `None` when a cycle does not come back as a chain from `pred` to `pred`.
pub fn accel_cex_back(
    backs: &[Box<dyn BackTranslate>],
    orig: &ChcSystem,
    cex: AccelCex,
) -> Option<AccelCex> {
    let mut out: AccelCex = vec![];
    let mut run: Vec<(ClauseId, Assignment)> = vec![];
    let flush = |run: &mut Vec<(ClauseId, Assignment)>, out: &mut AccelCex| {
        if !run.is_empty() {
            let steps = cex_back(backs, chain(std::mem::take(run)));
            out.extend(steps.into_iter().map(Link::Step));
        }
    };
    for l in cex {
        match l {
            Link::Step(s) => run.push((s.clause, s.vals)),
            Link::Segment(mut seg) => {
                flush(&mut run, &mut out);
                let ids = seg
                    .cycle
                    .iter()
                    .map(|&c| (c, Assignment::default()))
                    .collect();
                seg.cycle = cex_back(backs, chain(ids))
                    .into_iter()
                    .map(|s| s.clause)
                    .collect();
                let cls: Vec<_> = seg.cycle.iter().map(|c| &orig.clauses[c.idx()]).collect();
                let linear = cls.iter().all(|c| c.body.len() == 1 && c.head.is_some());
                if !linear
                    || cls.first()?.body[0].pred != seg.pred
                    || cls.last()?.head.as_ref()?.pred != seg.pred
                {
                    return None;
                }
                out.push(Link::Segment(seg));
            }
        }
    }
    flush(&mut run, &mut out);
    // one chain again
    for (i, l) in out.iter_mut().enumerate() {
        if let Link::Step(s) = l {
            s.premises = if i == 0 || orig.clauses[s.clause.idx()].body.is_empty() {
                vec![]
            } else {
                vec![i - 1]
            };
        }
    }
    Some(out)
}
