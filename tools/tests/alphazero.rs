//! Mini AlphaZero: tic-tac-toe learnt by self-play until its raw policy plays perfectly,
//! determinism, checkpoints that resume exactly, and `az_train`'s bad input.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use games::tictactoe::Board;
use std::path::Path;
use tools::alphazero::exact::{against_random_and_perfect, every_position, policy_mistakes};
use tools::alphazero::{
    checkpoint_path, play, Config, ExactTargets, Komi, Played, Sample, Trainer,
};

/// `az_train --game tictactoe`'s settings: small enough for the test command (about 15 s
/// on two cores).
fn config() -> Config {
    Config::preset("tictactoe").unwrap()
}

fn start() -> Board {
    Board::new(3).unwrap()
}

#[test]
fn tictactoe_self_play_learns_a_policy_that_never_loses() {
    let mut trainer = Trainer::new(start(), config()).unwrap();
    let judged = every_position(&start());
    assert_eq!(judged.len(), 4520, "the non-final positions of tic-tac-toe");
    let before = policy_mistakes(&trainer.net, &judged);
    for _ in 0..40 {
        trainer.generation();
    }
    let after = policy_mistakes(&trainer.net, &judged);
    let (random, perfect) = against_random_and_perfect(&trainer.net, &start(), 200, 7);
    assert_eq!(
        random[2], 0,
        "the raw policy lost to a random player: {random:?}"
    );
    assert_eq!(
        perfect,
        [0, 0],
        "the raw policy against perfect play, as X and as O"
    );
    assert!(
        after * 4 < before,
        "mistakes over every position: {before} untrained, {after} trained"
    );
}

/// A few small generations' settings, for the tests of the training loop itself.
fn small() -> Config {
    Config {
        games: 6,
        steps: 8,
        simulations: 16,
        ..config()
    }
}

fn run(generations: u32, config: &Config, from: Option<&Trainer<Board>>) -> Trainer<Board> {
    let mut trainer = match from {
        Some(t) => Trainer::from_bytes(&t.to_bytes(), start(), config.clone()).unwrap(),
        None => Trainer::new(start(), config.clone()).unwrap(),
    };
    while trainer.generation < generations {
        trainer.generation();
    }
    trainer
}

#[test]
fn a_run_resumed_from_its_checkpoint_equals_the_run_straight_through() {
    let small = small();
    let straight = run(3, &small, None);
    let first = run(2, &small, None);
    let resumed = run(3, &small, Some(&first));
    assert_eq!(straight.net, resumed.net);
    assert_eq!(straight.positions, resumed.positions);
    assert_eq!(straight.window_len(), resumed.window_len());
    // And the run is the same again: nothing depends on thread scheduling.
    assert_eq!(run(3, &small, None).net, straight.net);
    // A different seed is a different run.
    let other = run(
        3,
        &Config {
            seed: 2,
            ..small.clone()
        },
        None,
    );
    assert_ne!(other.net, straight.net);

    // Settings are checked on resume, and a corrupt checkpoint is refused.
    let bytes = straight.to_bytes();
    let err = Trainer::from_bytes(
        &bytes,
        start(),
        Config {
            lr: 0.5,
            ..small.clone()
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
    for cut in [0, 10, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            Trainer::from_bytes(&bytes[..cut], start(), small.clone()).is_err(),
            "cut at {cut}"
        );
    }
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x40;
    let err = Trainer::from_bytes(&flipped, start(), small.clone()).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
}

#[test]
fn a_value_head_of_several_channels_trains_resumes_and_is_checked_on_resume() {
    let wide = Config {
        value_channels: 3,
        ..small()
    };
    let straight = run(2, &wide, None);
    assert_eq!(straight.net.shape().value_channels, 3);
    let resumed = run(2, &wide, Some(&run(1, &wide, None)));
    assert_eq!(straight.net, resumed.net);
    // Its weights are a version-2 file that reads back as the same network.
    let bytes = straight.net.to_bytes("tictactoe");
    assert_eq!(bytes[8..12], 2u32.to_le_bytes());
    let (again, _) = games::nn::Net::from_bytes(&bytes).unwrap();
    assert_eq!(again, straight.net);
    // Different from the run with one channel, and resuming with another count is refused.
    assert_ne!(
        run(2, &small(), None).net.params.len(),
        straight.net.params.len()
    );
    let err = Trainer::from_bytes(&straight.to_bytes(), start(), small()).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
}

#[test]
fn playout_cap_randomisation_keeps_only_the_full_searches() {
    let net = Trainer::new(start(), config()).unwrap().net;
    let full_only = Config {
        simulations: 16,
        ..config()
    };
    let capped = Config {
        fast_simulations: 4,
        full_share: 0.25,
        ..full_only.clone()
    };
    let (mut kept, mut fast) = (0, 0);
    for seed in 0..40 {
        let all = play(&start(), &net, &full_only, seed);
        // Without the cap every searched move is a sample of 16 simulations.
        assert_eq!(all.evaluations, 16 * all.samples.len() as u64);
        let game = play(&start(), &net, &capped, seed);
        assert_eq!(game, play(&start(), &net, &capped, seed), "seed {seed}");
        // The rest of the simulations are fast searches of 4 each.
        let rest = game.evaluations - 16 * game.samples.len() as u64;
        assert_eq!(rest % 4, 0, "seed {seed}: {game:?}");
        kept += game.samples.len();
        fast += rest as usize / 4;
        for sample in &game.samples {
            let sum: f32 = sample.pi.iter().sum();
            assert!(
                (sum - 1.0).abs() < 1e-5,
                "a kept sample's policy sums to {sum}"
            );
        }
    }
    // About a quarter of the searched moves are full (Binomial(n, 1/4): within 0.1 of it).
    let share = kept as f64 / (kept + fast) as f64;
    assert!((0.15..0.35).contains(&share), "{kept} full, {fast} fast");
    // With every search full the cap changes nothing but the draws: as many samples as
    // searched moves.
    let always = Config {
        full_share: 1.0,
        ..capped.clone()
    };
    let game = play(&start(), &net, &always, 5);
    assert_eq!(game.evaluations, 16 * game.samples.len() as u64);
    // The cap is a setting the checkpoint records: resuming without it is refused.
    let small = Config {
        games: 4,
        steps: 4,
        ..capped
    };
    let t = run(1, &small, None);
    let err = Trainer::from_bytes(&t.to_bytes(), start(), full_only).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
    assert_eq!(run(2, &small, Some(&t)).net, run(2, &small, None).net);
}

#[test]
fn learning_rate_drops_apply_from_their_generation_and_drops_to_come_may_change_on_resume() {
    let small = small();
    let dropped = Config {
        lr_drops: vec![(3, 0.005), (5, 0.001)],
        ..small.clone()
    };
    assert_eq!(
        (1..=6).map(|g| dropped.lr_at(g)).collect::<Vec<_>>(),
        [0.05, 0.05, 0.005, 0.005, 0.001, 0.001]
    );
    let straight = run(4, &dropped, None);
    // The first two generations did not see the drops: a run made without them, resumed
    // with them added, is the same run.
    let first = run(2, &small, None);
    let resumed = run(4, &dropped, Some(&first));
    assert_eq!(straight.net, resumed.net);
    // The drop changes what is learnt.
    assert_ne!(run(4, &small, None).net, straight.net);
    // A drop in the checkpoint's past would rewrite it: refused.
    let late = Config {
        lr_drops: vec![(2, 0.005)],
        ..small.clone()
    };
    let err = Trainer::from_bytes(&first.to_bytes(), start(), late).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
    // A checkpoint records the drops begun by then: resuming without them is refused.
    let err = Trainer::from_bytes(&straight.to_bytes(), start(), small.clone()).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
    // Drops still to come are a plan: a run resumed with them moved, or left out, is the
    // run made straight through with the new plan.
    let planned = run(2, &dropped, None);
    let moved = Config {
        lr_drops: vec![(4, 0.002)],
        ..small.clone()
    };
    assert_eq!(run(4, &moved, Some(&planned)).net, run(4, &moved, None).net);
    assert_eq!(run(4, &small, Some(&planned)).net, run(4, &small, None).net);
    assert_ne!(run(4, &moved, None).net, run(4, &small, None).net);
}

#[test]
fn the_search_value_mixed_into_the_value_target_changes_what_is_learnt() {
    let small = small();
    let mixed = Config {
        q_share: 0.5,
        ..small.clone()
    };
    // The game and the policy targets do not change; the value target does.
    let game = play(
        &start(),
        &Trainer::new(start(), small.clone()).unwrap().net,
        &small,
        3,
    );
    for s in &game.samples {
        assert!((-1.0..=1.0).contains(&s.q), "{}", s.q);
        assert_eq!(s.value_target(0.0, 0.0, 9), f32::from(s.z));
        assert_eq!(s.value_target(1.0, 0.0, 9), s.q);
        assert_eq!(s.value_target(0.5, 0.0, 9), (f32::from(s.z) + s.q) / 2.0);
    }
    let straight = run(3, &mixed, None);
    assert_ne!(straight.net, run(3, &small, None).net);
    // It is a setting the checkpoint records: resumed with it, the same run; without it,
    // refused.
    assert_eq!(
        run(3, &mixed, Some(&run(2, &mixed, None))).net,
        straight.net
    );
    let err = Trainer::from_bytes(&straight.to_bytes(), start(), small).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
}

#[test]
fn othello_self_play_keeps_each_games_margin_and_the_margin_share_moves_the_value_target() {
    let (config, start, trainer) = small_othello();
    let mut margins = Vec::new();
    for seed in 0..8 {
        let game = play(&start, &trainer.net, &config, seed);
        let Some(first) = game.samples.first() else {
            continue;
        };
        // Black moves first: the first sample is Black's, and its margin is the game's
        // result for Black in discs, of the result's sign.
        assert_eq!(first.margin.signum(), i16::from(game.black), "seed {seed}");
        for s in &game.samples {
            assert_eq!(s.margin.signum(), i16::from(s.z));
            assert!(s.margin.abs() <= 16, "{}", s.margin);
            // The side to move's margin is Black's or its negation, as z is.
            assert_eq!(
                i32::from(s.margin) * i32::from(first.z),
                i32::from(first.margin) * i32::from(s.z)
            );
            let target = s.value_target(0.0, 0.5, 16);
            assert_eq!(
                target,
                0.5 * f32::from(s.z) + 0.5 * f32::from(s.margin) / 16.0
            );
            // Every win above every draw above every loss.
            assert_eq!(target.partial_cmp(&0.0), f32::from(s.z).partial_cmp(&0.0));
            let mixed = s.value_target(0.5, 0.5, 16);
            assert_eq!(mixed, 0.5 * target + 0.5 * s.q);
        }
        margins.push(first.margin);
    }
    // Margins, not just signs: some game is won or lost by more than 2 discs.
    assert!(margins.iter().any(|m| m.abs() > 2), "{margins:?}");
    // The margin share changes what is learnt from the same games, and resumes.
    let with_margins = Config {
        margin_share: 0.5,
        ..config.clone()
    };
    let learnt = changes_learning_and_resumes(start, &config, &with_margins);
    // The setting is recorded.
    let err = Trainer::from_bytes(&learnt.to_bytes(), start, config).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
}

#[test]
fn othello_self_play_keeps_the_final_owners_and_an_ownership_head_trains_and_resumes() {
    let (config, start, trainer) = small_othello();
    for seed in 0..8 {
        let game = play(&start, &trainer.net, &config, seed);
        for s in &game.samples {
            assert_eq!(s.owner.len(), 16);
            // The final position's discs, from the side to move: they add up to its
            // margin (the empty squares going to the winner), which the other side sees
            // negated, so a wrong point of view fails here.
            let count = |code: u8| s.owner.iter().filter(|&&o| o == code).count() as i16;
            let (discs, empty) = (count(0) - count(1), count(2));
            assert_eq!(s.margin, discs + discs.signum() * empty, "{s:?}");
            // A disc on the board stays on it: every point taken now is owned at the end.
            for (cell, owner) in s.cells.iter().zip(&s.owner) {
                assert!(*cell == 2 || *owner != 2, "{s:?}");
            }
            // Seen through a symmetry, the target moves with the board.
            let mut target = vec![9.0; 16];
            assert!(s.ownership(4, 5, &mut target));
            for (p, &o) in s.owner.iter().enumerate() {
                let want = [1.0, -1.0, 0.0][usize::from(o)];
                assert_eq!(target[games::nn::symmetry(4, 5, p)], want);
            }
        }
    }
    // The head changes what the network learns from the same games, and a run resumed from
    // its checkpoint is the run straight through.
    let with_head = Config {
        ownership: 1.0,
        ..config.clone()
    };
    let learnt = changes_learning_and_resumes(start, &config, &with_head);
    let g = Trainer::new(start, with_head).unwrap().generation();
    assert!(g.loss.ownership > 0.0 && g.loss.ownership < 4.0, "{g:?}");
    assert_eq!(
        learnt.ownership.len(),
        tools::alphazero::ownership_params(config.width)
    );
}

#[test]
fn a_score_head_trains_resumes_and_a_run_may_start_from_a_trained_network() {
    let (config, start, _) = small_othello();
    let scored = Config {
        score: 1.0,
        ..config.clone()
    };
    // It changes what the trunk learns from the same games, and resumes exactly.
    let learnt = changes_learning_and_resumes(start, &config, &scored);
    assert!(learnt.net.shape().score);
    let g = Trainer::new(start, scored.clone()).unwrap().generation();
    // (tanh output − margin / 16)², both within −1..1.
    assert!(g.loss.score > 0.0 && g.loss.score <= 4.0, "{g:?}");
    let err = Trainer::from_bytes(&learnt.to_bytes(), start, config.clone()).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");

    // A run with a score head started from a trained network without one: the same
    // policy and value at every position of a game, and a score of its own.
    let mut plain = Trainer::new(start, config.clone()).unwrap();
    plain.generation();
    let mut fresh = Trainer::new(start, scored.clone()).unwrap();
    fresh.start_from(&plain.net).unwrap();
    assert_ne!(fresh.net.params.len(), plain.net.params.len());
    let (mut a, mut b) = (
        games::nn::Inference::new(&plain.net),
        games::nn::Inference::new(&fresh.net),
    );
    let mut board = start;
    let mut scores = Vec::new();
    while !board.is_game_over() {
        let moves = board.legal_moves();
        let (pa, va) = a.policy_value(&board, &moves);
        let (pa, va) = (pa.to_vec(), va);
        let (pb, vb) = b.policy_value(&board, &moves);
        assert_eq!((pa.as_slice(), va), (pb, vb));
        scores.push(b.score());
        board = games::search::Game::after(&board, moves[moves.len() / 2]).unwrap();
    }
    assert!(scores.iter().any(|&s| s != 0.0), "{scores:?}");
    // From a network with the head, the head is kept too.
    let mut again = Trainer::new(start, scored.clone()).unwrap();
    again.start_from(&fresh.net).unwrap();
    assert_eq!(again.net, fresh.net);
    // Another shape, or dropping the head, is refused.
    let wider = Config {
        width: config.width + 1,
        ..scored
    };
    let err = Trainer::new(start, wider)
        .unwrap()
        .start_from(&plain.net)
        .unwrap_err();
    assert!(err.contains("only a score head may be added"), "{err}");
    assert!(Trainer::new(start, config)
        .unwrap()
        .start_from(&fresh.net)
        .is_err());
}

#[test]
fn self_play_with_the_score_utility_plays_for_discs_on_both_sides() {
    use games::search::{alpha_beta, Game, FULL_WINDOW};
    // Endgames of random 6×6 games, 4 empties from the end, whose first move decides
    // between margins of different sizes. Self-play without noise or temperature, searched
    // long enough to see every end: with the utility, both sides play for discs, so the
    // game ends at the exact (minimax) margin; without it, any win (or any loss) is as
    // good as another, and the margin is the exact one only by chance. The score head is
    // zeroed (it expects 0 everywhere), so the finished games' real margins decide.
    let base = Config {
        score: 1.0,
        ..quiet_othello(20_000)
    };
    let scored = Config {
        score_utility: Some((0.5, 8.0)),
        ..base.clone()
    };
    let start = games::othello::Board::new(6).unwrap();
    let mut net = Trainer::new(start, base.clone()).unwrap().net;
    let out = net.layout().value_out;
    for i in 0..out.inputs {
        net.params[out.w + 2 * i + 1] = 0.0;
    }
    net.params[out.b + 1] = 0.0;
    let mut rng = games::rng::Rng::new(5);
    let (mut found, mut with, mut without) = (0, 0, 0);
    while found < 40 {
        let board = random_endgame(&mut rng, 4);
        let moves = board.legal_moves();
        let margins: Vec<i32> = moves
            .iter()
            .map(|&m| -alpha_beta(&board.after(m).unwrap(), FULL_WINDOW).value)
            .collect();
        if margins.iter().all(|&m| m == margins[0]) {
            continue;
        }
        found += 1;
        let exact = alpha_beta(&board, FULL_WINDOW).value;
        // The first sample is the start's side to move, its margin that side's.
        let margin = |config: &Config| {
            let played = play(&board, &net, config, 1);
            i32::from(played.samples.first().unwrap().margin)
        };
        with += usize::from(margin(&scored) == exact);
        without += usize::from(margin(&base) == exact);
    }
    assert!(
        with * 10 >= found * 9 && without * 10 <= found * 8,
        "the exact margin in {with} of {found} games with the utility, {without} without"
    );
    // The setting is recorded: a checkpoint of the run does not resume without it.
    assert_recorded(start, &scored, base, "score_utility: (0.5, 8.0)");
}

/// A 6×6 sample's position with its side to move as Black: the exact score is the same
/// for either colour.
fn sample_position(sample: &Sample) -> games::othello::Board {
    let bits = |code: u8| {
        let square = |i: usize| games::othello::Square::new(i / 6, i % 6).bitboard().0;
        let cells = sample.cells.iter().enumerate();
        games::othello::Bitboard(
            cells
                .filter(|&(_, &c)| c == code)
                .map(|(i, _)| square(i))
                .sum(),
        )
    };
    games::othello::Board::from_discs(6, bits(0), bits(1), games::Color::Black).unwrap()
}

#[test]
fn exact_endgame_targets_are_perfect_play_from_the_first_solved_position() {
    use games::search::{alpha_beta, FULL_WINDOW};
    // Self-play from random 6×6 positions at 12 empties, weak (16 simulations, no noise),
    // with and without rescoring from 8 empties. Rescoring changes the targets, never the
    // game. Every sample at 8 empties or fewer then has its own exact score, by plain
    // alpha-beta over the `Game` trait (the rescoring uses the endgame solver); every
    // earlier one has the result of perfect play from the first position at 8 empties.
    let base = quiet_othello(16);
    let rescored = Config {
        exact_endgame: 8,
        ..base.clone()
    };
    let start = games::othello::Board::new(6).unwrap();
    let net = Trainer::new(start, base.clone()).unwrap().net;
    let mut rng = games::rng::Rng::new(11);
    let (mut games_seen, mut cut_seen, mut changed) = (0, 0, 0);
    while games_seen < 30 {
        let board = random_endgame(&mut rng, 12);
        if board.is_game_over() {
            continue;
        }
        games_seen += 1;
        let played = play(&board, &net, &base, 3);
        let exact = play(&board, &net, &rescored, 3);
        assert_eq!(played.samples.len(), exact.samples.len());
        let empties = |s: &Sample| s.cells.iter().filter(|&&c| c == 2).count() as u32;
        let mut cut = None;
        for (plain, sample) in played.samples.iter().zip(&exact.samples) {
            assert_eq!((&plain.cells, &plain.pi), (&sample.cells, &sample.pi));
            assert_eq!(sample.z, sample.margin.signum() as i8);
            changed += usize::from(plain.margin != sample.margin);
            if empties(sample) > 8 {
                continue;
            }
            let position = sample_position(sample);
            let value = alpha_beta(&position, FULL_WINDOW).value;
            assert_eq!(i32::from(sample.margin), value, "{position}");
            if empties(sample) == 8 && cut.is_none() {
                cut = Some(value.abs());
            }
        }
        let before: Vec<i16> = exact
            .samples
            .iter()
            .filter(|s| empties(s) > 8)
            .map(|s| s.margin.abs())
            .collect();
        if let Some(cut) = cut {
            cut_seen += 1;
            assert!(
                before.iter().all(|&m| i32::from(m) == cut),
                "{before:?} {cut}"
            );
        }
        assert!(before.windows(2).all(|w| w[0] == w[1]), "{before:?}");
    }
    assert!(
        cut_seen >= 10 && changed >= 10,
        "{cut_seen} cuts seen, {changed} targets changed"
    );
    // The setting is recorded: a checkpoint of the run does not resume without it.
    assert_recorded(start, &rescored, base, "exact_endgame: 8");
}

#[test]
fn a_share_of_exact_endgame_rescores_some_games_and_plays_every_game_the_same() {
    // With a share of 0.5, each game is played as without rescoring, and its targets are
    // either all the played ones or all the rescored ones: which, drawn apart from the
    // moves, differs between games.
    let base = quiet_othello(16);
    let rescored = Config {
        exact_endgame: 8,
        ..base.clone()
    };
    let half = Config {
        exact_share: 0.5,
        ..rescored.clone()
    };
    let start = games::othello::Board::new(6).unwrap();
    let net = Trainer::new(start, base.clone()).unwrap().net;
    let mut rng = games::rng::Rng::new(13);
    let (mut kept, mut exact) = (0, 0);
    for seed in 0..40 {
        let board = random_endgame(&mut rng, 12);
        let played = play(&board, &net, &base, seed);
        let scored = play(&board, &net, &rescored, seed);
        if played == scored {
            continue; // rescoring changes nothing here: no evidence either way
        }
        let shared = play(&board, &net, &half, seed);
        if shared == played {
            kept += 1;
        } else {
            assert_eq!(shared, scored, "game {seed}: neither played nor rescored");
            exact += 1;
        }
    }
    assert!(kept >= 3 && exact >= 3, "{kept} kept, {exact} rescored");
    assert_recorded(start, &half, rescored, "exact_share: 0.5");
}

#[test]
fn exact_targets_take_the_margins_or_the_losing_sides_targets_from_perfect_play() {
    // The same games played, fully rescored, and rescored with `ExactTargets::Margins`
    // and `ExactTargets::Losing`. Margins takes every margin from the rescored game and
    // every outcome from the played one; Losing takes both from the rescored game where
    // that says the side to move does not win, both from the played one where it wins.
    // The game's result stays the played one in both.
    let base = Config {
        score: 1.0,
        ..quiet_othello(16)
    };
    let rescored = Config {
        exact_endgame: 8,
        ..base.clone()
    };
    let with = |exact_targets| Config {
        exact_targets,
        ..rescored.clone()
    };
    let (margins, losing) = (with(ExactTargets::Margins), with(ExactTargets::Losing));
    let start = games::othello::Board::new(6).unwrap();
    let net = Trainer::new(start, base.clone()).unwrap().net;
    let mut rng = games::rng::Rng::new(17);
    let (mut outcome_differs, mut margin_differs) = (0, 0);
    let (mut losing_exact, mut winning_played) = (0, 0);
    for seed in 0..30 {
        let board = random_endgame(&mut rng, 12);
        let played = play(&board, &net, &base, seed);
        let scored = play(&board, &net, &rescored, seed);
        let by_head = play(&board, &net, &margins, seed);
        let by_side = play(&board, &net, &losing, seed);
        assert_eq!((by_head.black, by_side.black), (played.black, played.black));
        assert_eq!(by_head.samples.len(), played.samples.len());
        assert_eq!(by_side.samples.len(), played.samples.len());
        let all = played.samples.iter().zip(&scored.samples);
        for ((p, r), (m, l)) in all.zip(by_head.samples.iter().zip(&by_side.samples)) {
            assert_eq!((&m.cells, &m.pi, m.q), (&p.cells, &p.pi, p.q));
            assert_eq!((&l.cells, &l.pi, l.q), (&p.cells, &p.pi, p.q));
            assert_eq!((m.z, m.margin), (p.z, r.margin), "game {seed}: margins");
            if r.margin <= 0 {
                assert_eq!((l.z, l.margin), (r.z, r.margin), "game {seed}: losing side");
                losing_exact += usize::from(r.margin != p.margin);
            } else {
                assert_eq!(
                    (l.z, l.margin),
                    (p.z, p.margin),
                    "game {seed}: winning side"
                );
                winning_played += usize::from(r.margin != p.margin);
            }
            outcome_differs += usize::from(r.z != p.z);
            margin_differs += usize::from(r.margin != p.margin);
        }
    }
    // Evidence every way: rescoring changed some outcomes (which Margins kept) and some
    // margins (which it took), on both sides of Losing's line.
    assert!(
        outcome_differs >= 5 && margin_differs >= 10 && losing_exact >= 5 && winning_played >= 5,
        "rescoring changed {outcome_differs} outcomes and {margin_differs} margins: \
         {losing_exact} taken on the losing side, {winning_played} left on the winning side"
    );
    assert_recorded(start, &margins, rescored.clone(), "exact_targets: Margins");
    assert_recorded(start, &losing, rescored, "exact_targets: Losing");
}

#[test]
fn self_play_searches_the_side_behind_harder_when_asked() {
    use games::search::{alpha_beta, FULL_WINDOW};
    // Endgames of random 6×6 games, 6 empties from the end, that the side to move draws or
    // wins with exact play. Self-play without noise or temperature on a weak search: that
    // side slips (ends with a worse result: a loss where it could draw, a draw or a loss
    // where it could win) in many of them. Given 2,000 simulations more whenever its search
    // finds it behind, it sees every end from there and slips about half as often (37 and
    // 18 of 100 when this was written).
    let base = quiet_othello(16);
    let harder = Config {
        loser_search: Some((2_000, 0.0)),
        ..base.clone()
    };
    let start = games::othello::Board::new(6).unwrap();
    let net = Trainer::new(start, base.clone()).unwrap().net;
    let mut rng = games::rng::Rng::new(7);
    let (mut found, mut slips, mut slips_harder) = (0, 0, 0);
    let mut extra = 0;
    while found < 100 {
        let board = random_endgame(&mut rng, 6);
        let exact = alpha_beta(&board, FULL_WINDOW).value;
        if board.is_game_over() || board.legal_moves().len() < 2 || exact < 0 {
            continue;
        }
        found += 1;
        // The first sample is the start's side to move, its margin that side's.
        let result = |config: &Config| {
            let played = play(&board, &net, config, 1);
            let searched = played.samples.len() as u64 * u64::from(config.simulations);
            (
                played.samples[0].margin.signum(),
                played.evaluations - searched,
            )
        };
        let (plain, none) = result(&base);
        let (behind, more) = result(&harder);
        assert_eq!(none, 0);
        assert_eq!(more % 2_000, 0, "whole extra searches only");
        extra += more;
        let exact = exact.signum() as i16;
        slips += usize::from(plain < exact);
        slips_harder += usize::from(behind < exact);
    }
    assert!(
        extra > 0 && slips >= 20 && slips_harder * 3 <= slips * 2,
        "the side to move slipped in {slips} of {found} games, {slips_harder} when searched harder"
    );
    // The setting is recorded: a checkpoint of the run does not resume without it.
    assert_recorded(start, &harder, base, "loser_search: (2000, 0.0)");
}

#[test]
fn self_play_searches_late_positions_harder_when_asked() {
    // A 6×6 game on an untrained network, 8 simulations a move, and 5 more from ply `from`
    // on: every searched move is a sample (no playout cap), so the extra evaluations are 5
    // for each sample that late, and none before.
    let base = quiet_othello(8);
    let start = games::othello::Board::new(6).unwrap();
    let net = Trainer::new(start, base.clone()).unwrap().net;
    let extra_with = |from: u32| {
        let config = Config {
            late_search: Some((5, from)),
            ..base.clone()
        };
        let played = play(&start, &net, &config, 3);
        let samples = played.samples.len() as u64;
        assert!(played.evaluations >= samples * 8);
        let extra = played.evaluations - samples * 8;
        assert_eq!(extra % 5, 0, "whole extra searches only");
        // Stones on the board: 4 at the start, one more for every ply but a pass.
        let stones = |s: &Sample| s.cells.iter().filter(|&&c| c < 2).count() as u32;
        let surely_late = played.samples.iter().filter(|s| stones(s) >= 4 + from);
        (samples, extra / 5, surely_late.count() as u64)
    };
    let (samples, all, _) = extra_with(0);
    assert!(samples > 10);
    assert_eq!(
        all, samples,
        "from ply 0 every search gets the extra simulations"
    );
    let (_, none, _) = extra_with(1000);
    assert_eq!(none, 0, "a game of 6×6 Othello never reaches ply 1000");
    let (_, some, late) = extra_with(20);
    assert!(
        late > 0 && late <= some && some < samples,
        "{some} of {samples} searches got more, {late} with 24 stones or more"
    );
    // The setting is recorded: a checkpoint of the run does not resume without it.
    let later = Config {
        late_search: Some((5, 20)),
        ..base.clone()
    };
    assert_recorded(start, &later, base, "late_search: (5, 20)");
}

#[test]
fn forced_playouts_change_the_policy_targets_not_the_search_budget() {
    // KataGo's forced playouts in full searches (the rule itself and the pruning of the
    // target are tested with the tree, in the games crate): wired into self-play, they
    // change what the searches teach without running a simulation more.
    let base = Config {
        simulations: 64,
        ..Config::preset("othello").unwrap()
    };
    let forced = Config {
        forced_playouts: 2.0,
        ..base.clone()
    };
    let start = games::othello::Board::new(6).unwrap();
    let net = Trainer::new(start, base.clone()).unwrap().net;
    let (plain, with) = (play(&start, &net, &base, 5), play(&start, &net, &forced, 5));
    assert_eq!(
        with,
        play(&start, &net, &forced, 5),
        "deterministic for a seed"
    );
    let targets = |p: &Played| p.samples.iter().map(|s| s.pi.clone()).collect::<Vec<_>>();
    assert_ne!(targets(&plain), targets(&with));
    for played in [&plain, &with] {
        let searched = played.samples.len() as u64 * 64;
        assert_eq!(played.evaluations, searched);
        for s in &played.samples {
            assert!((s.pi.iter().sum::<f32>() - 1.0).abs() < 1e-4, "{:?}", s.pi);
        }
    }
    // The setting is recorded: a checkpoint of the run does not resume without it.
    assert!(!format!("{base:?}").contains("forced_playouts"));
    assert_recorded(start, &forced, base, "forced_playouts: 2.0");
}

/// A setting that checkpoints record: `with` shows it among its settings as `shown`, and
/// a checkpoint of a run made with it does not resume under `without`.
fn assert_recorded(start: games::othello::Board, with: &Config, without: Config, shown: &str) {
    let checkpoint = Trainer::new(start, with.clone()).unwrap().to_bytes();
    assert!(format!("{with:?}").contains(shown), "{with:?}");
    let err = Trainer::from_bytes(&checkpoint, start, without).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
}

/// 6×6 Othello self-play settings without root noise or temperature: each move the most
/// visited of `simulations`.
fn quiet_othello(simulations: u32) -> Config {
    Config {
        simulations,
        epsilon: 0.0,
        temperature_plies: 0,
        ..Config::preset("othello").unwrap()
    }
}

/// A 6×6 Othello position reached by random moves, stopped at `empties` empty squares (or
/// at the game's end, if that comes first).
fn random_endgame(rng: &mut games::rng::Rng, empties: u32) -> games::othello::Board {
    let mut board = games::othello::Board::new(6).unwrap();
    while !board.is_game_over() && board.empties().count() > empties {
        let moves = board.legal_moves();
        board = games::search::Game::after(&board, moves[rng.below(moves.len())]).unwrap();
    }
    board
}

/// Small 4×4 Othello settings, the start and a trainer of them.
fn small_othello() -> (
    Config,
    games::othello::Board,
    Trainer<games::othello::Board>,
) {
    let config = Config {
        games: 8,
        steps: 4,
        simulations: 8,
        batch: 32,
        ..Config::preset("othello").unwrap()
    };
    let start = games::othello::Board::new(4).unwrap();
    let trainer = Trainer::new(start, config.clone()).unwrap();
    (config, start, trainer)
}

/// Two generations with `changed` learn another network than with `base` from the same
/// games, and one generation resumed from its checkpoint then another equal the two
/// straight through (the network and, if any, the ownership head). Returns that run.
fn changes_learning_and_resumes(
    start: games::othello::Board,
    base: &Config,
    changed: &Config,
) -> Trainer<games::othello::Board> {
    let straight = |c: &Config| {
        let mut t = Trainer::new(start, c.clone()).unwrap();
        t.generation();
        t.generation();
        t
    };
    let learnt = straight(changed);
    assert_ne!(learnt.net, straight(base).net);
    let mut first = Trainer::new(start, changed.clone()).unwrap();
    first.generation();
    let mut resumed = Trainer::from_bytes(&first.to_bytes(), start, changed.clone()).unwrap();
    resumed.generation();
    assert_eq!(resumed.net, learnt.net);
    assert_eq!(resumed.ownership, learnt.ownership);
    learnt
}

#[test]
fn othello_feature_planes_train_as_the_search_sees_them_and_resume() {
    let (config, start, _) = small_othello();
    let with_features = Config {
        planes: 6,
        ..config.clone()
    };
    let trainer = Trainer::new(start, with_features.clone()).unwrap();
    assert_eq!(trainer.net.shape().planes, 6);
    let mut seen = 0;
    for seed in 0..4 {
        let game = play(&start, &trainer.net, &with_features, seed);
        for s in &game.samples {
            for t in [0, 3, 6] {
                let mut planes = vec![0.0; 16 * 6];
                let mut scratch = tools::alphazero::PlaneScratch::default();
                s.planes::<games::othello::Board>(4, t, 6, &mut scratch, &mut planes);
                let (mut legal, mut pi) = (vec![false; 17], vec![0.0; 17]);
                s.targets(4, t, &mut legal, &mut pi);
                // The side to move's mobility plane is the sample's own legal moves, seen
                // through the same symmetry, and the stones are where the sample has them.
                for p in 0..16 {
                    assert_eq!(planes[p * 6 + 3] == 1.0, legal[p], "{s:?}, t {t}");
                    let q = games::nn::symmetry(4, t, p);
                    assert_eq!(planes[q * 6 + usize::from(s.cells[p])], 1.0);
                }
                let empties = s.cells.iter().filter(|&&c| c == 2).count();
                assert_eq!(planes[5] == 1.0, empties % 2 == 1);
                seen += 1;
            }
        }
    }
    assert!(seen > 30, "{seen}");
    // The features change what is learnt from the same games, and a run with them resumes;
    // the setting is recorded, and more planes than the game has are refused.
    let learnt = changes_learning_and_resumes(start, &config, &with_features);
    let err = Trainer::from_bytes(&learnt.to_bytes(), start, config.clone()).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
    let err = Trainer::new(
        start,
        Config {
            planes: 8,
            ..config
        },
    )
    .unwrap_err();
    assert!(err.contains("8 input planes: othello takes 3..=7"), "{err}");
}

#[test]
fn self_play_at_a_komi_counts_it_in_every_target_and_the_komi_plane_trains_and_resumes() {
    use games::search::{alpha_beta, FULL_WINDOW};
    // Self-play from random 6×6 positions at 10 empties, every target exact (rescored from
    // 10 empties), each game at komi 4 or −6 for Black. Every sample's margin is then its
    // own position's exact score (plain alpha-beta over the `Game` trait, the rules'
    // scoring) plus its komi, the komi is the game's for the side to move, and the games
    // file keeps it.
    let config = Config {
        exact_endgame: 10,
        planes: 7,
        komi: vec![Komi::Fixed(4), Komi::Fixed(-6)],
        ..quiet_othello(16)
    };
    let start = games::othello::Board::new(6).unwrap();
    let net = Trainer::new(start, config.clone()).unwrap().net;
    let mut rng = games::rng::Rng::new(5);
    let (mut seen, mut games, mut komis) = (0, Vec::new(), std::collections::BTreeSet::new());
    while games.len() < 24 {
        let board = random_endgame(&mut rng, 10);
        if board.is_game_over() {
            continue;
        }
        let game = play(&board, &net, &config, games.len() as u64);
        let Some(first) = game.samples.first() else {
            continue;
        };
        // The first searched position is the start or after forced moves; at the start
        // (two or more moves) its side to move is the board's.
        let black = if board.legal_moves().len() > 1 {
            let k = i32::from(first.komi);
            if board.side_to_move() == games::Color::Black {
                k
            } else {
                -k
            }
        } else {
            continue;
        };
        assert!(black == 4 || black == -6, "komi {black} for Black");
        assert_eq!(i32::from(game.komi), black);
        komis.insert(black);
        for s in &game.samples {
            assert_eq!(i32::from(s.komi).abs(), black.abs(), "{s:?}");
            let position = sample_position(s);
            let value = alpha_beta(&position, FULL_WINDOW).value;
            assert_eq!(i32::from(s.margin), value + i32::from(s.komi), "{position}");
            assert_eq!(s.z, s.margin.signum() as i8);
            seen += 1;
        }
        // The result for Black counts Black's komi.
        let first_black = if board.side_to_move() == games::Color::Black {
            i32::from(first.margin)
        } else {
            -i32::from(first.margin)
        };
        assert_eq!(i32::from(game.black), first_black.signum());
        games.push(game);
    }
    assert!(seen > 100, "{seen} positions");
    assert_eq!(
        komis.into_iter().collect::<Vec<_>>(),
        [-6, 4],
        "both komis drawn"
    );
    let bytes = tools::alphazero::exchange::to_bytes("othello", 6, &games);
    let read = tools::alphazero::exchange::from_bytes(&bytes, "othello", 6).unwrap();
    assert_eq!(read, games, "the games file keeps the komi");

    // On 4×4: the komi plane changes what is learnt from the same start, a run with it
    // resumes, the setting is recorded, and a komi beyond the board is refused.
    let (small, start, _) = small_othello();
    let plane = Config {
        planes: 7,
        ..small.clone()
    };
    let komi = Config {
        komi: vec![Komi::Fixed(2), Komi::Fixed(-2)],
        ..plane.clone()
    };
    changes_learning_and_resumes(start, &plane, &komi);
    assert_recorded(start, &komi, plane.clone(), "komi: [2, -2]");
    // Relabelling to komi 0 changes what is learnt from the same games, and resumes.
    let zero = Config {
        komi_zero: 0.5,
        ..komi.clone()
    };
    changes_learning_and_resumes(start, &komi, &zero);
    assert_recorded(start, &zero, komi.clone(), "komi_zero: 0.5");
    let err = Trainer::new(
        start,
        Config {
            komi: vec![Komi::Fixed(17)],
            ..small
        },
    )
    .err()
    .unwrap();
    assert!(
        err.contains("komi 17: more than the board's 16 points"),
        "{err}"
    );
    let err = Trainer::new(
        start,
        Config {
            komi: vec![Komi::Fair],
            ..plane
        },
    )
    .err()
    .unwrap();
    assert!(err.contains("the fair komi is the score head's"), "{err}");
}

#[test]
fn the_fair_komi_is_what_the_score_head_expects_white_to_win_by_rounded_to_even() {
    // Random 6×6 networks with a score head, at the start and after a move (White to
    // move): the fair komi is even, within a disc of the margin the head expects White to
    // win by at komi 0, and the komi a game drawn `fair` is played at.
    let config = Config {
        planes: 7,
        score: 1.0,
        komi: vec![Komi::Fair],
        ..quiet_othello(4)
    };
    let start = games::othello::Board::new(6).unwrap();
    let after = games::search::Game::after(&start, start.legal_moves()[0]).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let config = Config {
            seed,
            ..config.clone()
        };
        let net = Trainer::new(start, config.clone()).unwrap().net;
        for board in [start, after] {
            let mut probe = games::nn::Inference::new(&net);
            probe.policy_value(&board, &board.legal_moves());
            let for_side = probe.score();
            let white = if board.side_to_move() == games::Color::White {
                for_side
            } else {
                -for_side
            };
            let fair = tools::alphazero::fair_komi(&board, &net);
            assert_eq!(fair % 2, 0, "{fair}");
            assert!((fair as f32 - white).abs() <= 1.0, "{fair} for {white}");
            assert_eq!(i32::from(play(&board, &net, &config, seed).komi), fair);
            seen.insert(fair);
        }
    }
    assert!(
        seen.len() > 2,
        "the random heads expect different margins: {seen:?}"
    );
}

#[test]
fn the_committed_go_checkpoint_of_version_1_still_resumes() {
    // weights/go7.ckp was written before positions kept the search's value.
    let dir = testkit::scratch("az_train_go7");
    let ckp = Path::new(env!("CARGO_MANIFEST_DIR")).join("../weights/go7.ckp");
    assert_eq!(&std::fs::read(&ckp).unwrap()[8..12], &1u32.to_le_bytes());
    std::fs::copy(&ckp, checkpoint_path(&dir)).unwrap();
    let d = dir.to_str().unwrap();
    let args = [
        "--game",
        "go",
        "--dir",
        d,
        "--resume",
        "--generations",
        "117",
    ];
    let out = az_train(&args);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("at generation 117"), "{said}");
}

fn az_train(args: &[&str]) -> std::process::Output {
    testkit::run_ok(Path::new(env!("CARGO_BIN_EXE_az_train")), args, b"")
}

#[test]
fn az_train_writes_a_checkpoint_resumes_it_and_refuses_bad_input() {
    let dir = testkit::scratch("az_train");
    let d = dir.to_str().unwrap();
    let othello6 = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../weights/othello6.net")
        .to_string_lossy()
        .into_owned();
    // A folder without a checkpoint, for the runs that --init would start.
    let fresh = format!("{d}/new");
    let small = [
        "--game",
        "tictactoe",
        "--dir",
        d,
        "--games",
        "4",
        "--steps",
        "4",
        "--simulations",
        "8",
    ];
    let out = az_train(&[&small[..], &["--generations", "2"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let progress = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        progress.lines().filter(|l| l.starts_with("gen ")).count(),
        2,
        "{progress}"
    );
    assert!(
        progress.contains("positions") && progress.contains("elapsed"),
        "{progress}"
    );
    assert!(checkpoint_path(&dir).exists());
    let weights = std::fs::read(dir.join("weights.net")).unwrap();
    assert!(games::nn::Net::from_bytes_for(&weights, "tictactoe", Some(3), 3..=3).is_ok());

    // The same command again would overwrite the run: refused.
    let again = az_train(&[&small[..], &["--generations", "3"]].concat());
    assert_eq!(again.status.code(), Some(1));
    // Resumed, it does generation 3 only; the log has a header and three rows.
    let resumed = az_train(&[&small[..], &["--generations", "3", "--resume"]].concat());
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(String::from_utf8_lossy(&resumed.stderr).starts_with("gen    3"));
    let log = std::fs::read_to_string(dir.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 4, "{log}");
    // A checkpoint copied alone into a new folder resumes there, with a log of its own.
    let moved = testkit::scratch("az_train_moved");
    std::fs::copy(checkpoint_path(&dir), checkpoint_path(&moved)).unwrap();
    let m = moved.to_str().unwrap();
    let mut elsewhere = small.to_vec();
    elsewhere[3] = m;
    let on = az_train(&[&elsewhere[..], &["--generations", "4", "--resume"]].concat());
    assert!(
        on.status.success(),
        "{}",
        String::from_utf8_lossy(&on.stderr)
    );
    assert!(String::from_utf8_lossy(&on.stderr).starts_with("gen    4"));
    let moved_log = std::fs::read_to_string(moved.join("log.csv")).unwrap();
    assert_eq!(moved_log.lines().count(), 2, "{moved_log}");
    assert!(moved_log.starts_with("generation,") && moved_log.contains("\n4,"));
    // Resumed at its limit it says so, rather than stopping without a word.
    let done = az_train(&[&small[..], &["--generations", "3", "--resume"]].concat());
    assert!(done.status.success());
    let said = String::from_utf8_lossy(&done.stderr);
    assert!(
        said.contains("at generation 3") && said.contains("nothing to do"),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(dir.join("log.csv")).unwrap(), log);
    // Other settings on resume, a corrupt checkpoint, bad flags: one line, status 1.
    let other = az_train(
        &[
            &small[..],
            &["--generations", "4", "--resume", "--lr", "0.3"],
        ]
        .concat(),
    );
    let corrupt_dir = testkit::scratch("az_train_corrupt");
    std::fs::write(
        checkpoint_path(&corrupt_dir),
        b"GAMESCKP\x01\x00\x00\x00garbage",
    )
    .unwrap();
    let corrupt = az_train(&[
        "--game",
        "tictactoe",
        "--dir",
        corrupt_dir.to_str().unwrap(),
        "--resume",
    ]);
    // Bad flags, one case a line: the game and the flags that follow `--game GAME --dir D`,
    // then, after `=>`, what the one-line error must say. NET is the committed 6x6 network.
    let in_run = r#"
        chess => --game is
        go --width 0 => --width
        go --lr fast => --lr
        othello --ownership -1 => --ownership
        othello --ownership NaN => --ownership
        othello --lr-drop 300 => GENERATION:RATE
        othello --lr-drop 0:0.1 => GENERATION:RATE
        othello --lr-drop 30:0.1 --lr-drop 20:0.01 => must increase
        othello --bogus => unknown option
        othello --role boss => --role is both, worker or trainer, not "boss"
        go --features 1 => --features
        othello --features 5 => --features
        othello --komi 0,4 => --komi [0, 4] needs the komi plane, so that the network sees the game's: give --features 4
        othello --score 1 --komi fair => --komi [fair] needs the komi plane
        othello --features 4 --komi fair => --komi fair is what the score head expects: give --score W too
        othello --features 4 --komi 0,x => --komi must be a whole number from -36 to 36, not "x"
        othello --features 4 --komi 37 => --komi must be a whole number from -36 to 36, not "37"
        othello --features 4 --komi => --komi needs a value
        go --komi 2 => --komi is for othello, not go
        othello --komi-zero 0.5 => --komi-zero relabels games played at other komis: give --komi too
        othello --features 4 --komi 0,4 --komi-zero 1.5 => --komi-zero
        othello --score -1 => --score
        othello --score-utility 0.3 => --score-utility needs the score head
        othello --score 1 --score-utility 0.3:0 => --score-utility takes W or W:SCALE
        othello --resume --init NET => --init starts a new run
        othello --loser-search 64 => --loser-search takes N:T
        othello --loser-search 0:0.3 => --loser-search takes N:T
        othello --loser-search 64:1 => --loser-search takes N:T
        othello --loser-search 64:-0.5 => --loser-search takes N:T
        othello --late-search 128 => --late-search takes N:PLY
        othello --late-search 0:16 => --late-search takes N:PLY
        othello --late-search 128:-1 => --late-search takes N:PLY
        othello --late-search 128:1001 => --late-search takes N:PLY
        othello --late-search x:16 => --late-search takes N:PLY
        othello --forced-playouts -1 => --forced-playouts must be a number from 0 to 100, not "-1"
        othello --forced-playouts 101 => --forced-playouts must be a number from 0 to 100, not "101"
        othello --forced-playouts NaN => --forced-playouts must be a number from 0 to 100, not "NaN"
        othello --forced-playouts two => --forced-playouts must be a number from 0 to 100, not "two"
        othello --exact-endgame 25 => --exact-endgame must be a whole number from 0 to 24, not "25"
        othello --exact-endgame -1 => --exact-endgame must be a whole number from 0 to 24
        othello --exact-endgame 18:1.5 => --exact-endgame's share must be a number from 0 to 1, not "1.5"
        othello --exact-endgame 18: => --exact-endgame's share must be a number from 0 to 1, not ""
        othello --exact-endgame x:0.5 => --exact-endgame must be a whole number from 0 to 24, not "x"
        go --exact-endgame 10 => --exact-endgame needs a solver: othello has one, go not
        tictactoe --exact-endgame 3 => --exact-endgame needs a solver
        othello --score 1 --exact-targets margins => --exact-targets chooses what --exact-endgame rescores
        othello --exact-endgame 18 --exact-targets margins => --exact-targets margins trains the score head
        othello --exact-endgame 18 --exact-targets best => --exact-targets is all, margins or losing, not "best"
        othello --exact-endgame 18 --exact-targets => --exact-targets
    "#;
    // `--init` starts a new run, so these get a directory with no checkpoint in it. The
    // committed network is wider than the preset: only a score head may differ.
    let in_fresh = "
        othello --init /no/such.net => /no/such.net
        othello --init NET => only a score head may be added
        tictactoe --init NET => weights for othello, not tictactoe
    ";
    // Each line's first word is the game: the arguments are `--game GAME --dir DIR`, then
    // the rest of the line.
    let cases = |table: &'static str, dir: &str| -> Vec<_> {
        testkit::refusals(table, &[("NET", othello6.as_str())])
            .into_iter()
            .map(|(words, says)| {
                let mut args = vec!["--game", words[0], "--dir", dir];
                args.extend(&words[1..]);
                (az_train(&args), says)
            })
            .collect()
    };
    for (out, says) in [
        (other, "other settings"),
        (corrupt, "not a usable checkpoint"),
        (az_train(&["--dir", d]), "--game is required"),
    ]
    .into_iter()
    .chain(cases(in_run, d))
    .chain(cases(in_fresh, &fresh))
    {
        testkit::assert_refused(&out, "az_train", says, says);
    }
}

#[test]
fn a_trainer_and_a_worker_exchange_games_and_weights_through_a_directory() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let dir = testkit::scratch("az_train_roles");
    let d = dir.to_str().unwrap();
    // A games file from a misconfigured worker (another game) is set aside, not fatal.
    std::fs::create_dir_all(dir.join("games")).unwrap();
    let stray = tools::alphazero::exchange::to_bytes("othello", 6, &[]);
    std::fs::write(dir.join("games/w0009-00000000.games"), stray).unwrap();
    let common = [
        "--game",
        "tictactoe",
        "--dir",
        d,
        "--games",
        "4",
        "--steps",
        "4",
        "--simulations",
        "8",
        "--threads",
        "1",
    ];
    let mut trainer = Command::new(env!("CARGO_BIN_EXE_az_train"))
        .args(common)
        .args(["--role", "trainer", "--generations", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let worker = az_train(
        &[
            &common[..],
            &["--role", "worker", "--worker", "3", "--generations", "2"],
        ]
        .concat(),
    );
    assert!(
        worker.status.success(),
        "{}",
        String::from_utf8_lossy(&worker.stderr)
    );
    let progress = String::from_utf8(worker.stderr).unwrap();
    assert_eq!(
        progress
            .lines()
            .filter(|l| l.starts_with("worker 3 batch"))
            .count(),
        2,
        "{progress}"
    );
    let clock = Instant::now();
    let status = loop {
        if let Some(status) = trainer.try_wait().unwrap() {
            break status;
        }
        assert!(
            clock.elapsed() < Duration::from_secs(60),
            "the trainer did not finish"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(trainer.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert!(status.success(), "{err}");
    assert!(err.contains("gen    1"), "{err}");
    assert!(err.contains("moved to games/bad"), "{err}");
    assert!(dir.join("games/bad/w0009-00000000.games").exists());
    // The trainer's checkpoint holds the worker's games; the absorbed files are kept aside.
    let t = Trainer::load(
        &checkpoint_path(&dir),
        start(),
        Config {
            games: 4,
            steps: 4,
            simulations: 8,
            threads: 1,
            ..config()
        },
    )
    .unwrap();
    assert_eq!(t.generation, 1);
    assert!(t.games >= 4 && t.window_len() > 0);
    let used = std::fs::read_dir(dir.join("games/used")).unwrap().count();
    assert!(used >= 1, "absorbed games files are moved to games/used");
}

/// The committed benchmark of 6×6 positions (`othello_positions`; README, Test data).
fn benchmark() -> Vec<tools::alphazero::exact::Judged<games::othello::Board>> {
    tools::alphazero::exact::read_othello_positions(&benchmark_text()).unwrap()
}

/// The committed benchmark file's text.
fn benchmark_text() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/othello6-positions.txt");
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_solvers_line_is_one_perfect_game_white_winning_by_4() {
    use games::search::Game;
    use games::Color;
    // `othello_positions --line`: the positions of the exact solver's game against itself.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/othello6-line.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let line = tools::alphazero::exact::read_othello_positions(&text).unwrap();
    assert!(line.len() >= 20, "{} positions", line.len());
    // Plays `mv`, then every forced move (one legal move: a pass or the only square).
    let then_forced = |board: &games::othello::Board, mv| {
        let mut b = board.after(mv).unwrap();
        while !b.is_game_over() && b.legal_moves().len() == 1 {
            b = b.after(b.legal_moves()[0]).unwrap();
        }
        b
    };
    assert_eq!(line[0].position, games::othello::Board::new(6).unwrap());
    for (i, j) in line.iter().enumerate() {
        // 6x6 Othello: White wins 20-16 with perfect play (the reference's solved fact),
        // so on a perfect line the side to move's best is +4 for White, -4 for Black.
        let want = match j.position.side_to_move() {
            Color::White => 4,
            Color::Black => -4,
        };
        assert_eq!(j.best(), want, "position {i}: {}", j.position);
        assert!(!j.outcomes_only && j.values.len() >= 2);
        // One of the best moves, and the forced moves after it, lead to the next position;
        // after the last, to the end of the game with White 4 discs ahead.
        let best: Vec<_> = j.values.iter().filter(|v| v.1 == want).collect();
        let next = best.iter().map(|&&(mv, _)| then_forced(&j.position, mv));
        match line.get(i + 1) {
            Some(k) => assert!(
                next.into_iter().any(|b| b == k.position),
                "position {i} does not lead to the next"
            ),
            None => assert!(next.into_iter().all(|b| b.is_game_over()
                && tools::alphazero::exact::final_margin_for(&b, Color::White) == 4)),
        }
    }
    // The endgame solver made the values; alpha-beta over the Game trait checks the late ones.
    let checked = agree_with_alpha_beta(line.iter().filter(|j| j.position.empties().count() <= 11));
    assert!(checked >= 20, "{checked} move values checked");
}

/// Checks every move value of `positions` (the endgame solver's) with plain alpha-beta over
/// the `Game` trait, another implementation with its own move generation and scoring;
/// returns how many values it checked.
fn agree_with_alpha_beta<'a>(
    positions: impl Iterator<Item = &'a tools::alphazero::exact::Judged<games::othello::Board>>,
) -> usize {
    use games::search::{alpha_beta, Game, FULL_WINDOW};
    let mut checked = 0;
    for j in positions {
        for &(mv, value) in &j.values {
            let child = j.position.after(mv).unwrap();
            assert_eq!(
                -alpha_beta(&child, FULL_WINDOW).value,
                value,
                "{} after {mv:?}",
                j.position
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn the_othello_benchmark_is_spread_and_its_values_agree_with_plain_alpha_beta() {
    use games::search::Game;
    let positions = benchmark();
    assert!(positions.len() >= 2000, "{} positions", positions.len());
    let mut per_level = std::collections::BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    for j in &positions {
        let empties = j.position.empties().count();
        *per_level.entry(empties).or_insert(0) += 1;
        assert!(seen.insert(j.position), "a repeated position");
        assert!(j.values.len() >= 2, "positions with one move are left out");
        assert!(j.values.windows(2).all(|w| w[0].1 >= w[1].1), "best first");
        // Margins up to 22 empties; deeper, the outcome of each move only.
        assert_eq!(j.outcomes_only, empties >= 23, "{}", j.position);
    }
    assert_eq!(
        per_level.keys().copied().collect::<Vec<_>>(),
        (10..=30).collect::<Vec<_>>()
    );
    // Every level up to 28 has at least 50; 29 and 30 empties (three and two plies from
    // the start) have only 54 and 12 positions with two moves or more, and hold all of them.
    assert!(
        per_level
            .iter()
            .all(|(&e, &n)| n >= 50 || (e, n) == (29, 54) || (e, n) == (30, 12)),
        "{per_level:?}"
    );
    // The endgame solver made the values; alpha-beta over the Game trait (another
    // implementation, with its own move generation and scoring) checks a sample.
    let checked = agree_with_alpha_beta(
        positions
            .iter()
            .filter(|j| j.position.empties().count() <= 11)
            .step_by(5)
            .take(30),
    );
    assert!(checked >= 100, "{checked} move values checked");
    // The outcomes came from a win/draw/loss search; the solver's exact margins (another
    // search: full window, selective passes first) must have the same signs.
    let mut solver = games::endgame::Solver::new(20);
    let mut outcomes = 0;
    for j in positions
        .iter()
        .filter(|j| j.position.empties().count() == 23)
        .take(2)
    {
        for &(mv, value) in &j.values {
            let child = j.position.after(mv).unwrap();
            assert_eq!(
                -solver.solve(&child).score.signum(),
                value,
                "{}",
                j.position
            );
            outcomes += 1;
        }
    }
    assert!(outcomes >= 4, "{outcomes} outcomes checked");
}

#[test]
fn a_game_against_the_solver_names_the_agents_moves_that_changed_the_result() {
    use games::othello::Board;
    use games::search::{alpha_beta, Game, FULL_WINDOW};
    use tools::alphazero::exact::{greedy, versus_solver, Slip};
    // The exact margin of each move by plain alpha-beta over the Game trait, not by the
    // endgame solver that `versus_solver` asks.
    let value = |b: &Board, mv| -alpha_beta(&b.after(mv).unwrap(), FULL_WINDOW).value;
    let mut solver = games::endgame::Solver::new(20);
    let mut rng = games::rng::Rng::new(11);
    let (mut games_played, mut slips_seen) = (0, 0);
    for j in benchmark()
        .iter()
        .filter(|j| j.position.empties().count() == 10)
        .take(8)
    {
        for agent_side in [games::Color::Black, games::Color::White] {
            let mut greedy_agent = |b: &Board| greedy(b, &mut rng);
            let mut solves = 0;
            let played = versus_solver(
                &j.position,
                agent_side,
                &mut greedy_agent,
                &mut solver,
                &mut |_, _, _| solves += 1,
            );
            assert!(solves >= 2, "the solver moved and said so");
            // Replay: before and after every move of the agent.
            let mut board = j.position;
            let mut expected = Vec::new();
            let mut start_value = None;
            for (i, &mv) in played.moves.iter().enumerate() {
                if board.side_to_move() == agent_side {
                    let before = board
                        .legal_moves()
                        .into_iter()
                        .map(|m| value(&board, m))
                        .max()
                        .unwrap();
                    start_value.get_or_insert(before);
                    let after = value(&board, mv);
                    if after != before {
                        expected.push(Slip {
                            number: i + 1,
                            mv,
                            empties: board.empties().count(),
                            before,
                            after,
                        });
                    }
                } else {
                    let best = board
                        .legal_moves()
                        .into_iter()
                        .map(|m| value(&board, m))
                        .max();
                    assert_eq!(Some(value(&board, mv)), best, "the solver plays perfectly");
                    start_value.get_or_insert(-best.unwrap());
                }
                board = board.after(mv).unwrap();
            }
            assert!(board.is_game_over());
            let black = if board.side_to_move() == games::Color::Black {
                board.final_margin()
            } else {
                -board.final_margin()
            };
            assert_eq!(played.margin, black);
            assert_eq!(played.slips, expected, "{}", j.position);
            assert_eq!(Some(played.start_value), start_value);
            let agent_margin = if agent_side == games::Color::Black {
                black
            } else {
                -black
            };
            let lost: i32 = played.slips.iter().map(|s| s.after - s.before).sum();
            assert_eq!(played.start_value + lost, agent_margin);
            games_played += 1;
            slips_seen += played.slips.len();
        }
    }
    assert_eq!(games_played, 16);
    // Greedy play against perfect play gives results away: the check saw some.
    assert!(slips_seen >= 5, "{slips_seen} slips");
}

#[test]
fn the_final_margin_is_told_for_either_side_whoever_is_to_move() {
    use games::othello::{Bitboard, Board};
    use games::Color::{Black, White};
    use tools::alphazero::exact::final_margin_for;
    let squares: Vec<u64> = Board::new(6)
        .unwrap()
        .mask()
        .squares()
        .map(|s| s.bitboard().0)
        .collect();
    let discs = |range: std::ops::Range<usize>| Bitboard(squares[range].iter().sum());
    // A full board, Black 14 – White 22; and Black alone with 30 discs and 6 squares
    // empty, which go to the winner.
    for (black, white, for_black) in [
        (discs(0..14), discs(14..36), -8),
        (discs(0..30), Bitboard(0), 36),
    ] {
        for to_move in [Black, White] {
            let board = Board::from_discs(6, black, white, to_move).unwrap();
            assert!(board.is_game_over());
            assert_eq!(final_margin_for(&board, Black), for_black);
            assert_eq!(final_margin_for(&board, White), -for_black);
        }
    }
}

#[test]
fn bad_benchmark_lines_name_the_line() {
    use tools::alphazero::exact::read_othello_positions;
    let good = "--------------OX----XO-------------- X";
    for (text, says) in [
        ("# a comment\nXXO X c1:+2;", "line 2: 3 cells"),
        (
            "--------------OX?---XO-------------- X c1:+2;",
            "line 1: '?'",
        ),
        (
            "--------------OX----XO-------------- B c1:+2;",
            "side to move",
        ),
        (&format!("{good} c3:+2")[..], "square:value"),
        (
            &format!("{good} c3:big;")[..],
            "not a number, win, draw or loss",
        ),
        (&format!("{good} c3:+2; e5:loss;")[..], "mixed"),
        (&format!("{good} z9:+2;")[..], "line 1"),
        (
            &format!("{good} a1:+2;")[..],
            "not the position's legal moves",
        ),
    ] {
        let err = read_othello_positions(text).unwrap_err();
        assert!(err.contains(says), "{text}: {err}");
        assert_eq!(err.lines().count(), 1);
    }
}

#[test]
fn the_evaluation_tools_refuse_bad_input_in_one_line() {
    let dir = testkit::scratch("az_tools_bad_input");
    let bad_positions = dir.join("bad.txt");
    std::fs::write(
        &bad_positions,
        "# header\n--------------OX----XO-------------- X a1:+2;\n",
    )
    .unwrap();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing\n").unwrap();
    // Bytes that are not text on a file's second line; and a run whose log is such bytes.
    let torn = dir.join("torn.txt");
    std::fs::write(&torn, b"# header\n\xff\xfe\n").unwrap();
    let torn_run = dir.join("torn-run");
    std::fs::create_dir_all(&torn_run).unwrap();
    std::fs::write(torn_run.join("log.csv"), b"generation,games\n1,\xc3\n").unwrap();
    let garbage = dir.join("garbage.net");
    std::fs::write(&garbage, b"\x00\x01garbage").unwrap();
    let good = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/othello6-positions.txt");
    // A 6x6 network without a score head, which the score utility cannot use.
    let shape = games::nn::Shape {
        size: 6,
        planes: games::nn::PLANES,
        width: 4,
        blocks: 1,
        hidden: 4,
        value_channels: 1,
        score: false,
    };
    let plain = dir.join("plain.net");
    let net = games::nn::Net::random(shape, 1).unwrap();
    std::fs::write(&plain, net.to_bytes("othello")).unwrap();
    // A run of that network alone, for --curve.
    let plain_run = dir.join("plain-run");
    std::fs::create_dir_all(&plain_run).unwrap();
    std::fs::write(plain_run.join("log.csv"), "generation,games\n10,400\n").unwrap();
    std::fs::copy(&plain, plain_run.join("weights-g0010.net")).unwrap();
    let names = [
        ("BAD", bad_positions.to_str().unwrap()),
        ("PLAIN", plain.to_str().unwrap()),
        ("PLAINRUN", plain_run.to_str().unwrap()),
        ("EMPTY", empty.to_str().unwrap()),
        ("GARBAGE", garbage.to_str().unwrap()),
        ("GOOD", good.to_str().unwrap()),
        ("DIR", dir.to_str().unwrap()),
        ("TORN", torn.to_str().unwrap()),
        ("RUN", torn_run.to_str().unwrap()),
    ];
    // One case a line: the tool, its arguments, then what its one-line error must say.
    let table = "
        az_eval --positions GOOD --weights PLAIN --score-utility 0.5 => plain.net: --score-utility needs a network with a score head
        az_eval --positions GOOD --score-utility 2 => --score-utility takes W or W:SCALE
        az_eval --positions GOOD --score-utility 0.5:0 => --score-utility takes W or W:SCALE
        az_eval --positions GOOD --weights PLAIN --dynamic-komi 4:0.5 => plain.net: --dynamic-komi and --dynamic-komi-ahead need a network with the komi plane
        az_eval --positions GOOD --weights PLAIN --dynamic-komi-ahead 4:0.5 => plain.net: --dynamic-komi and --dynamic-komi-ahead need a network with the komi plane
        az_eval --positions GOOD --dynamic-komi-ahead 4:0.5 => no --weights: --dynamic-komi
        az_eval --positions GOOD --curve PLAINRUN --dynamic-komi 4:0.5 => weights-g0010.net: --dynamic-komi and --dynamic-komi-ahead need a network with the komi plane
        az_eval --positions GOOD --curve PLAINRUN --score-utility 0.5 => weights-g0010.net: --score-utility needs a network with a score head
        az_eval --positions GOOD --dynamic-komi-ahead 0:0.5 => --dynamic-komi-ahead takes K:T
        az_eval --positions GOOD --dynamic-komi-ahead 4:-0.5 => --dynamic-komi-ahead takes K:T
        az_eval --positions GOOD --dynamic-komi 0:0.5 => --dynamic-komi takes K:T
        az_eval --positions GOOD --dynamic-komi 4:1 => --dynamic-komi takes K:T
        az_eval --positions GOOD --dynamic-komi 4 => --dynamic-komi takes K:T
        az_eval --positions GOOD --lcb 5 => --lcb takes Z:S
        az_eval --positions GOOD --lcb 5:1.5 => --lcb takes Z:S
        az_eval --positions GOOD --lcb -1:0.1 => --lcb takes Z:S
        az_eval => --positions FILE is required
        az_eval --positions /no/such/file => /no/such/file
        az_eval --positions BAD => line 2
        az_eval --positions EMPTY => no positions
        az_eval --positions TORN => torn.txt: line 2: not UTF-8 text
        az_eval --positions GOOD --curve RUN => log.csv: line 2: not UTF-8 text
        az_eval --positions GOOD --weights GARBAGE => weights
        az_eval --positions GOOD --players policy => needs --weights
        az_eval --positions GOOD --players oracle => unknown player
        az_eval --positions GOOD --views mirror => --views is plain, avg, random or avgK (K of the 8 symmetries, 1..=8), not \"mirror\"
        az_eval --positions GOOD --views avg9 => --views is plain, avg, random or avgK
        az_eval --positions GOOD --views avg0 => --views is plain, avg, random or avgK
        az_eval --positions GOOD --weights PLAIN --players netavg9x400 => unknown player \"netavg9x400\"
        az_eval --positions GOOD --weights PLAIN --players netavg2x0 => unknown player \"netavg2x0\"
        az_eval --positions GOOD --players netavg2x400 => player netavg2x400 needs --weights
        az_eval --positions GOOD --views => --views needs a value
        az_eval --positions GOOD --curve DIR => log.csv
        az_plot --dir DIR --out DIR => log.csv
        az_plot --out DIR => --dir is required
        az_plot --dir RUN --out DIR => log.csv: line 2: not UTF-8 text
        othello_positions --out TORN --append --count 1 => torn.txt: line 2: not UTF-8 text
        othello_positions --out DIR --empties 30..10 => --empties
        othello_positions --count 5 => --out FILE is required
        othello_positions --out DIR --line --count 5 => --count is for varied play, not --line
        othello_positions --out DIR --append --line => --append is for varied play, not --line
        othello_positions --out DIR --eval GOOD => --eval
    ";
    for (words, says) in testkit::refusals(table, &names) {
        let (tool, args) = (words[0], &words[1..]);
        let program = match tool {
            "az_eval" => env!("CARGO_BIN_EXE_az_eval"),
            "az_plot" => env!("CARGO_BIN_EXE_az_plot"),
            _ => env!("CARGO_BIN_EXE_othello_positions"),
        };
        let out = testkit::run_ok(Path::new(program), args, b"");
        testkit::assert_refused(&out, tool, says, &format!("{words:?}"));
    }
}

#[test]
fn othello_positions_with_the_evaluation_writes_the_same_values() {
    // The evaluation only orders the solver's moves: the file must not change.
    let dir = testkit::scratch("othello_positions_eval");
    let eval = Path::new(env!("CARGO_MANIFEST_DIR")).join("../weights/endgame6.pat");
    let mut files = Vec::new();
    for with_eval in [false, true] {
        let out = dir.join(format!("p{with_eval}.txt"));
        let mut args = vec![
            "--out".to_string(),
            out.to_str().unwrap().to_string(),
            "--count".into(),
            "24".into(),
            "--empties".into(),
            "12..17".into(),
            "--seed".into(),
            "3".into(),
        ];
        if with_eval {
            args.extend(["--eval".to_string(), eval.to_str().unwrap().to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = testkit::run_ok(
            Path::new(env!("CARGO_BIN_EXE_othello_positions")),
            &args,
            b"",
        );
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        files.push(std::fs::read_to_string(out).unwrap());
    }
    assert_eq!(
        files[0].lines().count(),
        26,
        "two comment lines and 24 positions"
    );
    assert_eq!(files[0], files[1]);
}

#[test]
fn othello_positions_appends_outcomes_that_agree_with_the_margins_on_any_thread_count() {
    use games::search::Game;
    use tools::alphazero::exact::read_othello_positions;
    let dir = testkit::scratch("othello_positions_append");
    let program = Path::new(env!("CARGO_BIN_EXE_othello_positions"));
    let run = |args: &[&str]| {
        let run = testkit::run_ok(program, args, b"");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    };
    let base = dir.join("base.txt");
    let base = base.to_str().unwrap();
    run(&["--out", base, "--count", "12", "--empties", "12..15"]);
    let before = std::fs::read_to_string(base).unwrap();
    let mut files = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(format!("t{threads}.txt"));
        std::fs::copy(base, &out).unwrap();
        let out = out.to_str().unwrap();
        run(&[
            "--out",
            out,
            "--append",
            "--count",
            "16",
            "--seed",
            "4",
            "--empties",
            "12..17",
            "--outcomes-from",
            "14",
            "--threads",
            threads,
        ]);
        files.push(std::fs::read_to_string(out).unwrap());
    }
    assert_eq!(files[0], files[1], "the thread count changed the file");
    let text = &files[0];
    // The old header, then this command's line, then the old positions, then the new.
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[2].contains("--seed 4") && lines[2].contains("--append"),
        "{text}"
    );
    let old: Vec<&str> = before.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines[3..3 + old.len()], old[..]);
    let judged = read_othello_positions(text).unwrap();
    assert_eq!(judged.len(), 12 + 16);
    let mut solver = games::endgame::Solver::new(18);
    let mut outcomes = 0;
    for j in &judged[12..] {
        let empties = j.position.empties().count();
        assert_eq!(j.outcomes_only, empties >= 14, "{}", j.position);
        for &(mv, value) in &j.values {
            let exact = -solver.solve(&j.position.after(mv).unwrap()).score;
            if j.outcomes_only {
                assert_eq!(value, exact.signum(), "{}", j.position);
                outcomes += 1;
            } else {
                assert_eq!(value, exact, "{}", j.position);
            }
        }
    }
    assert!(outcomes >= 20, "{outcomes} outcomes");
    // A file that is not a benchmark is not appended to.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "not a position\n").unwrap();
    let out = testkit::run_ok(
        program,
        &["--out", bad.to_str().unwrap(), "--append", "--count", "2"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1") && err.lines().count() == 1, "{err}");
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "not a position\n");
}

/// The first `n` positions (lines that are not comments) of a benchmark `text`.
fn first_positions(text: &str, n: usize) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .take(n)
        .collect()
}

/// `az_eval` on one thread with the committed 6×6 network and `args`, over benchmark
/// `lines` written to a scratch file of the test `name`; its output and the weights' path.
fn az_eval_on(
    name: &str,
    lines: &[&str],
    args: &[&str],
) -> (std::process::Output, std::path::PathBuf) {
    let file = testkit::scratch(name).join("positions.txt");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let weights = Path::new(env!("CARGO_MANIFEST_DIR")).join("../weights/othello6.net");
    let common = [
        "--positions",
        file.to_str().unwrap(),
        "--weights",
        weights.to_str().unwrap(),
        "--threads",
        "1",
    ];
    let out = testkit::run_ok(
        Path::new(env!("CARGO_BIN_EXE_az_eval")),
        &[&common[..], args].concat(),
        b"",
    );
    (out, weights)
}

#[test]
fn az_eval_counts_the_disc_loss_over_the_positions_with_margins_only() {
    use tools::alphazero::exact::{policy_move, read_othello_positions};
    // 40 positions with margins and 40 with outcomes only, from the committed benchmark.
    let text = benchmark_text();
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let deep: Vec<&str> = body
        .iter()
        .copied()
        .filter(|l| l.contains(":win;") || l.contains(":loss;"))
        .take(40)
        .collect();
    let mut lines: Vec<&str> = body[..40].to_vec();
    lines.extend(&deep);
    assert_eq!(lines.len(), 80);
    let (out, weights) = az_eval_on("az_eval_disc_loss", &lines, &["--players", "policy"]);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        table.contains("80 positions from") && table.contains("(40 with margins"),
        "{table}"
    );
    let row = table.lines().find(|l| l.starts_with("| policy |")).unwrap();
    let printed: f64 = row
        .trim_end_matches('|')
        .rsplit('|')
        .next()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // The same mean by the library: the raw policy's move, its loss where there are margins.
    let judged = read_othello_positions(&lines.join("\n")).unwrap();
    let (net, _) = games::nn::Net::from_bytes(&std::fs::read(&weights).unwrap()).unwrap();
    let mut inference = games::nn::Inference::new(&net);
    let losses: Vec<i32> = judged
        .iter()
        .filter_map(|j| j.disc_loss(policy_move(&mut inference, &j.position)))
        .collect();
    assert_eq!(losses.len(), 40);
    let mean = f64::from(losses.iter().sum::<i32>()) / 40.0;
    assert!(
        mean > 0.0,
        "a sample with no loss cannot tell the two means apart"
    );
    assert!(
        (printed - mean).abs() < 0.006,
        "printed {printed}, expected {mean}"
    );
}

#[test]
fn az_eval_names_any_count_of_views_and_one_or_eight_are_the_random_and_averaged_players() {
    let text = benchmark_text();
    let lines = first_positions(&text, 60);
    let players = "netrand20,netavg1x20,netavg20,netavg8x20,netavg3x20";
    let (out, _) = az_eval_on("az_eval_views", &lines, &["--players", players]);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Each player's figures: its row without the name.
    let figures = |player: &str| -> String {
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("| {player} |")));
        let row = row.unwrap_or_else(|| panic!("no row for {player}: {table}"));
        row.split('|').skip(2).collect()
    };
    assert_eq!(figures("netavg1x20"), figures("netrand20"), "{table}");
    assert_eq!(figures("netavg8x20"), figures("netavg20"), "{table}");
    assert_ne!(figures("netrand20"), figures("netavg20"), "{table}");
    assert!(table.contains("| netavg3x20 |"), "{table}");
}

#[test]
fn az_eval_explains_every_mistake_and_slip_of_the_search_it_counts() {
    // 200 benchmark positions: each mistake is half a percent of the table's figure.
    let text = benchmark_text();
    let lines = first_positions(&text, 200);
    // Every mistake and slip printed (far more than there are), to add up their discs.
    let (out, _) = az_eval_on(
        "az_eval_explain",
        &lines,
        &[
            "--players",
            "net20",
            "--simulations",
            "20",
            "--explain",
            "1000",
        ],
    );
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let row = report.lines().find(|l| l.starts_with("| net20 |")).unwrap();
    let percent: f64 = row
        .split('|')
        .nth(6)
        .unwrap()
        .trim()
        .trim_end_matches('%')
        .parse()
        .unwrap();
    let counted = (percent * 2.0).round() as u32;
    assert!(
        counted >= 2,
        "a sample without mistakes tests nothing: {report}"
    );
    let why = report
        .lines()
        .find(|l| l.starts_with("Why net + MCTS 20 erred"))
        .unwrap();
    // The whole number after `after` in `line`.
    let number = |line: &str, after: &str| -> u32 {
        let rest = &line[line.find(after).unwrap() + after.len()..];
        rest.trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    // The kinds of cause add up to the count, for the mistakes and for the slips.
    let causes = |line: &str| {
        number(line, "fewer visits")
            + number(line, "misled the search)")
            + number(line, "was visited")
    };
    let total = number(why, "erred (");
    assert_eq!(total, counted, "{report}");
    assert_eq!(causes(why), total, "{why}");
    let kept = report
        .lines()
        .find(|l| l.starts_with("Where it kept the outcome"))
        .unwrap();
    let slips = number(kept, "discs away (");
    assert_eq!(causes(kept), slips, "{kept}");
    // Each printed root: "- E empties, S to move, KIND (D discs): m (P p, N n, Q q, exact
    // v) **m (…)** m (…)". Split at ")", each part with "exact " is one move, played when its
    // name (the last word before " (") starts with "**". A mistake worsens the outcome, a
    // slip keeps it; either way D is the best value minus the played one.
    let examples: Vec<&str> = report.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(examples.len() as u32, total + slips, "{report}");
    assert!(slips >= 1, "a sample without slips tests nothing: {report}");
    let mut discs = 0;
    for line in examples {
        let (head, rest) = line.split_once(": ").unwrap();
        let moves: Vec<(bool, i32)> = rest
            .split(')')
            .filter(|part| part.contains("exact "))
            .map(|part| {
                let name = part.split(" (").next().unwrap().rsplit(' ').next().unwrap();
                let exact = part.rsplit("exact ").next().unwrap().parse().unwrap();
                (name.starts_with("**"), exact)
            })
            .collect();
        let played: Vec<i32> = moves.iter().filter(|m| m.0).map(|m| m.1).collect();
        assert_eq!(played.len(), 1, "{line}");
        let best = moves.iter().map(|m| m.1).max().unwrap();
        if head.contains("mistake") {
            assert!(played[0].signum() < best.signum(), "{line}");
        } else {
            assert!(head.contains("slip"), "{line}");
            assert!(
                played[0].signum() == best.signum() && played[0] < best,
                "{line}"
            );
        }
        let said: i32 = head
            .rsplit('(')
            .next()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(said, best - played[0], "{line}");
        discs += said;
    }
    // Together they give away what the table's mean disc loss says (200 positions with
    // margins, the mean printed to two decimals).
    let mean: f64 = row.split('|').nth(7).unwrap().trim().parse().unwrap();
    assert!(
        (f64::from(discs) / 200.0 - mean).abs() <= 0.005 + 1e-9,
        "{discs} discs against a mean of {mean}: {report}"
    );
}
