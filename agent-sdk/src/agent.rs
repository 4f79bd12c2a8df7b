use arena_abi::farm::{decode_offer, encode_offer, Event, Observation, OFFER_SIZE};
use arena_abi::{game, Decision, Envelope, InitPayload, ABI_VERSION};
use farm_rules::{Herd, Offer, Position, MAX_PLAYERS};

/// What an agent learns once per game, before any decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InitContext {
    /// The agent's seat, from 0.
    pub seat: usize,
    pub players: usize,
    /// Seed for the agent's own randomness (different per seat and per game; replays repeat it).
    pub seed: u64,
    /// The game is a draw after this many rounds.
    pub round_cap: u32,
}

/// Everything the host sent for one decision, decoded.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    /// The agent's seat.
    pub seat: usize,
    pub players: usize,
    /// Turn number, from 1 over the whole game.
    pub turn: u32,
    /// Round number, from 1.
    pub round: u32,
    /// Whose turn it is (the agent itself for a trade decision, the trader for an accept).
    pub to_move: usize,
    /// Every herd, the stock and the forfeited seats: pass it to `rules::check_offer`,
    /// `rules::for_each_stock_trade` and the helpers in [`crate::tactics`].
    pub position: Position,
    /// Older events the host left out because they did not fit in the buffer.
    pub events_dropped: u32,
    observation: Observation,
    payload: &'a [u8],
}

impl<'a> View<'a> {
    /// Decodes an envelope and farm observation; `None` if the bytes are not one.
    pub fn decode(bytes: &'a [u8]) -> Option<View<'a>> {
        let env = envelope_for(
            bytes,
            game::LITTLE_ANIMAL_FARM,
            &[Decision::FarmTrade, Decision::FarmAccept],
        )?;
        let players = env.players as usize;
        let seat = env.seat as usize;
        if !(2..=MAX_PLAYERS).contains(&players) || seat >= players {
            return None;
        }
        let payload = env.payload(bytes);
        let observation = Observation::decode(payload).ok()?;
        let to_move = observation.to_move as usize;
        if to_move >= players {
            return None;
        }
        Some(View {
            seat,
            players,
            turn: env.turn,
            round: env.round,
            to_move,
            position: observation.position(players),
            events_dropped: observation.events_dropped,
            observation,
            payload,
        })
    }

    /// The agent's own herd.
    pub fn my_herd(&self) -> Herd {
        self.position.herds[self.seat]
    }

    pub fn herd(&self, seat: usize) -> Herd {
        self.position.herds[seat % MAX_PLAYERS]
    }

    pub fn stock(&self) -> Herd {
        self.position.stock
    }

    /// True when `seat` has forfeited.
    pub fn is_out(&self, seat: usize) -> bool {
        self.position.is_out(seat)
    }

    /// Seats of the other players still in the game.
    pub fn opponents(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.players).filter(move |&s| s != self.seat && !self.is_out(s))
    }

    /// For an accept decision: the trader's seat and its offer exactly as given.
    pub fn offer(&self) -> Option<(usize, Offer)> {
        self.observation.offer.map(|(t, o)| (t as usize, o))
    }

    /// The events since the agent's previous decision, oldest first
    /// (see `arena_abi::farm::event_kind` for their meaning).
    pub fn events(&self) -> EventIter<'a> {
        EventIter {
            observation: self.observation,
            payload: self.payload,
            next: 0,
        }
    }
}

/// Iterator over the events of a [`View`].
#[derive(Clone, Debug)]
pub struct EventIter<'a> {
    observation: Observation,
    payload: &'a [u8],
    next: usize,
}

impl Iterator for EventIter<'_> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        let e = self.observation.event(self.payload, self.next)?;
        self.next += 1;
        Some(e)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.observation.event_count as usize).saturating_sub(self.next);
        (left, Some(left))
    }
}

impl ExactSizeIterator for EventIter<'_> {}

/// A Little Animal Farm strategy. Answers are judged by the rules afterwards: an illegal offer
/// is not a fault, it only fails (use `rules::check_offer` to know in advance).
pub trait FarmAgent {
    /// Once per game, before any decision.
    fn init(&mut self, _ctx: &InitContext) {}

    /// Trade or pass (`Offer::PASS`) before the roll.
    fn trade(&mut self, view: &View) -> Offer;

    /// Accept or deny `offer` from `trader` (`view.to_move == trader`). The default denies.
    fn accept(&mut self, _view: &View, _trader: usize, _offer: &Offer) -> bool {
        false
    }
}

pub(crate) fn bytes(buf: &[u8], len: i32) -> &[u8] {
    let len = if len < 0 { 0 } else { len as usize };
    &buf[..len.min(buf.len())]
}

/// Decodes the envelope and payload of an `arena_init` call (any game); `None` when the bytes
/// are not one.
pub(crate) fn decode_init(buf: &[u8], len: i32) -> Option<InitContext> {
    let b = bytes(buf, len);
    let env = Envelope::decode(b).ok()?;
    if env.decision != Decision::Init {
        return None;
    }
    let init = InitPayload::decode(env.payload(b)).ok()?;
    Some(InitContext {
        seat: env.seat as usize,
        players: env.players as usize,
        seed: init.seed,
        round_cap: init.round_cap,
    })
}

/// The envelope of a call for one of `decisions` of `game` in this ABI version; `None` for any
/// other bytes (every game's view starts with this check).
pub(crate) fn envelope_for(bytes: &[u8], game: u32, decisions: &[Decision]) -> Option<Envelope> {
    let env = Envelope::decode(bytes).ok()?;
    let ours = env.abi_version == ABI_VERSION && env.game == game;
    (ours && decisions.contains(&env.decision)).then_some(env)
}

/// The body of every game's `arena_init`: decodes the init payload and hands it to `init`.
/// Returns 0. Unreadable bytes are ignored (the agent is not initialised).
pub(crate) fn init_with(buf: &[u8], len: i32, init: impl FnOnce(&InitContext)) -> i32 {
    if let Some(ctx) = decode_init(buf, len) {
        init(&ctx);
    }
    0
}

/// The body of a decision that always gets an answer (Farkle, Jungle, light cycles): decodes the
/// view with `decode`, then `answer` writes the agent's answer at offset 0 of the buffer and
/// gives its length, which is returned. Returns 0 (which the host reads as a `bad_answer` fault)
/// when the bytes are not such a view or the buffer cannot hold `answer_size` bytes.
pub(crate) fn answer_with<V>(
    buf: &mut [u8],
    len: i32,
    decode: impl FnOnce(&[u8]) -> Option<V>,
    answer_size: usize,
    answer: impl FnOnce(&V, &mut [u8]) -> usize,
) -> i32 {
    let Some(view) = decode(bytes(buf, len)) else {
        return 0;
    };
    if buf.len() < answer_size {
        return 0;
    }
    answer(&view, buf) as i32
}

/// Body of `arena_init`: decodes the init payload and calls [`FarmAgent::init`]. Returns 0.
/// Unreadable bytes are ignored (the agent is not initialised).
pub fn handle_init<A: FarmAgent + ?Sized>(agent: &mut A, buf: &mut [u8], len: i32) -> i32 {
    init_with(buf, len, |ctx| agent.init(ctx))
}

/// Body of `farm_trade`: decodes the view, asks the agent, writes its offer at offset 0 of the
/// buffer and returns 64, or returns 0 for a pass (also when the bytes cannot be read).
pub fn handle_trade<A: FarmAgent + ?Sized>(agent: &mut A, buf: &mut [u8], len: i32) -> i32 {
    let offer = match View::decode(bytes(buf, len)) {
        Some(view) if view.offer().is_none() => agent.trade(&view),
        _ => return 0,
    };
    if offer.is_pass() || buf.len() < OFFER_SIZE {
        return 0;
    }
    encode_offer(&mut buf[..OFFER_SIZE], &offer);
    OFFER_SIZE as i32
}

/// Body of `farm_accept`: 1 to accept, 0 to deny (also when the bytes cannot be read).
pub fn handle_accept<A: FarmAgent + ?Sized>(agent: &mut A, buf: &mut [u8], len: i32) -> i32 {
    let Some(view) = View::decode(bytes(buf, len)) else {
        return 0;
    };
    let Some((trader, offer)) = view.offer() else {
        return 0;
    };
    agent.accept(&view, trader, &offer) as i32
}

/// Reads back an offer written by [`handle_trade`] (for tests).
pub fn read_answer(buf: &[u8], len: i32) -> Option<Offer> {
    if len == OFFER_SIZE as i32 {
        decode_offer(buf).ok()
    } else {
        None
    }
}
