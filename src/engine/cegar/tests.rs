//! CEGAR on small systems with known answers.
