use crate::animal::KINDS;
use crate::herd::Herd;
use crate::position::{Position, MAX_PLAYERS};

/// What an offer asks for, by its code in the ABI and in records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    /// No trade this turn (code 0).
    Pass,
    /// A trade with the stock (code 1); `partner` is ignored.
    Stock,
    /// A trade with the player seated at `partner` (code 2).
    Player,
}

impl OfferKind {
    pub const fn code(self) -> u32 {
        match self {
            OfferKind::Pass => 0,
            OfferKind::Stock => 1,
            OfferKind::Player => 2,
        }
    }

    pub const fn from_code(code: u32) -> Option<OfferKind> {
        match code {
            0 => Some(OfferKind::Pass),
            1 => Some(OfferKind::Stock),
            2 => Some(OfferKind::Player),
            _ => None,
        }
    }
}

/// A trade offer exactly as an agent gave it: nothing is trusted yet. Amounts are signed so that
/// negative counts (which the original harness let through) can be seen and refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Offer {
    /// An [`OfferKind`] code; anything else is a "wrong type" answer.
    pub kind: u32,
    /// Seat of the partner for a player trade.
    pub partner: i32,
    /// Animals the trader hands over, by kind index.
    pub give: [i32; KINDS],
    /// Animals the trader asks for, by kind index.
    pub get: [i32; KINDS],
}

impl Offer {
    pub const PASS: Offer = Offer {
        kind: 0,
        partner: -1,
        give: [0; KINDS],
        get: [0; KINDS],
    };

    pub fn with_stock(give: Herd, get: Herd) -> Offer {
        Offer {
            kind: OfferKind::Stock.code(),
            partner: -1,
            give: signed(&give),
            get: signed(&get),
        }
    }

    pub fn with_player(partner: usize, give: Herd, get: Herd) -> Offer {
        Offer {
            kind: OfferKind::Player.code(),
            partner: partner as i32,
            give: signed(&give),
            get: signed(&get),
        }
    }

    pub fn is_pass(&self) -> bool {
        self.kind == OfferKind::Pass.code()
    }
}

fn signed(h: &Herd) -> [i32; KINDS] {
    let mut out = [0i32; KINDS];
    for (o, &n) in out.iter_mut().zip(h.0.iter()) {
        *o = n.min(i32::MAX as u32) as i32;
    }
    out
}

/// Who the trader deals with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Partner {
    Stock,
    Player(usize),
}

/// A trade that passed every check the rules can make before the partner answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Trade {
    pub partner: Partner,
    pub give: Herd,
    pub get: Herd,
}

rules_bounds::coded_enum! {
    /// Why a trade failed. Codes and names are stable: they appear in records and in the ABI.
    /// The checks run in the order of the codes and the first failure is reported.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[repr(u8)]
    pub enum FailReason: u8 {
        /// The answer is not a trade at all: an unknown kind code.
        WrongType = 1 => "wrong_type",
        /// A negative amount, or more of a kind than exists in the whole game.
        InvalidAmount = 2 => "invalid_amount",
        /// The trader does not own everything it offers.
        NotEnoughAnimals = 3 => "not_enough_animals",
        /// The partner seat is not a seat of this game.
        NoSuchPlayer = 4 => "no_such_player",
        /// The partner is the trader itself.
        SelfTrade = 5 => "self_trade",
        /// The partner has forfeited the game.
        PartnerOut = 6 => "partner_out",
        /// The partner player does not own everything asked for (never checked for the stock).
        PartnerNotEnoughAnimals = 7 => "partner_not_enough_animals",
        /// The worth given differs from the worth asked for.
        UnequalTrade = 8 => "unequal_trade",
        /// Neither side of the trade is exactly one animal.
        ManyToMany = 9 => "many_to_many",
        /// The partner player said no.
        Declined = 10 => "declined",
    }
    const ALL;
    fn code;
    fn from_code;
    /// Stable snake_case name used in records.
    fn name;
}

impl FailReason {
    pub fn from_name(name: &str) -> Option<FailReason> {
        FailReason::ALL.iter().copied().find(|r| r.name() == name)
    }

    /// A sentence for narration.
    pub const fn describe(self) -> &'static str {
        match self {
            FailReason::WrongType => "the answer is not a trade",
            FailReason::InvalidAmount => "an amount is negative or larger than the game holds",
            FailReason::NotEnoughAnimals => "the trader lacks animals it offers",
            FailReason::NoSuchPlayer => "there is no such player",
            FailReason::SelfTrade => "a player cannot trade with itself",
            FailReason::PartnerOut => "the partner has forfeited the game",
            FailReason::PartnerNotEnoughAnimals => "the partner lacks animals asked for",
            FailReason::UnequalTrade => "the two sides are not worth the same",
            FailReason::ManyToMany => "many animals for many is not allowed",
            FailReason::Declined => "the other player declined",
        }
    }
}

/// Judges an offer by `trader` in `pos`, up to (not including) the partner's answer.
///
/// Returns `Ok(None)` for a pass, `Ok(Some(trade))` for a trade that the stock will carry out or
/// that a player partner must now accept or decline, and the first failing check otherwise.
pub fn check_offer(
    pos: &Position,
    trader: usize,
    offer: &Offer,
) -> Result<Option<Trade>, FailReason> {
    let kind = OfferKind::from_code(offer.kind).ok_or(FailReason::WrongType)?;
    if kind == OfferKind::Pass {
        return Ok(None);
    }
    let give = amounts(pos, &offer.give)?;
    let get = amounts(pos, &offer.get)?;
    if !pos.herds[trader].contains(&give) {
        return Err(FailReason::NotEnoughAnimals);
    }
    let partner = match kind {
        OfferKind::Stock => Partner::Stock,
        _ => {
            let seat = offer.partner;
            if seat < 0 || seat as usize >= pos.players.min(MAX_PLAYERS) {
                return Err(FailReason::NoSuchPlayer);
            }
            let seat = seat as usize;
            if seat == trader {
                return Err(FailReason::SelfTrade);
            }
            if pos.is_out(seat) {
                return Err(FailReason::PartnerOut);
            }
            if !pos.herds[seat].contains(&get) {
                return Err(FailReason::PartnerNotEnoughAnimals);
            }
            Partner::Player(seat)
        }
    };
    if give.worth() != get.worth() {
        return Err(FailReason::UnequalTrade);
    }
    if give.total() != 1 && get.total() != 1 {
        return Err(FailReason::ManyToMany);
    }
    Ok(Some(Trade { partner, give, get }))
}

/// Converts signed amounts, refusing negatives and counts beyond what the game holds.
fn amounts(pos: &Position, raw: &[i32; KINDS]) -> Result<Herd, FailReason> {
    let totals = pos.totals();
    let mut out = Herd::EMPTY;
    for ((slot, &n), &total) in out.0.iter_mut().zip(raw).zip(&totals.0) {
        if n < 0 || n as u32 > total {
            return Err(FailReason::InvalidAmount);
        }
        *slot = n as u32;
    }
    Ok(out)
}

/// Carries out a checked (and, with a player, accepted) trade: the trader pays in full, then
/// receives what it asked for, truncated to what the partner holds (only the stock can be short).
/// Returns what the trader actually received.
pub fn execute_trade(pos: &mut Position, trader: usize, trade: &Trade) -> Herd {
    let Position { herds, stock, .. } = pos;
    match trade.partner {
        Partner::Stock => {
            herds[trader].move_to(stock, &trade.give);
            let delivered = trade.get.min(stock);
            stock.move_to(&mut herds[trader], &delivered);
            delivered
        }
        Partner::Player(p) => {
            let (a, b) = pair_mut(herds, trader, p);
            a.move_to(b, &trade.give);
            let delivered = trade.get.min(b);
            b.move_to(a, &delivered);
            delivered
        }
    }
}

fn pair_mut(herds: &mut [Herd; MAX_PLAYERS], a: usize, b: usize) -> (&mut Herd, &mut Herd) {
    assert_ne!(
        a, b,
        "a trade between a seat and itself is refused by check_offer"
    );
    if a < b {
        let (lo, hi) = herds.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = herds.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}
