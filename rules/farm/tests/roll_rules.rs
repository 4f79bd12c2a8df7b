//! The roll as the rules text describes it: breeding examples, the fox, the wolf and the dogs.

use farm_rules::{apply_roll, Animal, FoxFace, Herd, Position, Roll, WolfFace, START_STOCK};
use Animal::*;

fn herd(pairs: &[(Animal, u32)]) -> Herd {
    pairs
        .iter()
        .fold(Herd::EMPTY, |h, &(a, n)| h.plus(&Herd::of(a, n)))
}

fn fox(a: Animal) -> FoxFace {
    FoxFace::Animal(a)
}

fn wolf(a: Animal) -> WolfFace {
    WolfFace::Animal(a)
}

/// Seat 0 owns `owned` (taken from a standard stock) and rolls `fox`/`wolf`; returns the herd after.
fn roll_with(owned: Herd, fox: FoxFace, wolf: WolfFace) -> (Herd, Position) {
    let mut pos = Position::new(2);
    pos.herds[0] = owned;
    pos.stock = START_STOCK.minus(&owned);
    let before = pos.totals();
    apply_roll(&mut pos, 0, Roll { fox, wolf });
    assert_eq!(pos.totals(), before, "a roll conserves animals");
    (pos.herds[0], pos)
}

#[test]
fn nothing_owned_and_two_rabbits_give_one_rabbit() {
    let (h, _) = roll_with(Herd::EMPTY, fox(Rabbit), wolf(Rabbit));
    assert_eq!(h, herd(&[(Rabbit, 1)]));
}

#[test]
fn three_rabbits_and_one_rabbit_shown_give_two() {
    let (h, _) = roll_with(herd(&[(Rabbit, 3)]), fox(Rabbit), wolf(Pig));
    assert_eq!(h, herd(&[(Rabbit, 5)]));
}

#[test]
fn three_rabbits_five_sheep_and_a_rabbit_and_a_sheep_shown() {
    let (h, _) = roll_with(herd(&[(Rabbit, 3), (Sheep, 5)]), fox(Rabbit), wolf(Sheep));
    assert_eq!(
        h,
        herd(&[(Rabbit, 5), (Sheep, 8)]),
        "2 rabbits and 3 sheep bred"
    );
}

#[test]
fn ten_cows_do_not_breed_on_a_rabbit_and_a_sheep() {
    let (h, _) = roll_with(herd(&[(Cow, 10)]), fox(Rabbit), wolf(Sheep));
    assert_eq!(h, herd(&[(Cow, 10)]));
}

#[test]
fn horses_breed_on_the_fox_die_and_cows_on_the_wolf_die() {
    let (h, _) = roll_with(herd(&[(Horse, 1)]), fox(Horse), wolf(Cow));
    assert_eq!(
        h,
        herd(&[(Horse, 2)]),
        "one horse shown + one owned; one cow shown alone"
    );
}

#[test]
fn dogs_never_breed() {
    let owned = herd(&[(SmallDog, 3), (BigDog, 1)]);
    let (h, _) = roll_with(owned, fox(Rabbit), wolf(Rabbit));
    assert_eq!(h, owned.plus(&herd(&[(Rabbit, 1)])));
}

#[test]
fn breeding_is_truncated_to_the_stock() {
    let mut pos = Position::new(2);
    pos.herds[0] = herd(&[(Sheep, 5)]);
    pos.stock = herd(&[(Sheep, 2)]);
    let effect = apply_roll(
        &mut pos,
        0,
        Roll {
            fox: fox(Sheep),
            wolf: wolf(Sheep),
        },
    );
    assert_eq!(effect.bred, herd(&[(Sheep, 2)]), "3 due, 2 in stock");
    assert_eq!(pos.stock, Herd::EMPTY);
}

#[test]
fn the_fox_eats_every_rabbit_without_a_small_dog() {
    let (h, pos) = roll_with(herd(&[(Rabbit, 7), (Sheep, 2)]), FoxFace::Fox, wolf(Pig));
    assert_eq!(h, herd(&[(Sheep, 2)]));
    assert_eq!(pos.stock.get(Rabbit), 60);
}

#[test]
fn a_small_dog_saves_the_rabbits_and_goes() {
    let (h, pos) = roll_with(
        herd(&[(Rabbit, 5), (SmallDog, 1)]),
        FoxFace::Fox,
        wolf(Sheep),
    );
    assert_eq!(h, herd(&[(Rabbit, 5)]));
    assert_eq!(pos.stock.get(SmallDog), 4);
}

#[test]
fn a_small_dog_is_lost_even_with_nothing_to_protect() {
    let (h, _) = roll_with(
        herd(&[(SmallDog, 2), (Horse, 1)]),
        FoxFace::Fox,
        wolf(Sheep),
    );
    assert_eq!(h, herd(&[(SmallDog, 1), (Horse, 1)]));
}

#[test]
fn the_wolf_eats_rabbits_sheep_pigs_and_cows_but_not_horses_or_dogs() {
    let owned = herd(&[
        (Rabbit, 4),
        (Sheep, 3),
        (Pig, 2),
        (Cow, 1),
        (Horse, 2),
        (SmallDog, 1),
    ]);
    let (h, _) = roll_with(owned, fox(Pig), WolfFace::Wolf);
    // Pigs were all eaten first, so the pig shown on the fox die meets none: nothing bred.
    assert_eq!(h, herd(&[(Horse, 2), (SmallDog, 1)]));
}

#[test]
fn a_big_dog_saves_the_herd_and_goes() {
    let owned = herd(&[(Rabbit, 4), (Cow, 1), (BigDog, 1)]);
    let (h, _) = roll_with(owned, fox(Sheep), WolfFace::Wolf);
    assert_eq!(h, herd(&[(Rabbit, 4), (Cow, 1)]));
}

#[test]
fn a_big_dog_is_lost_even_with_nothing_to_protect() {
    let (h, _) = roll_with(herd(&[(BigDog, 1), (Horse, 1)]), fox(Sheep), WolfFace::Wolf);
    assert_eq!(h, herd(&[(Horse, 1)]));
}

#[test]
fn fox_and_wolf_without_dogs_are_the_wolf_alone() {
    let owned = herd(&[(Rabbit, 4), (Sheep, 3), (Horse, 1)]);
    let (both, _) = roll_with(owned, FoxFace::Fox, WolfFace::Wolf);
    assert_eq!(both, herd(&[(Horse, 1)]));
    let mut pos = Position::new(2);
    pos.herds[0] = owned;
    pos.stock = START_STOCK.minus(&owned);
    let effect = apply_roll(
        &mut pos,
        0,
        Roll {
            fox: FoxFace::Fox,
            wolf: WolfFace::Wolf,
        },
    );
    assert_eq!(effect.wolf, herd(&[(Rabbit, 4), (Sheep, 3)]));
    assert_eq!(effect.fox, Herd::EMPTY, "nothing left for the fox");
}

#[test]
fn fox_and_wolf_with_both_dogs_take_both_dogs() {
    let owned = herd(&[(Rabbit, 4), (Sheep, 3), (SmallDog, 1), (BigDog, 1)]);
    let (h, _) = roll_with(owned, FoxFace::Fox, WolfFace::Wolf);
    assert_eq!(h, herd(&[(Rabbit, 4), (Sheep, 3)]));
}

#[test]
fn the_wolf_comes_before_the_fox() {
    // A small dog but no big dog: the wolf takes the rabbits, then the fox still takes the dog.
    let owned = herd(&[(Rabbit, 4), (SmallDog, 1)]);
    let (h, _) = roll_with(owned, FoxFace::Fox, WolfFace::Wolf);
    assert_eq!(h, Herd::EMPTY);
}

#[test]
fn breeding_counts_the_herd_left_after_the_predators() {
    // The fox takes 5 rabbits; the rabbit on the wolf die alone breeds nothing.
    let (h, _) = roll_with(herd(&[(Rabbit, 5)]), FoxFace::Fox, wolf(Rabbit));
    assert_eq!(h, Herd::EMPTY);
}
