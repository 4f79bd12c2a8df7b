use crate::animal::{Animal, ANIMALS, KINDS};
use crate::herd::Herd;
use crate::position::Position;
use crate::trade::{Partner, Trade};

/// Calls `f` with every sub-herd of `available` worth exactly `worth` rabbits that contains no
/// animal of kind `except` (pass `None` to allow every kind). Nothing is allocated; the number of
/// results is bounded by the herd (a few thousand at most for a horse's worth).
///
/// `f` is a type parameter rather than a `&mut dyn FnMut` so that it can be inlined into the
/// walk: in a wasm agent an indirect call per payment costs time and fuel.
pub fn for_each_payment<F: FnMut(&Herd) + ?Sized>(
    available: &Herd,
    worth: u32,
    except: Option<Animal>,
    f: &mut F,
) {
    let mut allowed = *available;
    if let Some(a) = except {
        allowed.set(a, 0);
    }
    if worth == 0 {
        f(&Herd::EMPTY);
        return;
    }
    // What the kinds from each depth on are worth together: a branch whose remainder is worth
    // more than that finds no payment, and neither does any branch after it at the same depth
    // (each one leaves a larger remainder).
    let mut reach = [0u64; KINDS + 1];
    for depth in (0..KINDS).rev() {
        let kind = PAYMENT_ORDER[depth];
        reach[depth] = reach[depth + 1] + allowed.get(kind) as u64 * kind.worth() as u64;
    }
    if worth as u64 > reach[0] {
        return;
    }
    let mut current = Herd::EMPTY;
    walk(&allowed, &reach, 0, worth, &mut current, f);
}

/// Kinds from the most to the least valuable, so that rabbits (worth 1) close every branch. The
/// order in which payments are found, and so which of two equally good ones a strategy keeps.
const PAYMENT_ORDER: [Animal; KINDS] = [
    Animal::Horse,
    Animal::Cow,
    Animal::BigDog,
    Animal::Pig,
    Animal::Sheep,
    Animal::SmallDog,
    Animal::Rabbit,
];

/// Payments of `left` from the kinds at `depth` and after, in the order of [`PAYMENT_ORDER`],
/// each count from the largest down; `0 < left <= reach[depth]`.
///
/// Only branches that can end in a payment are walked: this runs for every trade a strategy
/// considers, and in a wasm agent every call and loop costs fuel.
fn walk<F: FnMut(&Herd) + ?Sized>(
    allowed: &Herd,
    reach: &[u64; KINDS + 1],
    depth: usize,
    left: u32,
    current: &mut Herd,
    f: &mut F,
) {
    let kind = PAYMENT_ORDER[depth];
    if depth == KINDS - 1 {
        // Rabbits, worth 1: exactly `left` of them, which the herd has (`left <= reach`).
        current.set(kind, left);
        f(current);
        current.set(kind, 0);
        return;
    }
    let w = kind.worth();
    let most = allowed.get(kind).min(left / w);
    for n in (0..=most).rev() {
        let rest = left - n * w;
        if rest as u64 > reach[depth + 1] {
            break;
        }
        current.set(kind, n);
        if rest == 0 {
            f(current);
        } else {
            walk(allowed, reach, depth + 1, rest, current, f);
        }
    }
    current.set(kind, 0);
}

/// Calls `f` with every legal trade with the stock that `seat` can afford in `pos`:
/// one animal bought for any payment of equal worth from the herd (including one-for-one swaps),
/// and one animal sold for two or more animals of equal worth that the stock holds.
pub fn for_each_stock_trade<F: FnMut(&Trade) + ?Sized>(pos: &Position, seat: usize, f: &mut F) {
    let herd = pos.herds[seat];
    for target in ANIMALS {
        if pos.stock.get(target) == 0 {
            continue;
        }
        let get = Herd::of(target, 1);
        for_each_payment(&herd, target.worth(), Some(target), &mut |give| {
            f(&Trade {
                partner: Partner::Stock,
                give: *give,
                get,
            })
        });
    }
    for sold in ANIMALS {
        if herd.get(sold) == 0 {
            continue;
        }
        let give = Herd::of(sold, 1);
        for_each_payment(&pos.stock, sold.worth(), Some(sold), &mut |get| {
            if get.total() >= 2 {
                f(&Trade {
                    partner: Partner::Stock,
                    give,
                    get: *get,
                })
            }
        });
    }
}
