//! Seed 004's network against numpy: the legacy random generator bit for bit, and the
//! network's outputs on fixture positions, computed by the seed's own code with numpy
//! (`scripts/oracles/seed004.py net`, stored in tests/data/alphago).

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

#[path = "common/conformance.rs"]
mod conformance;
#[path = "common/hexfloat.rs"]
mod hexfloat;

use games::alphago::{Network, NumpyRandom, SeedGame, CELLS, MOVE_LIMIT};
use games::search::Game;
use games::Color;
use std::path::Path;

fn data(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/alphago")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `name: hex hex ...` lines of tests/data/alphago/numpy-random.txt.
fn numpy_values(key: &str) -> Vec<f64> {
    let text = data("numpy-random.txt");
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(key))
        .unwrap();
    line.split_whitespace()
        .skip(1)
        .map(hexfloat::parse)
        .collect()
}

#[test]
fn the_generator_is_numpys_legacy_random_state() {
    let mut rng = NumpyRandom::new(42);
    let got: Vec<f64> = (0..6).map(|_| rng.randn()).collect();
    assert_eq!(got, numpy_values("randn"));
    let mut rng = NumpyRandom::new(42);
    let got: Vec<f64> = (0..4).map(|_| rng.random_sample()).collect();
    assert_eq!(got, numpy_values("random_sample"));
    let mut rng = NumpyRandom::new(7);
    let got: Vec<f64> = (0..3).map(|_| rng.randn()).collect();
    assert_eq!(got, numpy_values("randn-7"));
}

fn position(name: &str) -> SeedGame {
    let text = data(&format!("{name}.position"));
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut cells = [None; CELLS];
    for (r, row) in tokens[1..8].iter().enumerate() {
        let row = games::grid::read_row(row, Some(r), 7, &games::go::SYMBOLS).unwrap();
        cells[r * 7..r * 7 + 7].copy_from_slice(&row);
    }
    let to_move = if tokens[8] == "X" {
        Color::Black
    } else {
        Color::White
    };
    SeedGame::from_cells(cells, to_move)
}

#[test]
fn the_network_computes_what_numpy_computes() {
    let net = Network::seed();
    for name in ["empty", "white-to-move", "diagonals"] {
        let game = position(name);
        let numpy: Vec<f64> = data(&format!("{name}.numpy"))
            .split_whitespace()
            .map(hexfloat::parse)
            .collect();
        let (value, priors, logits) = (numpy[0], &numpy[1..1 + CELLS], &numpy[1 + CELLS..]);
        // The convolutions add in numpy's pairwise order: the logits are bit for bit numpy's.
        let (ours, _) = net.forward(&game.planes());
        assert_eq!(&ours[..], logits, "{name}: logits");
        let (policy, v) = net.policy_value(&game.planes(), &game.empty_mask());
        // The value goes through numpy's OpenBLAS dot product, which adds in its own order.
        assert!((v - value).abs() < 1e-15, "{name}: value {v} vs {value}");
        // numpy's own vectorised exp (on CPUs with AVX-512) may differ from the C library's
        // in the last place, and then so does the softmax's sum: a few ulps at most.
        for (k, (&ours, &theirs)) in policy.iter().zip(priors).enumerate() {
            assert!(
                (ours - theirs).abs() <= 4.0 * f64::EPSILON * theirs.abs(),
                "{name}: prior {k}: {ours:e} vs {theirs:e}"
            );
        }
    }
}

#[test]
fn the_seed_game_follows_the_seeds_rules() {
    let points: Vec<usize> = (0..60).collect();
    let checked = conformance::random_games(&SeedGame::new(), &points, 50, 4);
    assert_eq!(
        checked,
        50 * (usize::from(MOVE_LIMIT) + 1),
        "every game lasts 44 moves"
    );
    // After 44 moves each side has 22 stones: the seed's game always ends in a draw.
    let mut game = SeedGame::new();
    for k in 0..44 {
        game = game.after(k).unwrap();
    }
    assert_eq!(game.score(), Some(0));
    assert!(game.moves().is_empty());
}
