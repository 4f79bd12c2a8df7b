//! The bytes of the host's calls, written as the host writes them, for the handlers' tests.

use arena_abi::{Decision, Envelope, InitPayload, ABI_VERSION, ENVELOPE_SIZE, INIT_PAYLOAD_SIZE};

/// Where a call stands: the envelope's seat, players, turn and round.
#[derive(Clone, Copy)]
pub struct Seat {
    pub seat: u32,
    pub players: u32,
    pub turn: u32,
    pub round: u32,
}

/// Writes at the start of `buf` a call's envelope (this ABI version) and its `size`-byte payload,
/// which `payload` writes into the bytes after the envelope; returns the length the host passes.
pub fn write_call(
    buf: &mut [u8],
    game: u32,
    decision: Decision,
    at: Seat,
    size: usize,
    payload: impl FnOnce(&mut [u8]),
) -> i32 {
    Envelope {
        abi_version: ABI_VERSION,
        game,
        decision,
        seat: at.seat,
        players: at.players,
        turn: at.turn,
        round: at.round,
        payload_len: size as u32,
    }
    .encode(buf);
    payload(&mut buf[ENVELOPE_SIZE..]);
    (ENVELOPE_SIZE + size) as i32
}

/// Writes the `arena_init` call of `game` for `seat` of `players` with this seed and round cap.
pub fn write_init(buf: &mut [u8], game: u32, seat: u32, players: u32, init: InitPayload) -> i32 {
    let at = Seat {
        seat,
        players,
        turn: 0,
        round: 0,
    };
    write_call(buf, game, Decision::Init, at, INIT_PAYLOAD_SIZE, |b| {
        init.encode(b)
    })
}
