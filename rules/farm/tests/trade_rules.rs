//! Trades as the rules text and the project's decisions describe them: the allowed and refused
//! examples, the stock's truncation, every failure reason and which check wins when several fail.

use farm_rules::{
    check_offer, execute_trade, Animal, FailReason, Herd, Offer, Partner, Position, Trade, KINDS,
    START_STOCK,
};
use Animal::*;
use FailReason::*;

fn herd(pairs: &[(Animal, u32)]) -> Herd {
    pairs
        .iter()
        .fold(Herd::EMPTY, |h, &(a, n)| h.plus(&Herd::of(a, n)))
}

/// A 3-player standard game where seats own `herds`, taken out of the stock.
fn game(herds: &[Herd]) -> Position {
    let mut pos = Position::new(3);
    for (s, h) in herds.iter().enumerate() {
        pos.herds[s] = *h;
        pos.stock = pos.stock.minus(h);
    }
    assert_eq!(pos.totals(), START_STOCK);
    pos
}

fn raw(kind: u32, partner: i32, give: [i32; KINDS], get: [i32; KINDS]) -> Offer {
    Offer {
        kind,
        partner,
        give,
        get,
    }
}

/// Checks and, if legal, carries out the offer; a failed offer must leave the position unchanged.
fn settle(pos: &mut Position, seat: usize, offer: Offer) -> Result<Herd, FailReason> {
    let before = *pos;
    match check_offer(pos, seat, &offer) {
        Ok(Some(trade)) => Ok(execute_trade(pos, seat, &trade)),
        Ok(None) => panic!("not a pass"),
        Err(reason) => {
            assert_eq!(*pos, before, "a rejected trade changes nothing");
            Err(reason)
        }
    }
}

fn stock(give: Herd, get: Herd) -> Offer {
    Offer::with_stock(give, get)
}

#[test]
fn two_pigs_a_sheep_and_six_rabbits_for_a_cow_and_back() {
    let payment = herd(&[(Pig, 2), (Sheep, 1), (Rabbit, 6)]);
    let mut pos = game(&[payment]);
    assert_eq!(
        settle(&mut pos, 0, stock(payment, herd(&[(Cow, 1)]))),
        Ok(herd(&[(Cow, 1)]))
    );
    assert_eq!(pos.herds[0], herd(&[(Cow, 1)]));
    assert_eq!(
        settle(&mut pos, 0, stock(herd(&[(Cow, 1)]), payment)),
        Ok(payment)
    );
    assert_eq!(pos.herds[0], payment);
    assert_eq!(pos.totals(), START_STOCK);
}

#[test]
fn one_for_one_one_for_many_many_for_one() {
    let mut pos = game(&[herd(&[(Sheep, 3), (Cow, 1)])]);
    assert!(settle(
        &mut pos,
        0,
        stock(herd(&[(Sheep, 1)]), herd(&[(SmallDog, 1)]))
    )
    .is_ok());
    assert!(settle(&mut pos, 0, stock(herd(&[(Cow, 1)]), herd(&[(Pig, 3)]))).is_ok());
    assert!(settle(&mut pos, 0, stock(herd(&[(Sheep, 2)]), herd(&[(Pig, 1)]))).is_ok());
    assert_eq!(pos.herds[0], herd(&[(Pig, 4), (SmallDog, 1)]));
}

#[test]
fn many_for_many_is_refused_even_at_equal_worth() {
    let give = herd(&[(Sheep, 2), (Pig, 5)]);
    let mut pos = game(&[give]);
    assert_eq!(give.worth(), herd(&[(Cow, 2)]).worth());
    assert_eq!(
        settle(&mut pos, 0, stock(give, herd(&[(Cow, 2)]))),
        Err(ManyToMany)
    );
}

#[test]
fn the_empty_trade_is_many_to_many() {
    let mut pos = game(&[]);
    assert_eq!(
        settle(&mut pos, 0, stock(Herd::EMPTY, Herd::EMPTY)),
        Err(ManyToMany)
    );
}

#[test]
fn a_short_stock_delivers_what_it_has() {
    // The rules text: asking 4 cows of a stock with 3 delivers 3. No legal offer asks 4 cows for
    // one animal, so this is the delivery step on its own.
    let mut pos = game(&[herd(&[(Horse, 2)]), herd(&[(Cow, 9)])]);
    assert_eq!(pos.stock.get(Cow), 3);
    let trade = Trade {
        partner: Partner::Stock,
        give: herd(&[(Horse, 2)]),
        get: herd(&[(Cow, 4)]),
    };
    assert_eq!(execute_trade(&mut pos, 0, &trade), herd(&[(Cow, 3)]));
    assert_eq!(pos.herds[0], herd(&[(Cow, 3)]));
    assert_eq!(pos.totals(), START_STOCK);

    // And through the checks: a horse for 2 cows when the stock has 1.
    let mut pos = game(&[herd(&[(Horse, 1)]), herd(&[(Cow, 11)])]);
    let got = settle(&mut pos, 0, stock(herd(&[(Horse, 1)]), herd(&[(Cow, 2)])));
    assert_eq!(got, Ok(herd(&[(Cow, 1)])));
    assert_eq!(
        pos.stock,
        START_STOCK.minus(&herd(&[(Cow, 12)])),
        "stock has no cow left, and the horse back"
    );
}

#[test]
fn a_trade_with_a_player_moves_both_sides() {
    let mut pos = game(&[herd(&[(Sheep, 1)]), herd(&[(Rabbit, 6)])]);
    let offer = Offer::with_player(1, herd(&[(Sheep, 1)]), herd(&[(Rabbit, 6)]));
    let trade = check_offer(&pos, 0, &offer).unwrap().unwrap();
    assert_eq!(trade.partner, Partner::Player(1));
    assert_eq!(execute_trade(&mut pos, 0, &trade), herd(&[(Rabbit, 6)]));
    assert_eq!(pos.herds[0], herd(&[(Rabbit, 6)]));
    assert_eq!(pos.herds[1], herd(&[(Sheep, 1)]));
}

#[test]
fn a_pass_is_not_checked() {
    let pos = game(&[]);
    let offer = raw(0, 99, [-5; KINDS], [i32::MAX; KINDS]);
    assert_eq!(check_offer(&pos, 0, &offer), Ok(None));
}

// One test per reason, each the only failing check.

#[test]
fn each_reason_on_its_own() {
    let mut pos = game(&[herd(&[(Sheep, 2)]), herd(&[(Rabbit, 6)]), Herd::EMPTY]);
    let z = [0; KINDS];
    let sheep1 = [0, 1, 0, 0, 0, 0, 0];
    let rabbits6 = [6, 0, 0, 0, 0, 0, 0];
    assert_eq!(
        settle(&mut pos, 0, raw(3, -1, sheep1, rabbits6)),
        Err(WrongType)
    );
    assert_eq!(
        settle(&mut pos, 0, raw(1, -1, [0, -1, 0, 0, 0, 0, 0], z)),
        Err(InvalidAmount)
    );
    assert_eq!(
        settle(&mut pos, 0, raw(1, -1, z, [61, 0, 0, 0, 0, 0, 0])),
        Err(InvalidAmount)
    );
    assert_eq!(
        settle(
            &mut pos,
            0,
            raw(1, -1, [0, 3, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 3, 0])
        ),
        Err(NotEnoughAnimals)
    );
    assert_eq!(
        settle(&mut pos, 0, raw(2, 3, sheep1, rabbits6)),
        Err(NoSuchPlayer)
    );
    assert_eq!(
        settle(&mut pos, 0, raw(2, -1, sheep1, rabbits6)),
        Err(NoSuchPlayer)
    );
    assert_eq!(
        settle(&mut pos, 0, raw(2, 0, sheep1, rabbits6)),
        Err(SelfTrade)
    );
    assert_eq!(
        settle(&mut pos, 0, raw(2, 1, sheep1, [7, 0, 0, 0, 0, 0, 0])),
        Err(PartnerNotEnoughAnimals)
    );
    assert_eq!(
        settle(&mut pos, 0, raw(1, -1, sheep1, [5, 0, 0, 0, 0, 0, 0])),
        Err(UnequalTrade)
    );
    assert_eq!(
        settle(
            &mut pos,
            0,
            raw(1, -1, [0, 2, 0, 0, 0, 0, 0], [6, 1, 0, 0, 0, 0, 0])
        ),
        Err(ManyToMany)
    );
    pos.out |= 1 << 1;
    assert_eq!(
        settle(&mut pos, 0, raw(2, 1, sheep1, rabbits6)),
        Err(PartnerOut)
    );
    // Declined is the host's: the rules accept the trade and the partner says no.
    pos.out = 0;
    assert!(check_offer(&pos, 0, &raw(2, 1, sheep1, rabbits6))
        .unwrap()
        .is_some());
}

#[test]
fn invalid_amount_also_covers_amounts_beyond_the_game() {
    // 60 rabbits exist; asking 60 is a valid amount (and then unequal), 61 is not.
    let mut pos = game(&[]);
    assert_eq!(
        settle(&mut pos, 0, raw(1, -1, [0; KINDS], [60, 0, 0, 0, 0, 0, 0])),
        Err(UnequalTrade)
    );
    assert_eq!(
        settle(&mut pos, 0, raw(1, -1, [0; KINDS], [61, 0, 0, 0, 0, 0, 0])),
        Err(InvalidAmount)
    );
    assert_eq!(
        settle(
            &mut pos,
            0,
            raw(1, -1, [0; KINDS], [0, 0, 0, 0, 0, 0, i32::MAX])
        ),
        Err(InvalidAmount)
    );
    assert_eq!(
        settle(
            &mut pos,
            0,
            raw(1, -1, [0; KINDS], [0, 0, 0, 0, 0, 0, i32::MIN])
        ),
        Err(InvalidAmount)
    );
}

// Precedence: for each adjacent pair of checks, an offer failing both reports the earlier one.

#[test]
fn wrong_type_beats_invalid_amount() {
    let mut pos = game(&[]);
    assert_eq!(
        settle(&mut pos, 0, raw(9, -1, [-1; KINDS], [i32::MAX; KINDS])),
        Err(WrongType)
    );
}

#[test]
fn invalid_amount_beats_everything_after_it() {
    let mut pos = game(&[]);
    // Lacks the sheep, no seat 7, unequal, many-to-many: and a negative amount in `get`.
    let offer = raw(2, 7, [0, 5, 0, 0, 0, 0, 0], [0, 0, 0, -1, 2, 0, 0]);
    assert_eq!(settle(&mut pos, 0, offer), Err(InvalidAmount));
    // Self-trade, partner out, partner short: still the amount.
    pos.out = 0b10;
    assert_eq!(
        settle(&mut pos, 0, raw(2, 0, [-1, 0, 0, 0, 0, 0, 0], [0; KINDS])),
        Err(InvalidAmount)
    );
    assert_eq!(
        settle(&mut pos, 0, raw(2, 1, [0; KINDS], [0, 0, 0, 0, 0, 0, 3])),
        Err(InvalidAmount)
    );
}

#[test]
fn not_enough_animals_beats_no_such_player() {
    let mut pos = game(&[]);
    assert_eq!(
        settle(
            &mut pos,
            0,
            raw(2, 5, [0, 1, 0, 0, 0, 0, 0], [6, 0, 0, 0, 0, 0, 0])
        ),
        Err(NotEnoughAnimals)
    );
}

#[test]
fn no_such_player_beats_partner_checks_and_worth() {
    // Self-trade cannot coincide with a missing seat; the next checks that can are below it.
    let mut pos = game(&[herd(&[(Sheep, 1)])]);
    assert_eq!(
        settle(
            &mut pos,
            0,
            raw(2, 3, [0, 1, 0, 0, 0, 0, 0], [5, 0, 0, 0, 0, 0, 0])
        ),
        Err(NoSuchPlayer)
    );
    assert_eq!(
        settle(
            &mut pos,
            0,
            raw(2, -2, [0, 1, 0, 0, 0, 0, 0], [2, 2, 0, 0, 0, 0, 0])
        ),
        Err(NoSuchPlayer)
    );
}

#[test]
fn self_trade_beats_partner_out() {
    let mut pos = game(&[herd(&[(Sheep, 1)])]);
    pos.out = 0b1;
    assert_eq!(
        settle(
            &mut pos,
            0,
            raw(2, 0, [0, 1, 0, 0, 0, 0, 0], [0, 0, 5, 0, 0, 0, 0])
        ),
        Err(SelfTrade)
    );
}

#[test]
fn partner_out_beats_partner_not_enough_animals() {
    let mut pos = game(&[herd(&[(Sheep, 1)])]);
    pos.out = 0b10;
    assert_eq!(
        settle(
            &mut pos,
            0,
            raw(2, 1, [0, 1, 0, 0, 0, 0, 0], [6, 0, 0, 0, 0, 0, 0])
        ),
        Err(PartnerOut)
    );
}

#[test]
fn partner_not_enough_animals_beats_unequal_trade() {
    let mut pos = game(&[herd(&[(Sheep, 1)]), herd(&[(Rabbit, 2)])]);
    assert_eq!(
        settle(
            &mut pos,
            0,
            raw(2, 1, [0, 1, 0, 0, 0, 0, 0], [3, 0, 0, 0, 0, 0, 0])
        ),
        Err(PartnerNotEnoughAnimals)
    );
}

#[test]
fn the_stock_is_never_short_for_the_checks() {
    // The stock holds no cow, yet the check passes; delivery is truncated instead.
    let mut pos = game(&[herd(&[(Horse, 1)]), herd(&[(Cow, 12)])]);
    assert_eq!(
        settle(&mut pos, 0, stock(herd(&[(Horse, 1)]), herd(&[(Cow, 2)]))),
        Ok(Herd::EMPTY)
    );
    assert_eq!(
        pos.herds[0],
        Herd::EMPTY,
        "the horse is paid, nothing comes back"
    );
    assert_eq!(pos.totals(), START_STOCK);
}

#[test]
fn unequal_trade_beats_many_to_many() {
    let mut pos = game(&[herd(&[(Sheep, 2), (Pig, 5)])]);
    assert_eq!(
        settle(
            &mut pos,
            0,
            stock(herd(&[(Sheep, 2), (Pig, 5)]), herd(&[(Cow, 3)]))
        ),
        Err(UnequalTrade)
    );
}

#[test]
fn a_player_with_an_empty_herd_exists() {
    let mut pos = game(&[herd(&[(Sheep, 1)]), Herd::EMPTY]);
    assert_eq!(
        settle(
            &mut pos,
            0,
            raw(2, 1, [0, 1, 0, 0, 0, 0, 0], [6, 0, 0, 0, 0, 0, 0])
        ),
        Err(PartnerNotEnoughAnimals)
    );
    // And an empty-handed trader is judged like any other.
    assert_eq!(
        settle(&mut pos, 1, raw(1, -1, [0; KINDS], [0, 1, 0, 0, 0, 0, 0])),
        Err(UnequalTrade)
    );
    assert_eq!(
        settle(&mut pos, 1, raw(2, 0, [0; KINDS], [0, 1, 0, 0, 0, 0, 0])),
        Err(UnequalTrade)
    );
}

#[test]
fn reasons_have_stable_names_and_codes() {
    for (i, r) in FailReason::ALL.iter().enumerate() {
        assert_eq!(r.code() as usize, i + 1);
        assert_eq!(FailReason::from_code(r.code()), Some(*r));
        assert_eq!(FailReason::from_name(r.name()), Some(*r));
    }
    assert_eq!(FailReason::from_code(0), None);
    assert_eq!(FailReason::from_code(11), None);
}
