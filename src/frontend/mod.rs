//! The front-end: parsing CHC-COMP input, the clause graph, preprocessing passes and the transition-system view.

pub mod chc;
pub mod parse;
pub mod passes;

pub use chc::*;
pub use parse::parse_str;
