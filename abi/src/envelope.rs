use crate::bytes::{get_u32, get_u64, need, put_u32, put_u64, DecodeError};

/// Size of the envelope header that starts every buffer the host writes.
pub const ENVELOPE_SIZE: usize = 32;

/// Which decision a call asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// `arena_init`: once per game, before any other call.
    Init = 0,
    /// `farm_trade`: trade or pass, before the roll.
    FarmTrade = 1,
    /// `farm_accept`: accept or deny another player's offer.
    FarmAccept = 2,
    /// `farkle_draft`: draft scoring dice, then bank or roll on (Farkle).
    FarkleDraft = 3,
    /// `jungle_move`: move a piece (Jungle).
    JungleMove = 4,
    /// `lightcycles_turn`: turn left, go straight or turn right (light cycles).
    LightcyclesTurn = 5,
}

impl Decision {
    pub fn from_code(code: u32) -> Option<Decision> {
        match code {
            0 => Some(Decision::Init),
            1 => Some(Decision::FarmTrade),
            2 => Some(Decision::FarmAccept),
            3 => Some(Decision::FarkleDraft),
            4 => Some(Decision::JungleMove),
            5 => Some(Decision::LightcyclesTurn),
            _ => None,
        }
    }
}

/// The game-independent header of every call.
///
/// | offset | type | field |
/// |---|---|---|
/// | 0 | u32 | ABI version (1) |
/// | 4 | u32 | game (1 = Little Animal Farm, 2 = Farkle, 3 = Jungle, 5 = light cycles) |
/// | 8 | u32 | decision (0 init, 1 trade, 2 accept, 3 Farkle draft, 4 Jungle move, 5 light cycles turn) |
/// | 12 | u32 | the agent's seat |
/// | 16 | u32 | number of players |
/// | 20 | u32 | turn (from 1; 0 at init) |
/// | 24 | u32 | round (from 1; 0 at init) |
/// | 28 | u32 | payload length in bytes (the payload starts at offset 32) |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope {
    pub abi_version: u32,
    pub game: u32,
    pub decision: Decision,
    pub seat: u32,
    pub players: u32,
    pub turn: u32,
    pub round: u32,
    pub payload_len: u32,
}

impl Envelope {
    /// Panics if `buf` is shorter than [`ENVELOPE_SIZE`].
    #[inline]
    pub fn encode(&self, buf: &mut [u8]) {
        let buf: &mut [u8; ENVELOPE_SIZE] = crate::bytes::fixed(buf);
        put_u32(buf, 0, self.abi_version);
        put_u32(buf, 4, self.game);
        put_u32(buf, 8, self.decision as u32);
        put_u32(buf, 12, self.seat);
        put_u32(buf, 16, self.players);
        put_u32(buf, 20, self.turn);
        put_u32(buf, 24, self.round);
        put_u32(buf, 28, self.payload_len);
    }

    pub fn decode(buf: &[u8]) -> Result<Envelope, DecodeError> {
        need(buf, ENVELOPE_SIZE)?;
        let decision =
            Decision::from_code(get_u32(buf, 8)).ok_or(DecodeError::BadValue { offset: 8 })?;
        let env = Envelope {
            abi_version: get_u32(buf, 0),
            game: get_u32(buf, 4),
            decision,
            seat: get_u32(buf, 12),
            players: get_u32(buf, 16),
            turn: get_u32(buf, 20),
            round: get_u32(buf, 24),
            payload_len: get_u32(buf, 28),
        };
        need(buf, ENVELOPE_SIZE + env.payload_len as usize)?;
        Ok(env)
    }

    /// The payload bytes that follow this header in `buf`.
    pub fn payload<'b>(&self, buf: &'b [u8]) -> &'b [u8] {
        &buf[ENVELOPE_SIZE..ENVELOPE_SIZE + self.payload_len as usize]
    }
}

/// Size of the init payload.
pub const INIT_PAYLOAD_SIZE: usize = 16;

/// Payload of `arena_init`, the same for every game.
///
/// | offset | type | field |
/// |---|---|---|
/// | 0 | u64 | seed for the agent's own randomness (differs per seat and per game) |
/// | 8 | u32 | round cap: the game is a draw after this many rounds |
/// | 12 | u32 | reserved, 0 |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InitPayload {
    pub seed: u64,
    pub round_cap: u32,
}

impl InitPayload {
    pub fn encode(&self, buf: &mut [u8]) {
        put_u64(buf, 0, self.seed);
        put_u32(buf, 8, self.round_cap);
        put_u32(buf, 12, 0);
    }

    pub fn decode(buf: &[u8]) -> Result<InitPayload, DecodeError> {
        need(buf, INIT_PAYLOAD_SIZE)?;
        Ok(InitPayload {
            seed: get_u64(buf, 0),
            round_cap: get_u32(buf, 8),
        })
    }
}
