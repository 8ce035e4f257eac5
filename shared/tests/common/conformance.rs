//! The one conformance check every [`Game`] implementation passes: on each position, the
//! moves it generates are the moves it accepts, none is listed twice, and a finished game
//! lists none. Shared by the tests of every game.

use games::rng::Rng;
use games::search::Game;
use std::fmt::Debug;

/// Checks one position against the trait's contract; `candidates` is every move that could
/// ever be legal in this game (all squares, and the pass where there is one).
pub fn check_position<G: Game + Debug>(game: &G, candidates: &[G::Move]) {
    let moves = game.moves();
    for (i, mv) in moves.iter().enumerate() {
        assert!(!moves[..i].contains(mv), "{mv:?} listed twice in {game:?}");
        assert!(candidates.contains(mv), "{mv:?} is not a candidate move");
    }
    for mv in candidates {
        assert_eq!(
            game.after(*mv).is_some(),
            moves.contains(mv),
            "after({mv:?}) disagrees with moves() in {game:?}"
        );
    }
    assert_eq!(
        moves.is_empty(),
        game.score().is_some(),
        "a game is over exactly when it has no move: {game:?}"
    );
}

/// Plays `games` random games from `start`, checking every position on the way; returns
/// how many positions were checked.
pub fn random_games<G: Game + Debug>(
    start: &G,
    candidates: &[G::Move],
    games: usize,
    seed: u64,
) -> usize {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut game = start.clone();
        loop {
            check_position(&game, candidates);
            checked += 1;
            let moves = game.moves();
            if moves.is_empty() {
                break;
            }
            game = game
                .after(moves[rng.below(moves.len())])
                .expect("a listed move is legal");
        }
    }
    checked
}
