//! What a game's rules say alike about the table's part of a setup: the players, what each
//! seat's agent is told when it starts (its seed, derived from the game's, and the round cap),
//! the fault policy and the seed. A game whose setup keeps the table's `seed`, `round_cap` and
//! `policy` as fields writes these four [`Rules`](crate::Rules) methods as one line,
//! [`table_setup!`](crate::table_setup), rather than again.

/// Inside an `impl Rules`, the methods `players`, `init`, `policy` and `seed` of a setup with the
/// fields `seed: u64`, `round_cap: u32` and `policy: FaultPolicy`; the argument gives its number
/// of players (`|s| s.players`, or `|_| 2`).
#[macro_export]
macro_rules! table_setup {
    ($players:expr) => {
        fn players(&self, setup: &Self::Setup) -> usize {
            let players: fn(&Self::Setup) -> usize = $players;
            players(setup)
        }

        fn init(&self, setup: &Self::Setup, seat: usize) -> $crate::rules::Init {
            $crate::rules::Init {
                seat,
                players: $crate::Rules::players(self, setup),
                seed: $crate::seed::agent_seed(setup.seed, seat),
                round_cap: setup.round_cap,
            }
        }

        fn policy(&self, setup: &Self::Setup) -> $crate::FaultPolicy {
            setup.policy
        }

        fn seed(&self, setup: &Self::Setup) -> Option<u64> {
            Some(setup.seed)
        }
    };
}
