//! Small, allocation-free helpers that most strategies need: simulating a trade, finding the
//! cheapest payment, finding a trade that completes the set.

use farm_rules::{
    check_offer, execute_trade, for_each_payment, for_each_stock_trade, Animal, Herd, Offer,
    Partner, Position, FARM_ANIMALS, WORTH,
};

/// The position after `seat` makes `offer`, assuming a partner player accepts; `None` if the
/// rules refuse the offer (or it is a pass).
pub fn after(pos: &Position, seat: usize, offer: &Offer) -> Option<Position> {
    let trade = check_offer(pos, seat, offer).ok()??;
    let mut next = *pos;
    execute_trade(&mut next, seat, &trade);
    Some(next)
}

/// True when the rules accept `offer` by `seat` in `pos` (a pass counts as legal).
pub fn is_legal(pos: &Position, seat: usize, offer: &Offer) -> bool {
    check_offer(pos, seat, offer).is_ok()
}

/// The farm kinds (rabbit … horse) the herd lacks.
pub fn missing(herd: &Herd) -> impl Iterator<Item = Animal> + '_ {
    FARM_ANIMALS.iter().copied().filter(|&a| herd.get(a) == 0)
}

/// Number of farm kinds the herd lacks (0 = a winning herd).
pub fn missing_count(herd: &Herd) -> usize {
    missing(herd).count()
}

/// A cost for paying with `payment` out of `herd`: using the last animal of a farm kind is very
/// expensive, dogs are expensive, and otherwise cheaper kinds are spent first (the cost of a kind
/// grows with the square of its worth, so six rabbits cost less than one sheep).
pub fn keep_set_cost(herd: &Herd, payment: &Herd) -> u64 {
    let mut cost = 0u64;
    for a in FARM_ANIMALS {
        let n = payment.get(a);
        if n > 0 && n >= herd.get(a) {
            cost += 1_000_000;
        }
    }
    cost += 10_000 * (payment.get(Animal::SmallDog) + payment.get(Animal::BigDog)) as u64;
    for (k, &n) in payment.0.iter().enumerate() {
        cost += n as u64 * (WORTH[k] as u64 * WORTH[k] as u64);
    }
    cost
}

/// The payment from `herd` worth exactly one `target` (not containing `target`) that minimises
/// `cost`, or `None` if the herd cannot pay for it.
pub fn cheapest_payment(
    herd: &Herd,
    target: Animal,
    cost: &dyn Fn(&Herd) -> u64,
) -> Option<(Herd, u64)> {
    let mut best: Option<(Herd, u64)> = None;
    for_each_payment(herd, target.worth(), Some(target), &mut |p| {
        let c = cost(p);
        if best.is_none_or(|(_, b)| c < b) {
            best = Some((*p, c));
        }
    });
    best
}

/// An offer to buy one `target` from the stock with the cheapest payment, if the stock has one
/// and the herd can pay.
pub fn buy_from_stock(
    pos: &Position,
    seat: usize,
    target: Animal,
    cost: &dyn Fn(&Herd) -> u64,
) -> Option<(Offer, u64)> {
    if pos.stock.get(target) == 0 {
        return None;
    }
    let (pay, c) = cheapest_payment(&pos.herds[seat], target, cost)?;
    Some((Offer::with_stock(pay, Herd::of(target, 1)), c))
}

/// The order a stock climber buys in: the dogs first (they keep the herd through a wolf or a
/// fox), then the farm kinds from the most valuable down. Rabbits are not in it: nothing is worth
/// less than a rabbit, so no payment buys one.
pub const DOGS_THEN_WORTHIEST: [Animal; 6] = [
    Animal::SmallDog,
    Animal::BigDog,
    Animal::Horse,
    Animal::Cow,
    Animal::Pig,
    Animal::Sheep,
];

/// An offer that buys from the stock the first kind of `order` that `seat`'s herd lacks, the
/// stock has and the herd can pay for, paying what [`keep_set_cost`] finds cheapest; `None` if
/// there is no such kind. Inlined because `greedy`, the bench's reference agent, uses it: out of
/// line it cost `greedy` 2 % more fuel than the loop written in place, inlined 0.7 %.
#[inline]
pub fn buy_first_lacking(pos: &Position, seat: usize, order: &[Animal]) -> Option<Offer> {
    let herd = pos.herds[seat];
    let cost = |p: &Herd| keep_set_cost(&herd, p);
    order
        .iter()
        .filter(|&&target| herd.get(target) == 0)
        .find_map(|&target| buy_from_stock(pos, seat, target, &cost).map(|(offer, _)| offer))
}

/// A trade with the stock after which `seat` owns the whole set, if there is one (the herd must
/// then win before rolling). Prefers the trade that keeps the most worth.
pub fn finishing_stock_trade(pos: &Position, seat: usize) -> Option<Offer> {
    let herd = pos.herds[seat];
    if herd.is_winning() || herd.worth() < 127 {
        return None;
    }
    let mut best: Option<(Offer, u64)> = None;
    for_each_stock_trade(pos, seat, &mut |t| {
        let delivered = t.get.min(&pos.stock);
        let next = herd.minus(&t.give).plus(&delivered);
        if next.is_winning() {
            let w = next.worth();
            if best.is_none_or(|(_, b)| w > b) {
                let offer = match t.partner {
                    Partner::Stock => Offer::with_stock(t.give, t.get),
                    Partner::Player(p) => Offer::with_player(p, t.give, t.get),
                };
                best = Some((offer, w));
            }
        }
    });
    best.map(|(o, _)| o)
}

/// Would the trader's herd be winning after the offered trade?
pub fn completes_set_for(pos: &Position, trader: usize, offer: &Offer) -> bool {
    after(pos, trader, offer).is_some_and(|p| p.herds[trader].is_winning())
}

/// An offer that gets at least one `target` from the stock: buying one with the cheapest
/// payment, or else selling one more valuable animal for several `target`s (the only way to get
/// rabbits back). The cost of a sale is `cost` of the animal sold. `None` if neither is possible
/// or the cost is `u64::MAX`.
pub fn acquire_from_stock(
    pos: &Position,
    seat: usize,
    target: Animal,
    cost: &dyn Fn(&Herd) -> u64,
) -> Option<(Offer, u64)> {
    // With no `target` in the stock both ways give `None`: buying needs one, selling `n` ≥ 2.
    let bought = buy_from_stock(pos, seat, target, cost).filter(|&(_, c)| c != u64::MAX);
    if bought.is_some() {
        return bought;
    }
    let herd = pos.herds[seat];
    let mut best: Option<(Offer, u64)> = None;
    for sold in farm_rules::ANIMALS {
        let (ws, wt) = (sold.worth(), target.worth());
        if herd.get(sold) == 0 || ws <= wt || ws % wt != 0 {
            continue;
        }
        let n = ws / wt;
        if pos.stock.get(target) < n {
            continue;
        }
        let give = Herd::of(sold, 1);
        let c = cost(&give);
        if c != u64::MAX && best.is_none_or(|(_, b)| c < b) {
            best = Some((Offer::with_stock(give, Herd::of(target, n)), c));
        }
    }
    best
}
