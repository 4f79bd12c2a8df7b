//! The ABI bytes every game shares: the envelope of the init call and its payload.

use super::GameKind;
use crate::sandbox::Init;

/// Writes the envelope and payload of `arena_init` into `buf`; returns the length written.
pub fn encode_init(
    game: GameKind,
    seat: usize,
    players: usize,
    seed: u64,
    round_cap: u32,
    buf: &mut [u8],
) -> usize {
    let init = Init {
        seat,
        players,
        seed,
        round_cap,
    };
    crate::sandbox::encode_init(game.agent(), &init, buf)
}
