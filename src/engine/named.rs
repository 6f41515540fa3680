//! Settings with a fixed set of values, each with a name: what the CLI offers (it builds its
//! parsers from [`Named::ALL`], so the engine layer does not depend on the CLI's library)
//! and what messages print.

/// A setting with a fixed set of values, each with a name and maybe a line of help.
pub trait Named: Sized + Copy + 'static {
    /// Every value, in the order `--help` lists them.
    const ALL: &'static [Self];
    fn name(self) -> &'static str;
    /// A line for `--help` (empty: the flag's own help says enough).
    fn help(self) -> &'static str {
        ""
    }

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
/// `named!(T { A = "a": "help of a", ... })`, or without help `named!(T { A = "a", ... })`.
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
        $crate::engine::named::named!(@from_str $t);
    };
    ($t:ident { $($v:ident = $n:literal),* $(,)? }) => {
        impl $crate::engine::Named for $t {
            const ALL: &'static [$t] = &[$($t::$v),*];
            fn name(self) -> &'static str {
                match self { $($t::$v => $n),* }
            }
        }
        $crate::engine::named::named!(@from_str $t);
    };
    (@from_str $t:ident) => {
        impl std::str::FromStr for $t {
            type Err = String;
            fn from_str(s: &str) -> Result<$t, String> {
                <$t as $crate::engine::Named>::parse_name(s)
            }
        }
    };
}
pub(crate) use named;
