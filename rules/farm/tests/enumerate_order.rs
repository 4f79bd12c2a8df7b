//! `for_each_payment` prunes the branches that cannot end in a payment. Which payments it finds,
//! and in which order, is part of what strategies see (of two equally good payments a strategy
//! often keeps the first), so both are held here to the plain walk over every count of every
//! kind, result for result.

use farm_rules::{for_each_payment, Animal, Herd, ANIMALS, KINDS, WORTH};
use proptest::prelude::*;

/// The definition: every count of each kind from the largest down, the kinds from the most
/// valuable down (of equal worth, in kind order: the animal before its dog), so horses first and
/// rabbits last; no pruning.
fn reference(available: &Herd, worth: u32, except: Option<Animal>) -> Vec<Herd> {
    let mut order = ANIMALS;
    order.sort_by_key(|a| std::cmp::Reverse(WORTH[a.index()]));
    assert_eq!(
        (order[0], order[KINDS - 1]),
        (Animal::Horse, Animal::Rabbit)
    );
    fn walk(
        order: &[Animal; KINDS],
        allowed: &Herd,
        depth: usize,
        left: u32,
        current: &mut Herd,
        out: &mut Vec<Herd>,
    ) {
        if left == 0 {
            out.push(*current);
            return;
        }
        if depth == KINDS {
            return;
        }
        let kind = order[depth];
        let w = WORTH[kind.index()];
        for n in (0..=allowed.get(kind).min(left / w)).rev() {
            current.set(kind, n);
            walk(order, allowed, depth + 1, left - n * w, current, out);
        }
        current.set(kind, 0);
    }
    let mut allowed = *available;
    if let Some(a) = except {
        allowed.set(a, 0);
    }
    let mut out = Vec::new();
    let mut current = Herd::EMPTY;
    walk(&order, &allowed, 0, worth, &mut current, &mut out);
    out
}

fn payments(available: &Herd, worth: u32, except: Option<Animal>) -> Vec<Herd> {
    let mut out = Vec::new();
    for_each_payment(available, worth, except, &mut |h: &Herd| out.push(*h));
    out
}

fn count() -> impl Strategy<Value = u32> {
    prop_oneof![3 => Just(0u32), 3 => 0u32..4, 2 => 0u32..13, 1 => 0u32..80]
}

fn herd() -> impl Strategy<Value = Herd> {
    prop::collection::vec(count(), KINDS).prop_map(|c| {
        let mut h = Herd::EMPTY;
        h.0.copy_from_slice(&c);
        h
    })
}

fn except() -> impl Strategy<Value = Option<Animal>> {
    prop_oneof![1 => Just(None), 3 => prop::sample::select(ANIMALS.to_vec()).prop_map(Some)]
}

fn worth() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => prop::sample::select(WORTH.to_vec()),
        1 => 0u32..150,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn same_payments_in_the_same_order(available in herd(), worth in worth(), except in except()) {
        prop_assert_eq!(payments(&available, worth, except), reference(&available, worth, except));
    }
}

#[test]
fn a_full_herd_pays_a_horse_in_hundreds_of_ways_in_the_reference_order() {
    let full = Herd([60, 24, 20, 12, 6, 4, 2]);
    for except in [Some(Animal::Horse), None] {
        let found = payments(&full, Animal::Horse.worth(), except);
        assert!(found.len() > 200, "{} payments", found.len());
        assert_eq!(found, reference(&full, Animal::Horse.worth(), except));
        for p in &found {
            assert_eq!(p.worth(), 72);
            assert!(full.contains(p));
        }
    }
}

#[test]
fn nothing_to_pay_is_one_empty_payment_and_too_little_is_none() {
    assert_eq!(payments(&Herd::EMPTY, 0, None), vec![Herd::EMPTY]);
    assert_eq!(
        payments(&Herd([5, 0, 0, 0, 0, 0, 0]), 6, None),
        Vec::<Herd>::new()
    );
    assert_eq!(
        payments(&Herd([6, 1, 0, 0, 0, 0, 0]), 6, Some(Animal::Sheep)),
        vec![Herd([6, 0, 0, 0, 0, 0, 0])]
    );
}
