//! Settings with a fixed set of values, each with a name: what the CLI offers (it builds its
//! parsers from [`Named::ALL`], so the engine layer does not depend on the CLI's library)
//! and what messages print.

/// A setting with a fixed set of values, each with a name and a line of help.
pub trait Named: Sized + Copy + 'static {
    /// Every value, in the order `--help` lists them.
    const ALL: &'static [Self];
    fn name(self) -> &'static str;
    fn help(self) -> &'static str;

    /// The value named `s`.
    fn parse_name(s: &str) -> Result<Self, String> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Self::ALL.iter().map(|v| v.name()).collect();
                format!("expected one of {}, not `{s}`", names.join(", "))
            })
    }
}

/// Implements [`Named`] and `FromStr` for an enum of unit variants:
/// `named!(T { A = "a": "help of a", ... })`.
macro_rules! named {
    ($t:ident { $($v:ident = $n:literal : $h:literal),* $(,)? }) => {
        impl $crate::engine::Named for $t {
            const ALL: &'static [$t] = &[$($t::$v),*];
            fn name(self) -> &'static str {
                match self { $($t::$v => $n),* }
            }
            fn help(self) -> &'static str {
                match self { $($t::$v => $h),* }
            }
        }

        impl std::str::FromStr for $t {
            type Err = String;
            fn from_str(s: &str) -> Result<$t, String> {
                <$t as $crate::engine::Named>::parse_name(s)
            }
        }
    };
}
pub(crate) use named;
