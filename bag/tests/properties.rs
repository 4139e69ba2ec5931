//! Property tests: probabilities, enumeration, patterns, hold orders, parser robustness.

use pc_bag::{BagState, Element, Pattern, Piece, PieceSet, Ratio, Sequence, can_play, play_orders};
use proptest::prelude::*;

#[path = "../../bitboard/tests/support/edit.rs"]
mod edit;
use edit::edited;

fn any_piece() -> impl Strategy<Value = Piece> {
    (0usize..7).prop_map(|i| Piece::from_index(i).unwrap())
}

/// Every bag state is reachable: any set of pieces left (the full set normalises to fresh).
fn any_state() -> impl Strategy<Value = BagState> {
    (0u8..0x80).prop_map(|b| BagState::from_remaining(PieceSet::from_bits(b).unwrap()))
}

/// A 7-bag stream: `bags` shuffled bags, via a permutation index per bag.
fn any_stream(bags: usize) -> impl Strategy<Value = Vec<Piece>> {
    prop::collection::vec(Just(Piece::ALL.to_vec()).prop_shuffle(), bags)
        .prop_map(|bags| bags.concat())
}

fn any_element() -> impl Strategy<Value = Element> {
    (1u8..0x80).prop_flat_map(|bits| {
        let set = PieceSet::from_bits(bits).unwrap();
        (Just(set), 1..=set.len()).prop_map(|(s, k)| Element::new(s, k).unwrap())
    })
}

fn any_pattern() -> impl Strategy<Value = Pattern> {
    prop::collection::vec(any_element(), 1..8)
        .prop_filter_map("too long", |els| Pattern::new(els).ok())
}

/// Independent check that a sequence can be dealt from a state with `drawable` pieces
/// available: the first chunk uses distinct pieces of `drawable`, later chunks of 7 are
/// distinct.
fn producible(drawable: PieceSet, seq: &Sequence) -> bool {
    let pieces = seq.to_vec();
    let first = drawable.len().min(pieces.len());
    let (head, tail) = pieces.split_at(first);
    let head_ok = {
        let mut left = drawable;
        head.iter().all(|&p| left.remove(p))
    };
    head_ok
        && tail.chunks(7).all(|c| {
            let mut seen = PieceSet::EMPTY;
            c.iter().all(|&p| seen.insert(p))
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn continuation_probabilities_sum_to_one(state in any_state(), n in 0usize..=8) {
        let mut total = Ratio::ZERO;
        let mut count = 0u64;
        let mut prev: Option<Sequence> = None;
        for (seq, p) in state.continuations(n).unwrap() {
            prop_assert_eq!(seq.len(), n);
            prop_assert_eq!(p, state.probability(&seq));
            prop_assert!(producible(state.drawable(), &seq), "{} not producible", seq);
            if let Some(prev) = prev {
                prop_assert!(prev < seq, "order: {} then {}", prev, seq);
            }
            prev = Some(seq);
            total = total.checked_add(p).unwrap();
            count += 1;
        }
        prop_assert_eq!(total, Ratio::ONE);
        prop_assert_eq!(Some(count), state.continuation_count(n));
    }

    #[test]
    fn sequence_probability_is_the_product_of_draws(state in any_state(), pieces in prop::collection::vec(any_piece(), 0..=21)) {
        let seq = Sequence::from_pieces(&pieces).unwrap();
        let mut expected = Ratio::ONE;
        let mut s = state;
        for &p in &pieces {
            expected = expected * s.next_probability(p);
            match s.draw(p) {
                Ok(next) => s = next,
                Err(_) => break,
            }
        }
        prop_assert_eq!(state.probability(&seq), expected);
        prop_assert_eq!(state.checked_probability(&pieces), Some(expected));
        prop_assert_eq!(state.can_produce(&pieces), !expected.is_zero());
    }

    #[test]
    fn bag_state_from_queue_and_history_agree_with_the_stream(
        stream in any_stream(4),
        cut in 0usize..=28,
        window in 0usize..=28,
    ) {
        let history = &stream[..cut];
        let truth = BagState::from_history(history).unwrap();
        prop_assert_eq!(truth, BagState::FRESH.draw_all(history).unwrap());
        let start = cut.saturating_sub(window);
        let queue = &stream[start..cut];
        let left = (7 - cut % 7) % 7;
        match BagState::from_queue(queue, left) {
            Ok(state) => prop_assert_eq!(state, truth),
            Err(e) => {
                // Only an honest "too short" is acceptable for a real stream.
                prop_assert!(queue.len() < 7 - left, "{:?} for {:?}", e, queue);
            }
        }
    }

    #[test]
    fn pattern_display_then_parse_is_identity(p in any_pattern()) {
        let text = p.to_string();
        let back: Pattern = text.parse().unwrap();
        prop_assert_eq!(&back, &p, "{}", text);
    }

    #[test]
    fn pattern_count_equals_expansion_length(p in any_pattern()) {
        prop_assume!(p.count() <= 300_000);
        let mut n = 0u64;
        let mut prev: Option<Sequence> = None;
        for s in p.expand() {
            prop_assert!(p.contains(&s));
            if let Some(prev) = prev {
                prop_assert!(prev < s);
            }
            prev = Some(s);
            n += 1;
        }
        prop_assert_eq!(n, p.count());
    }

    #[test]
    fn truncated_pattern_is_the_dedup_of_truncations(p in any_pattern(), keep in 0usize..=21) {
        prop_assume!(p.count() <= 100_000);
        let direct: Vec<Sequence> = p.truncated(keep).expand().collect();
        let brute = pc_bag::truncate_dedup(p.expand(), keep);
        prop_assert_eq!(direct, brute);
    }

    #[test]
    fn hold_orders_of_distinct_pieces(perm in Just(Piece::ALL.to_vec()).prop_shuffle(), n in 1usize..=7) {
        let queue = &perm[..n];
        let full = play_orders(None, queue, n).unwrap();
        prop_assert_eq!(full.len(), 1 << (n - 1));
        prop_assert_eq!(play_orders(None, queue, n - 1).unwrap().len(), 1 << (n - 1));
        if n < 7 {
            // A held piece adds one more to the stream.
            let held = perm[n];
            prop_assert_eq!(play_orders(Some(held), queue, n + 1).unwrap().len(), 1 << n);
        }
        for s in &full {
            prop_assert!(can_play(None, queue, &s.to_vec()));
            prop_assert_eq!(s.multiset(), Sequence::from_pieces(queue).unwrap().multiset());
        }
    }

    #[test]
    fn can_play_agrees_with_play_orders(
        hold in prop::option::of(any_piece()),
        queue in prop::collection::vec(any_piece(), 0..8),
        order in prop::collection::vec(any_piece(), 0..8),
    ) {
        let available = queue.len() + usize::from(hold.is_some());
        prop_assume!(order.len() <= available);
        let orders = play_orders(hold, &queue, order.len()).unwrap();
        let seq = Sequence::from_pieces(&order).unwrap();
        prop_assert_eq!(can_play(hold, &queue, &order), orders.binary_search(&seq).is_ok());
        prop_assert!(orders.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");
    }

    #[test]
    fn ratio_arithmetic_is_consistent(a in 0u64..10_000, b in 1u64..10_000, c in 0u64..10_000, d in 1u64..10_000) {
        let x = Ratio::new(a, b).unwrap();
        let y = Ratio::new(c, d).unwrap();
        prop_assert_eq!((x + y) - y, x);
        prop_assert_eq!(x.cmp(&y), (a as u128 * d as u128).cmp(&(c as u128 * b as u128)));
        if !y.is_zero() {
            prop_assert_eq!((x * y) / y, x);
        }
        prop_assert!((x.to_f64() - a as f64 / b as f64).abs() < 1e-12);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// The parser never panics, and whatever it accepts prints and re-parses to itself.
    #[test]
    fn parser_never_panics_on_arbitrary_text(text in any::<String>()) {
        if let Ok(p) = text.parse::<Pattern>() {
            prop_assert_eq!(p.to_string().parse::<Pattern>().unwrap(), p);
        }
        let _ = text.parse::<pc_bag::PatternSet>();
    }

    /// Text made of the pattern alphabet reaches every parser branch.
    #[test]
    fn parser_never_panics_on_pattern_like_text(text in "[IJLOSTZijlostz*\\[\\]\\^pP!,0-9 #\\n]{0,40}") {
        match text.parse::<Pattern>() {
            Ok(p) => {
                prop_assert_eq!(p.to_string().parse::<Pattern>().unwrap(), p.clone());
                prop_assert!(p.len() <= Sequence::MAX_LEN);
            }
            Err(e) => {
                // Every message says where, except the empty pattern.
                let msg = e.to_string();
                prop_assert!(msg.starts_with("column ") || msg == "the pattern is empty", "{}", msg);
            }
        }
        let _ = text.parse::<pc_bag::PatternSet>();
    }
}

/// Valid patterns of the forms users write, to mutate.
const VALID_PATTERNS: [&str; 10] = [
    "*p7,*p4",
    "[^TI]p2",
    "I,*p4",
    "T,*p3",
    "[SZLJ]p2,*!",
    "*,*,[IOSL]!",
    "[IOSLJZT]p7,O",
    "I, [^I]p3 # a comment",
    "*p4\n[TSZ]p3,*",
    "  L , J , [ ^ O ] p 2 ",
];

/// An edit for [`edited`]: mostly characters of the pattern language (digits past 7 and
/// 0 included), now and then any character.
fn any_edit() -> impl Strategy<Value = (u8, prop::sample::Index, char)> {
    let ch = prop_oneof![
        4 => prop::sample::select("IJLOSTZ*[]^p!,0123456789 #\n".chars().collect::<Vec<_>>()),
        1 => any::<char>(),
    ];
    (0u8..3, any::<prop::sample::Index>(), ch)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    /// Valid patterns with a few characters changed parse or answer an error that says
    /// where; whatever parses prints and re-parses to itself, and its count is the number
    /// of sequences it expands to (when small enough to expand).
    #[test]
    fn mutated_patterns_never_panic(
        pattern in prop::sample::select(&VALID_PATTERNS[..]),
        edits in prop::collection::vec(any_edit(), 1..4),
    ) {
        let text = edited(pattern, &edits);
        for line in text.lines() {
            match line.parse::<Pattern>() {
                Ok(p) => {
                    prop_assert_eq!(p.to_string().parse::<Pattern>().unwrap(), p.clone());
                    if p.count() <= 5040 {
                        prop_assert_eq!(p.expand().count() as u64, p.count());
                    }
                }
                Err(e) => {
                    let msg = e.to_string();
                    prop_assert!(msg.starts_with("column ") || msg == "the pattern is empty", "{}", msg);
                }
            }
        }
        if let Ok(set) = text.parse::<pc_bag::PatternSet>() {
            prop_assert_eq!(set.to_string().parse::<pc_bag::PatternSet>().unwrap(), set);
        }
    }
}
