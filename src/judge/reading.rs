//! The judge's reading of the input's text, for the native bit-vector lanes
//! (`src/engine/native/`), which send the original assertions to a solver instead of their
//! integer translation: the problem's commands and predicates ([`problem`]), its assertions
//! split by polarity with their body and head predicate ([`shapes`]), and a split assertion
//! with its occurrences read for one step from a state to a state ([`interpret`]).
//!
//! Sharing this reading does not weaken the judge: every answer of a native lane is still
//! checked by the judge's own solver process against the text, and a reading that lost or
//! changed an assertion would make the lane's answers fail that check, never pass it.

pub use super::input::{problem, Item, Problem};
pub use super::kinductive::{shapes, Shape, NONE};
pub use super::polarity::split_name;
pub use super::segment::interpret;
pub use super::sexp::{read_one, unquote, Sexp};
