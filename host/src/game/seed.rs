//! Seeds derived from a game's seed, as every game's records specify them (docs/RECORDS.md):
//! SplitMix64 to stretch a 64-bit seed, a ChaCha8 key for a game's dice, and each seat's seed for
//! its agent's own randomness.

/// SplitMix64: a tiny, fully specified generator used to stretch a 64-bit seed into a key, and to
/// derive per-game seeds elsewhere in the arena.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The ChaCha8 key of a game's dice: four successive SplitMix64 outputs of `seed`, little-endian.
pub fn chacha_key(seed: u64) -> [u8; 32] {
    let mut state = seed;
    let mut key = [0u8; 32];
    for chunk in key.chunks_exact_mut(8) {
        chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
    }
    key
}

/// Seed handed to the agent in `seat` for its own randomness: derived from the game's seed so
/// that a game replays exactly, and different for every seat.
pub fn agent_seed(game_seed: u64, seat: usize) -> u64 {
    let mut state = game_seed ^ (0xA5A5_0000_0000_0000 | seat as u64);
    splitmix64(&mut state)
}
