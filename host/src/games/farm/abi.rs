//! The one translation between the host's game data and the bytes of ABI v1 (`arena-abi`).
//!
//! The sandbox (wasm agents) and the native adapter (`native.rs`) both go through these
//! functions, so that every agent sees exactly the same bytes whatever runs it.

use arena_abi::farm::{
    event_kind, max_events, Event as AbiEvent, ObservationFields, EVENT_SIZE, OFFER_SIZE, STOCK,
};
use arena_abi::{game, Decision as AbiDecision, Envelope, ABI_VERSION, ENVELOPE_SIZE};
use farm_rules::{Herd, Offer, MAX_PLAYERS};

use super::event::{Event, Party};
use super::fault::{Decision, Fault, FaultKind};
use super::turn::{AcceptView, Observation};

/// Code of a decision in the ABI: 0 init, 1 trade, 2 accept.
pub const fn decision_code(d: Decision) -> u8 {
    match d {
        Decision::Init => AbiDecision::Init as u8,
        Decision::Trade => AbiDecision::FarmTrade as u8,
        Decision::Accept => AbiDecision::FarmAccept as u8,
    }
}

fn seat_byte(seat: usize) -> u8 {
    // Seats are below MAX_PLAYERS (6); anything else would be a host bug, shown as "nobody".
    if seat < MAX_PLAYERS {
        seat as u8
    } else {
        STOCK
    }
}

fn party_byte(p: Party) -> u8 {
    match p {
        Party::Stock => STOCK,
        Party::Player(s) => seat_byte(s),
    }
}

fn ev(kind: u8, seat: u8, other: u8, code: u8, animals: Herd) -> AbiEvent {
    AbiEvent {
        kind,
        seat,
        other,
        code,
        animals,
    }
}

/// The ABI record of one host event (see `arena_abi::farm::event_kind` for the field meanings).
#[inline]
pub fn to_abi_event(e: &Event) -> AbiEvent {
    let none = Herd::EMPTY;
    match e {
        Event::Answer {
            seat,
            trader,
            accepted,
        } => ev(
            event_kind::ANSWER,
            seat_byte(*seat),
            seat_byte(*trader),
            *accepted as u8,
            none,
        ),
        Event::TradeFailed { seat, reason } => ev(
            event_kind::TRADE_FAILED,
            seat_byte(*seat),
            STOCK,
            reason.code(),
            none,
        ),
        Event::Transfer { from, to, animals } => ev(
            event_kind::TRANSFER,
            party_byte(*from),
            party_byte(*to),
            0,
            *animals,
        ),
        Event::Rolled { seat, roll } => ev(
            event_kind::ROLLED,
            seat_byte(*seat),
            roll.wolf.code(),
            roll.fox.code(),
            none,
        ),
        Event::Wolf { seat, lost } => ev(event_kind::WOLF, seat_byte(*seat), STOCK, 0, *lost),
        Event::Fox { seat, lost } => ev(event_kind::FOX, seat_byte(*seat), STOCK, 0, *lost),
        Event::Bred { seat, gained } => ev(event_kind::BRED, seat_byte(*seat), STOCK, 0, *gained),
        Event::Fault {
            seat,
            decision,
            fault,
        } => ev(
            event_kind::FAULT,
            seat_byte(*seat),
            decision_code(*decision),
            fault.kind.code(),
            none,
        ),
        Event::Forfeit { seat } => ev(event_kind::FORFEIT, seat_byte(*seat), STOCK, 0, none),
        Event::Win {
            seat,
            last_standing,
        } => ev(
            event_kind::WIN,
            seat_byte(*seat),
            STOCK,
            *last_standing as u8,
            none,
        ),
        Event::Draw { round_cap } => ev(event_kind::DRAW, STOCK, STOCK, *round_cap as u8, none),
    }
}

/// Smallest buffer [`encode_observation`] can write into (envelope, fixed part, no events).
pub const MIN_OBSERVATION_BYTES: usize = ENVELOPE_SIZE + arena_abi::farm::OBSERVATION_FIXED_SIZE;

/// Writes the envelope and the farm observation for a trade decision (`accept` is `None`) or an
/// accept decision, with as many of `obs.events` as fit in `buf`: when they do not all fit, the
/// OLDEST are left out and counted in `events_dropped`. Returns the bytes written, envelope
/// included (the length the host passes to `farm_trade` / `farm_accept`).
///
/// Panics if `buf` is shorter than [`MIN_OBSERVATION_BYTES`]; agents' buffers are at least
/// `arena_abi::MIN_BUFFER_SIZE` bytes, which is checked when they are loaded.
pub fn encode_observation(obs: &Observation, accept: Option<&AcceptView>, buf: &mut [u8]) -> usize {
    assert!(
        buf.len() >= MIN_OBSERVATION_BYTES,
        "exchange buffer of {} bytes is too small for an observation",
        buf.len()
    );
    let room = max_events(buf.len() - ENVELOPE_SIZE);
    let total = obs.events.len();
    let kept = total.min(room);
    let dropped = total - kept;
    let pos = obs.position;
    let payload_len = arena_abi::farm::OBSERVATION_FIXED_SIZE + kept * EVENT_SIZE;
    let envelope = Envelope {
        abi_version: ABI_VERSION,
        game: game::LITTLE_ANIMAL_FARM,
        decision: if accept.is_some() {
            AbiDecision::FarmAccept
        } else {
            AbiDecision::FarmTrade
        },
        seat: obs.seat as u32,
        players: pos.players as u32,
        turn: obs.turn,
        round: obs.round,
        payload_len: payload_len as u32,
    };
    envelope.encode(buf);
    let payload = &mut buf[ENVELOPE_SIZE..ENVELOPE_SIZE + payload_len];
    ObservationFields {
        to_move: obs.to_move as u32,
        out_mask: pos.out as u32,
        stock: &pos.stock,
        herds: &pos.herds[..pos.players.min(MAX_PLAYERS)],
        event_count: kept as u32,
        events_dropped: dropped.min(u32::MAX as usize) as u32,
        offer: accept.map(|a| (a.trader as u32, &a.offer)),
    }
    .encode(payload);
    let slots = payload[arena_abi::farm::offset::EVENTS..].chunks_exact_mut(EVENT_SIZE);
    for (slot, e) in slots.zip(&obs.events[dropped..]) {
        to_abi_event(e).encode(slot);
    }
    ENVELOPE_SIZE + payload_len
}

/// Reads the answer of `farm_trade`: `len` is what the export returned, `buf` the exchange buffer
/// (the offer is at offset 0). 0 is a pass; 64 or more (up to the buffer size) is an offer to be
/// judged by the rules; anything else is a `bad_answer` fault.
pub fn decode_trade_answer(len: i32, buf: &[u8]) -> Result<Offer, Fault> {
    if len == 0 {
        return Ok(Offer::PASS);
    }
    if len < 0 || (len as usize) < OFFER_SIZE || len as usize > buf.len() {
        return Err(Fault::new(
            FaultKind::BadAnswer,
            format!(
                "farm_trade returned length {len}: expected 0 (pass) or {OFFER_SIZE}..={} (an offer)",
                buf.len()
            ),
        ));
    }
    arena_abi::farm::decode_offer(&buf[..OFFER_SIZE])
        .map_err(|e| Fault::new(FaultKind::BadAnswer, format!("unreadable offer: {e}")))
}

/// Reads the answer of `farm_accept`: 1 accepts, 0 denies, anything else is a `bad_answer` fault.
pub fn decode_accept_answer(ret: i32) -> Result<bool, Fault> {
    match ret {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(Fault::new(
            FaultKind::BadAnswer,
            format!("farm_accept returned {other}: expected 0 (deny) or 1 (accept)"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_abi::farm::encode_offer;
    use farm_rules::{Animal, FailReason, Position, Roll};

    #[test]
    fn events_map_to_their_codes() {
        let roll = Roll::from_indices(11, 11);
        let e = to_abi_event(&Event::Rolled { seat: 1, roll });
        assert_eq!(
            (e.kind, e.seat, e.code, e.other),
            (event_kind::ROLLED, 1, 7, 8)
        );
        let e = to_abi_event(&Event::TradeFailed {
            seat: 0,
            reason: FailReason::Declined,
        });
        assert_eq!((e.kind, e.code), (event_kind::TRADE_FAILED, 10));
        let e = to_abi_event(&Event::Transfer {
            from: Party::Stock,
            to: Party::Player(2),
            animals: Herd::of(Animal::Cow, 1),
        });
        assert_eq!((e.seat, e.other, e.animals.get(Animal::Cow)), (STOCK, 2, 1));
        let e = to_abi_event(&Event::Fault {
            seat: 3,
            decision: Decision::Accept,
            fault: Fault::new(FaultKind::DecisionFuel, "x"),
        });
        assert_eq!(
            (e.kind, e.seat, e.other, e.code),
            (event_kind::FAULT, 3, 2, 3)
        );
    }

    #[test]
    fn oldest_events_are_dropped_when_the_buffer_is_full() {
        let pos = Position::new(2);
        let events: Vec<Event> = (0..10)
            .map(|i| Event::Forfeit { seat: i % 2 })
            .chain([Event::Draw { round_cap: true }])
            .collect();
        let (_, asked) = crate::games::farm::strategies::sample_trade(&pos, &events);
        let mut buf = vec![0u8; MIN_OBSERVATION_BYTES + 3 * EVENT_SIZE + 5];
        let n = encode_observation(&asked.observation, None, &mut buf);
        assert_eq!(n, MIN_OBSERVATION_BYTES + 3 * EVENT_SIZE);
        let env = Envelope::decode(&buf).unwrap();
        let o = arena_abi::farm::Observation::decode(env.payload(&buf)).unwrap();
        assert_eq!((o.event_count, o.events_dropped), (3, 8));
        assert_eq!(
            o.event(env.payload(&buf), 2).unwrap().kind,
            event_kind::DRAW
        );
    }

    #[test]
    fn answers_are_read_strictly() {
        let mut buf = [0u8; 128];
        assert_eq!(decode_trade_answer(0, &buf).unwrap(), Offer::PASS);
        let offer = Offer::with_stock(Herd::of(Animal::Rabbit, 6), Herd::of(Animal::Sheep, 1));
        encode_offer(&mut buf[..OFFER_SIZE], &offer);
        assert_eq!(decode_trade_answer(64, &buf).unwrap(), offer);
        assert_eq!(decode_trade_answer(128, &buf).unwrap(), offer);
        for bad in [-1, 1, 63, 129, i32::MIN] {
            assert_eq!(
                decode_trade_answer(bad, &buf).unwrap_err().kind,
                FaultKind::BadAnswer
            );
        }
        assert!(decode_accept_answer(1).unwrap());
        assert!(!decode_accept_answer(0).unwrap());
        assert!(decode_accept_answer(2).is_err());
        assert!(decode_accept_answer(-1).is_err());
    }
}
