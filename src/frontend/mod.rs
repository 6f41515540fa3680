//! The front-end: parsing CHC-COMP and z3 fixedpoint input (whole, or command by command from a stream), the clause graph, preprocessing passes and the transition-system view.

pub mod chc;
pub mod parse;
pub mod passes;
pub mod script;
pub mod stream;

pub use chc::*;
pub use parse::{parse_script, parse_str};
pub use script::{Command, Format, Script};
