use crate::animal::{Animal, ANIMALS, KINDS, WORTH};
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
    // Kinds from the most to the least valuable, so that rabbits (worth 1) close every branch.
    let order = [
        Animal::Horse,
        Animal::Cow,
        Animal::BigDog,
        Animal::Pig,
        Animal::Sheep,
        Animal::SmallDog,
        Animal::Rabbit,
    ];
    let mut current = Herd::EMPTY;
    walk(&allowed, &order, 0, worth, &mut current, f);
}

fn walk<F: FnMut(&Herd) + ?Sized>(
    allowed: &Herd,
    order: &[Animal; KINDS],
    depth: usize,
    left: u32,
    current: &mut Herd,
    f: &mut F,
) {
    if left == 0 {
        f(current);
        return;
    }
    if depth == KINDS {
        return;
    }
    let kind = order[depth];
    let w = WORTH[kind.index()];
    let most = allowed.get(kind).min(left / w);
    for n in (0..=most).rev() {
        current.set(kind, n);
        walk(allowed, order, depth + 1, left - n * w, current, f);
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
