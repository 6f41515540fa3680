//! Implicants: the literals of a formula that a model makes true and whose conjunction
//! implies it, the first step of the projection.

use super::super::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Literals, true in `model`, whose conjunction implies `phi` (which `model` must satisfy).
/// Each is a Boolean variable, `lin <= 0`, `lin = 0`, a real `lin <= 0`, `lin < 0`,
/// `lin = 0`, `is_int t`, or the negation of one of these.
pub fn implicant(phi: &Term, model: &Assignment) -> Result<Vec<Term>, String> {
    let mut imp = Implicant {
        model,
        memo: FxHashMap::default(),
        seen: FxHashSet::default(),
        out: vec![],
    };
    imp.visit(phi, true)?;
    Ok(imp.out)
}

struct Implicant<'a> {
    model: &'a Assignment,
    memo: FxHashMap<u64, bool>,
    seen: FxHashSet<(u64, bool)>,
    out: Vec<Term>,
}

impl Implicant<'_> {
    fn value(&mut self, t: &Term) -> Result<bool, String> {
        if let Some(&b) = self.memo.get(&t.uid()) {
            return Ok(b);
        }
        let b = match t.get() {
            TermNode::Bool(b) => *b,
            TermNode::Not(s) => !self.value(s)?,
            TermNode::And(ts) => {
                let mut r = true;
                for s in ts {
                    if !self.value(s)? {
                        r = false;
                        break;
                    }
                }
                r
            }
            TermNode::Or(ts) => {
                let mut r = false;
                for s in ts {
                    if self.value(s)? {
                        r = true;
                        break;
                    }
                }
                r
            }
            TermNode::Ite(c, a, b) => {
                if self.value(c)? {
                    self.value(a)?
                } else {
                    self.value(b)?
                }
            }
            TermNode::Iff(a, b) => self.value(a)? == self.value(b)?,
            _ => eval_bool(t, self.model)?,
        };
        self.memo.insert(t.uid(), b);
        Ok(b)
    }

    /// Adds literals that imply `t` (if `pol`) or `not t`, which the model satisfies.
    fn visit(&mut self, t: &Term, pol: bool) -> Result<(), String> {
        if !self.seen.insert((t.uid(), pol)) {
            return Ok(());
        }
        if self.value(t)? != pol {
            let t = if pol { t.clone() } else { mk_not(t.clone()) };
            return Err(format!("implicant: the model falsifies {}", SmtTerm(&t)));
        }
        match t.get() {
            TermNode::Bool(_) => {}
            TermNode::Not(s) => self.visit(s, !pol)?,
            TermNode::And(ts) | TermNode::Or(ts) => {
                // a true conjunction or a false disjunction needs every part
                if pol == matches!(t.get(), TermNode::And(_)) {
                    for s in ts {
                        self.visit(s, pol)?;
                    }
                } else {
                    let mut pick = None;
                    for s in ts {
                        if self.value(s)? == pol {
                            pick = Some(s);
                            break;
                        }
                    }
                    self.visit(pick.expect("a part with the junction's value"), pol)?;
                }
            }
            TermNode::Ite(c, a, b) => {
                let cv = self.value(c)?;
                self.visit(c, cv)?;
                self.visit(if cv { a } else { b }, pol)?;
            }
            TermNode::Iff(a, b) => {
                // (a = b) = pol, so b takes the value of a iff pol
                let av = self.value(a)?;
                self.visit(a, av)?;
                self.visit(b, av == pol)?;
            }
            _ => self
                .out
                .push(if pol { t.clone() } else { mk_not(t.clone()) }),
        }
        Ok(())
    }
}
