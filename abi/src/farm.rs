//! Little Animal Farm payloads: the observation the host writes after the envelope, the events it
//! carries, and the trade answer the agent writes back.

use farm_rules::{Herd, Offer, Position, KINDS, MAX_PLAYERS};

use crate::bytes::{fixed, get_i32, get_u32, need, put_i32, put_u32, DecodeError};

/// Size of the fixed part of an observation; events follow it.
pub const OBSERVATION_FIXED_SIZE: usize = 280;
/// Size of one event record.
pub const EVENT_SIZE: usize = 32;
/// Size of a trade answer (and of the offer inside an accept observation).
pub const OFFER_SIZE: usize = 64;
/// `trader` value of an observation that carries no offer (a trade decision).
pub const NO_TRADER: u32 = u32::MAX;
/// Seat value meaning "the stock" (or "nobody") in an event.
pub const STOCK: u8 = 255;

/// Offsets of the observation payload (relative to the payload start, i.e. buffer offset 32).
pub mod offset {
    pub const TO_MOVE: usize = 0;
    pub const OUT_MASK: usize = 4;
    pub const STOCK: usize = 8;
    pub const HERDS: usize = 36;
    pub const EVENT_COUNT: usize = 204;
    pub const EVENTS_DROPPED: usize = 208;
    pub const TRADER: usize = 212;
    pub const OFFER: usize = 216;
    pub const EVENTS: usize = 280;
}

/// The fixed part of a farm observation.
///
/// | offset | type | field |
/// |---|---|---|
/// | 0 | u32 | seat whose turn it is |
/// | 4 | u32 | bit mask of seats that have forfeited |
/// | 8 | u32 × 7 | the stock |
/// | 36 | u32 × 7 × 6 | herds of seats 0–5 (zero beyond the number of players) |
/// | 204 | u32 | number of events that follow (at offset 280, 32 bytes each) |
/// | 208 | u32 | older events left out because the buffer was full |
/// | 212 | u32 | accept decision: seat of the trader; trade decision: 0xFFFFFFFF |
/// | 216 | 64 bytes | accept decision: the offer as the trader gave it; trade decision: zero |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    pub to_move: u32,
    pub out_mask: u32,
    pub stock: Herd,
    pub herds: [Herd; MAX_PLAYERS],
    pub event_count: u32,
    pub events_dropped: u32,
    /// For an accept decision: who offers, and the offer exactly as given.
    pub offer: Option<(u32, Offer)>,
}

impl Observation {
    /// Writes the fixed part; the caller writes `event_count` events after it.
    ///
    /// Panics if `buf` is shorter than [`OBSERVATION_FIXED_SIZE`].
    pub fn encode(&self, buf: &mut [u8]) {
        ObservationFields {
            to_move: self.to_move,
            out_mask: self.out_mask,
            stock: &self.stock,
            herds: &self.herds,
            event_count: self.event_count,
            events_dropped: self.events_dropped,
            offer: self.offer.as_ref().map(|(trader, offer)| (*trader, offer)),
        }
        .encode(buf);
    }

    /// Reads the fixed part and checks that the announced events are present.
    pub fn decode(payload: &[u8]) -> Result<Observation, DecodeError> {
        need(payload, OBSERVATION_FIXED_SIZE)?;
        let mut herds = [Herd::EMPTY; MAX_PLAYERS];
        for (i, herd) in herds.iter_mut().enumerate() {
            *herd = get_herd(payload, offset::HERDS + i * KINDS * 4);
        }
        let trader = get_u32(payload, offset::TRADER);
        let event_count = get_u32(payload, offset::EVENT_COUNT);
        need(
            payload,
            OBSERVATION_FIXED_SIZE + event_count as usize * EVENT_SIZE,
        )?;
        Ok(Observation {
            to_move: get_u32(payload, offset::TO_MOVE),
            out_mask: get_u32(payload, offset::OUT_MASK),
            stock: get_herd(payload, offset::STOCK),
            herds,
            event_count,
            events_dropped: get_u32(payload, offset::EVENTS_DROPPED),
            offer: if trader == NO_TRADER {
                None
            } else {
                Some((trader, decode_offer(&payload[offset::OFFER..])?))
            },
        })
    }

    /// The rules' view of this observation, so an agent can call `farm_rules::check_offer`.
    pub fn position(&self, players: usize) -> Position {
        Position {
            players: players.min(MAX_PLAYERS),
            herds: self.herds,
            stock: self.stock,
            out: self.out_mask as u8,
        }
    }

    /// The `i`-th event of a decoded payload.
    pub fn event(&self, payload: &[u8], i: usize) -> Option<Event> {
        if i >= self.event_count as usize {
            return None;
        }
        Event::decode(&payload[offset::EVENTS + i * EVENT_SIZE..]).ok()
    }
}

/// The fields of an observation's fixed part, borrowed from wherever the writer keeps them: the
/// one writer of the layout, used by [`Observation::encode`] and by the host for every decision
/// (which so builds no [`Observation`] first).
#[derive(Clone, Copy, Debug)]
pub struct ObservationFields<'a> {
    pub to_move: u32,
    pub out_mask: u32,
    pub stock: &'a Herd,
    /// Herds of seats 0, 1, …; the seats after the last one given (up to [`MAX_PLAYERS`]) are
    /// written as zero, and herds past [`MAX_PLAYERS`] are not written.
    pub herds: &'a [Herd],
    pub event_count: u32,
    pub events_dropped: u32,
    pub offer: Option<(u32, &'a Offer)>,
}

impl ObservationFields<'_> {
    /// Writes the fixed part (see [`Observation`] for the layout).
    ///
    /// Panics if `buf` is shorter than [`OBSERVATION_FIXED_SIZE`].
    pub fn encode(&self, buf: &mut [u8]) {
        // One length check, then every write is at an offset the compiler can bound within an
        // array of known size, so the per-field bounds checks fold away (the host runs this for
        // every decision).
        let buf: &mut [u8; OBSERVATION_FIXED_SIZE] = fixed(buf);
        put_u32(buf, offset::TO_MOVE, self.to_move);
        put_u32(buf, offset::OUT_MASK, self.out_mask);
        put_herd(buf, offset::STOCK, self.stock);
        for i in 0..MAX_PLAYERS {
            let at = offset::HERDS + i * KINDS * 4;
            match self.herds.get(i) {
                Some(herd) => put_herd(buf, at, herd),
                None => buf[at..at + KINDS * 4].fill(0),
            }
        }
        put_u32(buf, offset::EVENT_COUNT, self.event_count);
        put_u32(buf, offset::EVENTS_DROPPED, self.events_dropped);
        match self.offer {
            Some((trader, offer)) => {
                put_u32(buf, offset::TRADER, trader);
                encode_offer(&mut buf[offset::OFFER..offset::OFFER + OFFER_SIZE], offer);
            }
            None => {
                put_u32(buf, offset::TRADER, NO_TRADER);
                buf[offset::OFFER..offset::OFFER + OFFER_SIZE].fill(0);
            }
        }
    }
}

/// How many events fit in a payload area of `capacity` bytes.
pub const fn max_events(capacity: usize) -> usize {
    capacity.saturating_sub(OBSERVATION_FIXED_SIZE) / EVENT_SIZE
}

/// Event kinds, in byte 0 of an event.
pub mod event_kind {
    /// seat = the partner who answered, other = the trader, code = 1 accepted / 0 declined.
    pub const ANSWER: u8 = 1;
    /// seat = the trader, code = the failure reason code.
    pub const TRADE_FAILED: u8 = 2;
    /// seat = from, other = to (255 = stock), animals = what moved.
    pub const TRANSFER: u8 = 3;
    /// seat = who rolled, code = fox die face, other = wolf die face (see face codes).
    pub const ROLLED: u8 = 4;
    /// seat = who lost animals to the wolf, animals = what went back to the stock.
    pub const WOLF: u8 = 5;
    /// seat = who lost animals to the fox, animals = what went back to the stock.
    pub const FOX: u8 = 6;
    /// seat = who bred, animals = what came from the stock.
    pub const BRED: u8 = 7;
    /// seat = the faulty agent, code = fault code, other = decision (0 init, 1 trade, 2 accept).
    pub const FAULT: u8 = 8;
    /// seat = who is out of the game.
    pub const FORFEIT: u8 = 9;
    /// seat = the winner, code = 1 when it won as the last player left.
    pub const WIN: u8 = 10;
    /// code = 1 when the round cap was reached, 0 when every player forfeited.
    pub const DRAW: u8 = 11;
}

/// One event: 4 bytes of header then 7 animal counts.
///
/// | offset | type | field |
/// |---|---|---|
/// | 0 | u8 | kind (see [`event_kind`]) |
/// | 1 | u8 | seat |
/// | 2 | u8 | other seat, or 255 |
/// | 3 | u8 | code |
/// | 4 | u32 × 7 | animals |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Event {
    pub kind: u8,
    pub seat: u8,
    pub other: u8,
    pub code: u8,
    pub animals: Herd,
}

impl Event {
    /// Panics if `buf` is shorter than [`EVENT_SIZE`].
    #[inline]
    pub fn encode(&self, buf: &mut [u8]) {
        let buf: &mut [u8; EVENT_SIZE] = fixed(buf);
        buf[0] = self.kind;
        buf[1] = self.seat;
        buf[2] = self.other;
        buf[3] = self.code;
        put_herd(buf, 4, &self.animals);
    }

    pub fn decode(buf: &[u8]) -> Result<Event, DecodeError> {
        need(buf, EVENT_SIZE)?;
        Ok(Event {
            kind: buf[0],
            seat: buf[1],
            other: buf[2],
            code: buf[3],
            animals: get_herd(buf, 4),
        })
    }
}

/// Writes an offer: the trade answer layout, also used inside an accept observation.
///
/// | offset | type | field |
/// |---|---|---|
/// | 0 | u32 | kind: 0 pass, 1 trade with the stock, 2 trade with a player |
/// | 4 | i32 | partner seat (kind 2) |
/// | 8 | i32 × 7 | animals given |
/// | 36 | i32 × 7 | animals asked for |
#[inline]
pub fn encode_offer(buf: &mut [u8], offer: &Offer) {
    let buf: &mut [u8; OFFER_SIZE] = fixed(buf);
    put_u32(buf, 0, offer.kind);
    put_i32(buf, 4, offer.partner);
    for k in 0..KINDS {
        put_i32(buf, 8 + 4 * k, offer.give[k]);
        put_i32(buf, 36 + 4 * k, offer.get[k]);
    }
}

/// Reads an offer. Every bit pattern is a readable offer; the rules judge it afterwards.
pub fn decode_offer(buf: &[u8]) -> Result<Offer, DecodeError> {
    need(buf, OFFER_SIZE)?;
    let mut offer = Offer {
        kind: get_u32(buf, 0),
        partner: get_i32(buf, 4),
        give: [0; KINDS],
        get: [0; KINDS],
    };
    for k in 0..KINDS {
        offer.give[k] = get_i32(buf, 8 + 4 * k);
        offer.get[k] = get_i32(buf, 36 + 4 * k);
    }
    Ok(offer)
}

#[inline]
fn put_herd(buf: &mut [u8], at: usize, herd: &Herd) {
    for (k, &n) in herd.0.iter().enumerate() {
        put_u32(buf, at + 4 * k, n);
    }
}

fn get_herd(buf: &[u8], at: usize) -> Herd {
    let mut h = Herd::EMPTY;
    for (k, n) in h.0.iter_mut().enumerate() {
        *n = get_u32(buf, at + 4 * k);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn herd() -> impl Strategy<Value = Herd> {
        prop::array::uniform7(any::<u32>()).prop_map(Herd)
    }

    fn offer() -> impl Strategy<Value = Offer> {
        (
            any::<u32>(),
            any::<i32>(),
            prop::array::uniform7(any::<i32>()),
            prop::array::uniform7(any::<i32>()),
        )
            .prop_map(|(kind, partner, give, get)| Offer {
                kind,
                partner,
                give,
                get,
            })
    }

    proptest! {
        #[test]
        fn offers_round_trip(o in offer()) {
            let mut buf = [0u8; OFFER_SIZE];
            encode_offer(&mut buf, &o);
            prop_assert_eq!(decode_offer(&buf).unwrap(), o);
        }

        #[test]
        fn observations_round_trip(
            to_move in 0u32..6, out_mask in 0u32..64, stock in herd(),
            herds in prop::array::uniform6(herd()), events in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>(), herd()), 0..20),
            dropped in any::<u32>(), with_offer in prop::option::of((0u32..6, offer())),
        ) {
            let obs = Observation { to_move, out_mask, stock, herds, event_count: events.len() as u32, events_dropped: dropped, offer: with_offer };
            let mut buf = [0u8; OBSERVATION_FIXED_SIZE + 20 * EVENT_SIZE];
            obs.encode(&mut buf);
            let evs: [Event; 20] = core::array::from_fn(|i| events.get(i).map(|&(kind, seat, other, code, animals)| Event { kind, seat, other, code, animals }).unwrap_or_default());
            for (i, e) in evs.iter().take(events.len()).enumerate() {
                e.encode(&mut buf[offset::EVENTS + i * EVENT_SIZE..]);
            }
            let back = Observation::decode(&buf).unwrap();
            prop_assert_eq!(back, obs);
            for (i, e) in evs.iter().take(events.len()).enumerate() {
                prop_assert_eq!(back.event(&buf, i), Some(*e));
            }
            prop_assert_eq!(back.event(&buf, events.len()), None);
        }

        #[test]
        fn fields_of_fewer_seats_overwrite_a_dirty_buffer(
            players in 0usize..=MAX_PLAYERS, stock in herd(), herds in prop::array::uniform6(herd()),
            dirt in any::<u8>(), with_offer in prop::option::of((0u32..6, offer())),
        ) {
            // The host encodes straight into the guest's buffer, which holds whatever the agent
            // left there: every byte of the fixed part must be written, seats not in play as zero.
            let mut buf = [dirt; OBSERVATION_FIXED_SIZE];
            ObservationFields {
                to_move: 1,
                out_mask: 2,
                stock: &stock,
                herds: &herds[..players],
                event_count: 0,
                events_dropped: 3,
                offer: with_offer.as_ref().map(|(t, o)| (*t, o)),
            }
            .encode(&mut buf);
            let back = Observation::decode(&buf).unwrap();
            let expected: [Herd; MAX_PLAYERS] =
                core::array::from_fn(|i| if i < players { herds[i] } else { Herd::EMPTY });
            prop_assert_eq!(back, Observation {
                to_move: 1, out_mask: 2, stock, herds: expected, event_count: 0, events_dropped: 3,
                offer: with_offer,
            });
            if with_offer.is_none() {
                prop_assert!(buf[offset::OFFER..offset::OFFER + OFFER_SIZE].iter().all(|&b| b == 0));
            }
        }

        #[test]
        fn decoding_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
            if let Ok(obs) = Observation::decode(&bytes) {
                for i in 0..obs.event_count as usize {
                    prop_assert!(obs.event(&bytes, i).is_some());
                }
            }
            let _ = decode_offer(&bytes);
            let _ = crate::Envelope::decode(&bytes);
        }
    }

    #[test]
    fn truncated_observation_is_refused() {
        let buf = [0u8; OBSERVATION_FIXED_SIZE - 1];
        assert!(matches!(
            Observation::decode(&buf),
            Err(DecodeError::TooShort { .. })
        ));
    }

    #[test]
    fn layout_offsets_are_consistent() {
        assert_eq!(offset::HERDS + MAX_PLAYERS * KINDS * 4, offset::EVENT_COUNT);
        assert_eq!(offset::OFFER + OFFER_SIZE, offset::EVENTS);
        assert_eq!(OBSERVATION_FIXED_SIZE, offset::EVENTS);
        assert_eq!(4 + KINDS * 4, EVENT_SIZE);
    }
}
