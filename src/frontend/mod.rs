//! The front-end: parsing CHC-COMP and z3 fixedpoint input (whole, or command by command from a stream) into a [`crate::chc::ChcSystem`], and preprocessing passes.

mod error;
pub mod parse;
pub mod passes;
pub mod script;
pub mod stream;

pub use error::InputError;
pub use parse::{parse_script, parse_str};
pub use script::{Command, Format, Script};
