//! Policy/value networks for any square board, in `f32`: the inference that search calls,
//! shared by `mini_alphago`, the Go engine and the self-play trainer (which adds the
//! backward pass in the tools crate). Files: `net` (shape, parameters, forward pass),
//! `weights` (the weights file format), `encode` (games as planes and move indices, the
//! board's symmetries, the network as an evaluator for [`crate::mcts`]).
//!
//! The seed's network ([`crate::alphago::Network`]) stays as it is, in `f64` with numpy's
//! order of additions, so the seed's output stays byte-identical; this is its architecture
//! generalised: any board size, a pass output, a width and residual blocks.
//!
//! # Examples
//!
//! ```
//! use games::mcts::{Settings, Tree};
//! use games::nn::{Inference, Net, Shape, PLANES};
//! use games::tictactoe::Board;
//!
//! let shape = Shape { size: 3, planes: PLANES, width: 8, blocks: 1, hidden: 16, value_channels: 1, score: false };
//! let net = Net::random(shape, 1).unwrap();
//! let bytes = net.to_bytes("tictactoe");
//! let again = Net::from_bytes_for(&bytes, "tictactoe", Some(3), PLANES..=PLANES).unwrap();
//! assert_eq!(again, net);
//!
//! let tree = Tree::search(&Board::new(3).unwrap(), Settings::default(), &mut Inference::new(&net));
//! assert!(tree.best_move().is_some());
//! ```

mod encode;
mod net;
mod weights;

pub use encode::{
    cells_of, planes_for, planes_of, symmetry, DynamicKomi, Encode, Inference, ScoreUtility,
    KOMI_SCALE, PLANES,
};
pub use net::{
    conv3x3, masked_softmax, window, Activations, ConvLists, Layer, Layout, Net, Shape, ShapeError,
    MAX_BLOCKS, MAX_HIDDEN, MAX_PLANES, MAX_SIZE, MAX_VALUE_CHANNELS, MAX_WIDTH,
};
pub use weights::{fnv1a, WeightsError, MAGIC, VERSION};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Game;

    fn shape(size: usize) -> Shape {
        Shape {
            size,
            planes: PLANES,
            width: 6,
            blocks: 2,
            hidden: 8,
            value_channels: 1,
            score: false,
        }
    }

    #[test]
    fn the_eight_symmetries_are_distinct_permutations_and_a_group() {
        for size in [3, 6, 7] {
            let n = size * size;
            let mut images = Vec::new();
            for t in 0..8 {
                let image: Vec<usize> = (0..=n).map(|p| symmetry(size, t, p)).collect();
                let mut sorted = image.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..=n).collect::<Vec<_>>(), "t = {t} permutes");
                assert_eq!(image[n], n, "the pass stays");
                images.push(image);
            }
            images.sort();
            images.dedup();
            assert_eq!(images.len(), 8, "size {size}: eight different symmetries");
            // Composition stays in the set.
            for a in 0..8 {
                for b in 0..8 {
                    let composed: Vec<usize> = (0..=n)
                        .map(|p| symmetry(size, a, symmetry(size, b, p)))
                        .collect();
                    assert!(images.contains(&composed));
                }
            }
        }
    }

    /// `board` seen through symmetry `t`: the disc on point `p` moved to `symmetry(t, p)`.
    fn image(board: &crate::othello::Board, t: usize) -> crate::othello::Board {
        let n = board.size();
        let (mut black, mut white) = (0u64, 0u64);
        for p in 0..n * n {
            let q = symmetry(n, t, p);
            let bit = crate::othello::Square::new(q / n, q % n).bitboard().0;
            match board.at(crate::othello::Square::new(p / n, p % n)) {
                Some(crate::Color::Black) => black |= bit,
                Some(crate::Color::White) => white |= bit,
                None => {}
            }
        }
        crate::othello::Board::from_discs(
            n,
            crate::othello::Bitboard(black),
            crate::othello::Bitboard(white),
            board.side_to_move(),
        )
        .unwrap()
    }

    #[test]
    fn othello_rules_commute_with_the_symmetries() {
        // Moving to the image of a legal move in the transformed position is legal: the
        // symmetry the trainer's augmentation relies on.
        let mut board = crate::othello::Board::new(6).unwrap();
        for _ in 0..6 {
            let mv = board.legal_moves()[0];
            board = board.after(mv).unwrap();
        }
        let n = 6;
        let mut planes = vec![0.0; n * n * PLANES];
        board.encode(&mut planes);
        let legal: Vec<usize> = board
            .legal_moves()
            .iter()
            .map(|&m| board.move_index(m))
            .collect();
        for t in 0..8 {
            let image = image(&board, t);
            let mut moved: Vec<usize> = legal.iter().map(|&p| symmetry(n, t, p)).collect();
            moved.sort_unstable();
            let mut found: Vec<usize> = image
                .legal_moves()
                .iter()
                .map(|&m| image.move_index(m))
                .collect();
            found.sort_unstable();
            assert_eq!(moved, found, "symmetry {t}");
        }
    }

    /// The six planes a network with all of Othello's features sees for `board`.
    fn othello_planes(board: &crate::othello::Board) -> Vec<f32> {
        let n = board.size();
        let mut stones = vec![0.0; n * n * PLANES];
        board.encode(&mut stones);
        let mut cells = vec![0; n * n];
        cells_of(&stones, &mut cells);
        let count = PLANES + <crate::othello::Board as Encode>::FEATURES;
        let mut out = vec![0.0; n * n * count];
        planes_of::<crate::othello::Board>(n, &cells, 0, count, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn othello_features_are_the_two_mobilities_and_the_parity_and_move_with_the_board() {
        let mut board = crate::othello::Board::new(6).unwrap();
        let mut checked = 0;
        for k in 0..40 {
            if board.is_game_over() {
                break;
            }
            let n = board.size();
            let planes = othello_planes(&board);
            let mut other = board;
            other.set_side_to_move(board.side_to_move().opponent());
            let empties = board.empties().count();
            let mut stones = vec![0.0; n * n * PLANES];
            board.encode(&mut stones);
            for p in 0..n * n {
                let sq = crate::othello::Square::new(p / n, p % n);
                let cell = &planes[p * 6..][..6];
                assert_eq!(cell[..3], stones[p * 3..][..3], "ply {k}, {sq}: the stones");
                assert_eq!(
                    cell[3] == 1.0,
                    board.placements().contains(sq),
                    "ply {k}, {sq}"
                );
                assert_eq!(
                    cell[4] == 1.0,
                    other.placements().contains(sq),
                    "ply {k}, {sq}"
                );
                assert_eq!(cell[5] == 1.0, empties % 2 == 1, "ply {k}: parity");
            }
            checked += usize::from(other.placements().count() > 0);
            for t in 0..8 {
                let moved = othello_planes(&image(&board, t));
                for p in 0..n * n {
                    let q = symmetry(n, t, p);
                    assert_eq!(moved[q * 6..][..6], planes[p * 6..][..6], "ply {k}, t {t}");
                }
            }
            let moves = board.legal_moves();
            board = board.after(moves[(k * 7) % moves.len()]).unwrap();
        }
        assert!(checked > 20, "the opponent's mobility was seen: {checked}");
        // Fewer features: the first ones, in order.
        let mut cells = vec![2; 36];
        let (mut some, mut all) = (vec![0.0; 36 * 4], vec![0.0; 36 * 6]);
        cells[14] = 0;
        cells[15] = 1;
        planes_of::<crate::othello::Board>(6, &cells, 0, 4, &mut Vec::new(), &mut some);
        planes_of::<crate::othello::Board>(6, &cells, 0, 6, &mut Vec::new(), &mut all);
        for p in 0..36 {
            assert_eq!(some[p * 4..][..4], all[p * 6..][..4]);
        }
        assert_eq!(planes_for("othello"), 3..=7);
        assert_eq!(planes_for("go"), 3..=3);
    }

    #[test]
    fn a_network_with_features_sees_them_through_every_view() {
        let shape = Shape {
            planes: 6,
            ..shape(6)
        };
        let net = Net::random(shape, 11).unwrap();
        let mut board = crate::othello::Board::new(6).unwrap();
        for k in 0..9 {
            let moves = board.legal_moves();
            board = board.after(moves[k % moves.len()]).unwrap();
        }
        // The plain evaluation is the forward pass over the six planes.
        let mut act = Activations::new(&shape);
        act.input.copy_from_slice(&othello_planes(&board));
        net.forward(&mut act);
        let moves = board.legal_moves();
        let (_, value) = Inference::new(&net).policy_value(&board, &moves);
        assert_eq!(value, act.value);
        // The eight views agree on every image of the position.
        let mut averaged = Inference::averaged(&net);
        let (_, value) = averaged.policy_value(&board, &moves);
        for t in 0..8 {
            let image = image(&board, t);
            let (_, v) = averaged.policy_value(&image, &image.legal_moves());
            assert!(
                (v - value).abs() < 1e-5,
                "symmetry {t}: {v} against {value}"
            );
        }
        // And a weights file with six planes loads for Othello, not for Go.
        let bytes = net.to_bytes("othello");
        assert!(Net::from_bytes_for(&bytes, "othello", Some(6), planes_for("othello")).is_ok());
        let eight = Net::random(Shape { planes: 8, ..shape }, 1)
            .unwrap()
            .to_bytes("othello");
        let err =
            Net::from_bytes_for(&eight, "othello", Some(6), planes_for("othello")).unwrap_err();
        assert!(
            err.to_string().contains("with 8 planes, not 6x6 with 3-7"),
            "{err}"
        );
    }

    #[test]
    fn the_komi_plane_follows_the_features_and_the_komi_counts_in_finished_games() {
        use crate::mcts::Evaluator;
        let mut board = crate::othello::Board::new(6).unwrap();
        for k in 0..5 {
            let moves = board.legal_moves();
            board = board.after(moves[k % moves.len()]).unwrap();
        }
        let mut stones = vec![0.0; 36 * PLANES];
        board.encode(&mut stones);
        let mut cells = vec![0; 36];
        cells_of(&stones, &mut cells);
        let (mut six, mut seven) = (vec![0.0; 36 * 6], vec![0.0; 36 * 7]);
        planes_of::<crate::othello::Board>(6, &cells, -4, 6, &mut Vec::new(), &mut six);
        planes_of::<crate::othello::Board>(6, &cells, -4, 7, &mut Vec::new(), &mut seven);
        for p in 0..36 {
            assert_eq!(seven[p * 7..][..6], six[p * 6..][..6], "point {p}");
            assert_eq!(seven[p * 7 + 6], -4.0 / KOMI_SCALE, "point {p}");
        }
        // The network sees the komi of the side to move: White's is Black's negated.
        let net = Net::random(
            Shape {
                planes: 7,
                ..shape(6)
            },
            3,
        )
        .unwrap();
        let mut inference = Inference::new(&net);
        let moves = board.legal_moves();
        let plain = inference.policy_value(&board, &moves).1;
        inference.set_komi(4);
        let black_komi = inference.policy_value(&board, &moves).1;
        assert_ne!(plain, black_komi, "a network with the plane sees the komi");
        let side = board.side_to_move();
        let mut act = Activations::new(net.shape());
        let komi = if side == crate::Color::Black { 4 } else { -4 };
        planes_of::<crate::othello::Board>(6, &cells, komi, 7, &mut Vec::new(), &mut act.input);
        net.forward(&mut act);
        assert_eq!(black_komi, act.value);
        // A finished game: Black 20, White 16 (a 6x6 board filled row by row).
        let (mut black, mut white) = (0, 0);
        for p in 0..36 {
            let bit = crate::othello::Square::new(p / 6, p % 6).bitboard().0;
            if p < 20 {
                black |= bit;
            } else {
                white |= bit;
            }
        }
        let (black, white) = (
            crate::othello::Bitboard(black),
            crate::othello::Bitboard(white),
        );
        let done = crate::othello::Board::from_discs(6, black, white, crate::Color::White).unwrap();
        assert_eq!(done.score(), Some(-4), "White to move lost by 4");
        let at = |komi: i32| {
            let mut e = Inference::new(&net);
            e.set_komi(komi);
            Evaluator::terminal(&mut e, &done).unwrap()
        };
        // A komi for Black is taken from White's score; a negative one is White's.
        assert_eq!((at(0), at(-4), at(-6), at(2)), (-1.0, 0.0, 1.0, -1.0));
    }

    #[test]
    fn dynamic_komi_moves_the_komi_only_for_a_side_seen_behind_or_ahead() {
        use crate::mcts::Evaluator;
        let net = Net::random(
            Shape {
                planes: 7,
                ..shape(6)
            },
            4,
        )
        .unwrap();
        let mut board = crate::othello::Board::new(6).unwrap();
        for (plies, base) in [(0, 0), (1, 0), (4, 2), (5, -2)] {
            while board.empties().count() > 32 - plies {
                board = board.after(board.legal_moves()[0]).unwrap();
            }
            // The root's value at the set komi decides, against the thresholds.
            let mut plain = Inference::new(&net);
            plain.set_komi(base);
            let value = plain.policy_value(&board, &board.legal_moves()).1;
            let black = board.side_to_move() == crate::Color::Black;
            let mut inference = Inference::new(&net);
            inference.set_komi(base);
            // 3 points for the side to move when it is valued below -below.
            let behind = |below: f32| DynamicKomi {
                extra: 3,
                below,
                ..DynamicKomi::default()
            };
            // (the setting, the points the side to move gets)
            let cases = [
                (behind(-value - 0.01), 3),
                (behind(-value + 0.01), 0),
                (
                    DynamicKomi {
                        give: 2,
                        above: value - 0.01,
                        ..DynamicKomi::default()
                    },
                    -2,
                ),
                (
                    DynamicKomi {
                        give: 2,
                        above: value + 0.01,
                        ..DynamicKomi::default()
                    },
                    0,
                ),
                (
                    DynamicKomi {
                        give: 2,
                        above: value + 0.01,
                        ..behind(-value - 0.01)
                    },
                    3,
                ),
            ];
            for (dynamic, got) in cases {
                inference.use_dynamic_komi(dynamic);
                Evaluator::root(&mut inference, &board);
                let want = base + if black { got } else { -got };
                assert_eq!(
                    inference.komi(),
                    want,
                    "{plies} plies, value {value}, {dynamic:?}"
                );
                assert_eq!(inference.komi_for_root(&board), got);
            }
        }
        // Without dynamic komi a root changes nothing.
        let mut inference = Inference::new(&net);
        inference.set_komi(2);
        assert_eq!(inference.komi_for_root(&board), 0);
        assert_eq!(inference.komi(), 2);
    }

    /// The 6×6 Othello position `plies` moves from the start, playing move `step · k`
    /// (mod the number of moves) at ply `k`.
    fn othello_after(plies: usize, step: usize) -> crate::othello::Board {
        let mut board = crate::othello::Board::new(6).unwrap();
        for k in 0..plies {
            let moves = board.legal_moves();
            board = board.after(moves[(step * k) % moves.len()]).unwrap();
        }
        board
    }

    #[test]
    fn the_views_through_the_symmetries_average_to_one_answer_for_every_image() {
        let net = Net::random(shape(6), 5).unwrap();
        let board = othello_after(7, 1);
        let n = 6;
        let moves = board.legal_moves();
        let mut averaged = Inference::averaged(&net);
        let (policy, value) = averaged.policy_value(&board, &moves);
        let policy = policy.to_vec();
        let mut plain_values = Vec::new();
        for t in 0..8 {
            let image = image(&board, t);
            let image_moves = image.legal_moves();
            let (p, v) = averaged.policy_value(&image, &image_moves);
            assert!(
                (v - value).abs() < 1e-5,
                "symmetry {t}: value {v} against {value}"
            );
            for (i, &expected) in policy.iter().enumerate() {
                let found = p[symmetry(n, t, i)];
                assert!(
                    (found - expected).abs() < 1e-5,
                    "symmetry {t}, output {i}: {found} against {expected}"
                );
            }
            plain_values.push(Inference::new(&net).policy_value(&image, &image_moves).1);
        }
        // The plain network is not symmetric (else this test could not tell), and the
        // average of its eight views is the averaged value.
        assert!(plain_values.iter().any(|&v| v != plain_values[0]));
        let mean = plain_values.iter().sum::<f32>() / 8.0;
        assert!((mean - value).abs() < 1e-5, "{mean} against {value}");

        // One view at random: each answer is exactly one image's, and all eight come up.
        let mut random = Inference::random_views(&net, 9);
        let mut seen = [false; 8];
        for _ in 0..64 {
            let (p, v) = random.policy_value(&board, &moves);
            assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            let t = plain_values
                .iter()
                .position(|&x| x == v)
                .expect("the value of one of the eight views");
            seen[t] = true;
        }
        assert_eq!(seen, [true; 8]);
    }

    #[test]
    fn a_few_views_drawn_at_random_average_distinct_images_and_vary() {
        let net = Net::random(shape(6), 5).unwrap();
        let board = othello_after(9, 3);
        let moves = board.legal_moves();
        let plain: Vec<f32> = (0..8)
            .map(|t| {
                let image = image(&board, t);
                Inference::new(&net)
                    .policy_value(&image, &image.legal_moves())
                    .1
            })
            .collect();
        // The mean of the views in each subset of the eight (a bit per view).
        let subset_mean = |bits: u32| {
            let views = (0..8).filter(|t| bits >> t & 1 == 1);
            views.map(|t| plain[t]).sum::<f32>() / bits.count_ones() as f32
        };
        for count in 1..=8 {
            let mut sampled = Inference::sampled_views(&net, count, 11);
            let mut subsets = Vec::new();
            for _ in 0..40 {
                let (p, v) = sampled.policy_value(&board, &moves);
                assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
                let found: Vec<u32> = (1u32..256)
                    .filter(|b| b.count_ones() as usize == count)
                    .filter(|&b| (subset_mean(b) - v).abs() < 1e-6)
                    .collect();
                assert!(
                    !found.is_empty(),
                    "{count} views: {v} is no mean of {count} distinct views"
                );
                subsets.extend(found);
            }
            subsets.sort_unstable();
            subsets.dedup();
            // Drawn afresh each time: several subsets come up (all eight is one subset).
            let expected = if count == 8 { 1 } else { 4 };
            assert!(
                subsets.len() >= expected,
                "{count} views: only {} subsets in 40 evaluations",
                subsets.len()
            );
        }
        // One view is random_views, all eight averaged, evaluation after evaluation.
        let (mut one, mut random) = (
            Inference::sampled_views(&net, 1, 3),
            Inference::random_views(&net, 3),
        );
        let (mut eight, mut averaged) = (
            Inference::sampled_views(&net, 8, 3),
            Inference::averaged(&net),
        );
        for _ in 0..16 {
            assert_eq!(
                one.policy_value(&board, &moves).1,
                random.policy_value(&board, &moves).1
            );
            let (p, v) = eight.policy_value(&board, &moves);
            let p = p.to_vec();
            assert_eq!((p.as_slice(), v), averaged.policy_value(&board, &moves));
        }
    }

    #[test]
    fn weights_round_trip_and_every_corruption_is_refused() {
        let net = Net::random(shape(3), 7).unwrap();
        let bytes = net.to_bytes("tictactoe");
        assert_eq!(
            Net::from_bytes(&bytes).unwrap(),
            (net.clone(), "tictactoe".to_string())
        );

        let err = |b: &[u8]| Net::from_bytes(b).unwrap_err();
        assert_eq!(err(&[]), WeightsError::TooShort(0));
        assert_eq!(err(&bytes[..40]), WeightsError::TooShort(40));
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(err(&bad), WeightsError::Magic);
        let mut bad = bytes.clone();
        bad[8] = 4;
        assert_eq!(err(&bad), WeightsError::Version(4));
        let mut bad = bytes.clone();
        bad[8] = 0;
        assert_eq!(err(&bad), WeightsError::Version(0));
        let mut bad = bytes.clone();
        bad[12] = 0xff;
        assert_eq!(err(&bad), WeightsError::GameName);
        let mut bad = bytes.clone();
        bad[28..32].copy_from_slice(&1000u32.to_le_bytes());
        assert!(matches!(err(&bad), WeightsError::Shape(_)));
        let mut bad = bytes.clone();
        bad[36..40].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(
            matches!(err(&bad), WeightsError::Shape(_)),
            "absurd width refused before allocating"
        );
        let mut bad = bytes.clone();
        bad[48..52].copy_from_slice(&5u32.to_le_bytes());
        assert!(matches!(err(&bad), WeightsError::Count { found: 5, .. }));
        assert!(matches!(
            err(&bytes[..bytes.len() - 1]),
            WeightsError::Length { .. }
        ));
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(err(&long), WeightsError::Length { .. }));
        let mut bad = bytes.clone();
        bad[60] ^= 1;
        assert_eq!(err(&bad), WeightsError::Checksum);
        // A NaN with a checksum that matches it: refused for the value, not the sum.
        let mut nan = net.clone();
        nan.params[3] = f32::NAN;
        assert_eq!(err(&nan.to_bytes("tictactoe")), WeightsError::NotFinite(3));

        let wrong = Net::from_bytes_for(&bytes, "othello", Some(3), PLANES..=PLANES).unwrap_err();
        assert!(
            wrong
                .to_string()
                .contains("weights for tictactoe, not othello"),
            "{wrong}"
        );
        let size = Net::from_bytes_for(&bytes, "tictactoe", Some(4), PLANES..=PLANES).unwrap_err();
        assert!(matches!(size, WeightsError::Shape(_)), "{size}");
    }

    #[test]
    fn a_value_head_of_several_channels_is_format_2_and_one_channel_stays_format_1() {
        // One channel: version 1, the header of 52 bytes (files written before version 2
        // existed read the same and are written again byte for byte).
        let one = Net::random(shape(3), 7).unwrap();
        let bytes = one.to_bytes("tictactoe");
        assert_eq!(bytes[8..12], 1u32.to_le_bytes());
        assert_eq!(bytes.len(), 52 + 4 * one.params.len() + 8);

        let three = Shape {
            value_channels: 3,
            ..shape(3)
        };
        let net = Net::random(three, 7).unwrap();
        assert_eq!(
            net.params.len(),
            one.params.len() + 6 * 2 + 2 + 9 * 2 * 8,
            "two more 1x1 output channels (6 weights and a bias each) and 2 x 9 more inputs \
             to the 8 hidden units"
        );
        let bytes = net.to_bytes("tictactoe");
        assert_eq!(bytes[8..12], 2u32.to_le_bytes());
        assert_eq!(bytes[48..52], 3u32.to_le_bytes());
        assert_eq!(bytes.len(), 56 + 4 * net.params.len() + 8);
        let (again, game) = Net::from_bytes(&bytes).unwrap();
        assert_eq!((again.shape(), game.as_str()), (&three, "tictactoe"));
        assert_eq!(again, net);

        // The same network computes with its channels: they change the value.
        let board = crate::tictactoe::Board::new(3).unwrap();
        let moves = board.legal_moves();
        let v3 = Inference::new(&net).policy_value(&board, &moves).1;
        let mut fewer = net.clone();
        let l = fewer.layout().value_conv;
        // Channel 2's weights and bias (stored [in][out]) zeroed: ReLU makes it 0.
        for i in 0..l.inputs {
            fewer.params[l.w + i * l.outputs + 2] = 0.0;
        }
        fewer.params[l.b + 2] = -1.0;
        let v2 = Inference::new(&fewer).policy_value(&board, &moves).1;
        assert_ne!(v3, v2);

        let err = |b: &[u8]| Net::from_bytes(b).unwrap_err();
        assert_eq!(err(&bytes[..60]), WeightsError::TooShort(60));
        let mut bad = bytes.clone();
        bad[48..52].copy_from_slice(&0u32.to_le_bytes());
        assert!(matches!(err(&bad), WeightsError::Shape(_)));
        let mut bad = bytes.clone();
        bad[48..52].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(
            matches!(err(&bad), WeightsError::Shape(_)),
            "absurd value channels refused before allocating"
        );
        let mut bad = bytes.clone();
        bad[52..56].copy_from_slice(&5u32.to_le_bytes());
        assert!(matches!(err(&bad), WeightsError::Count { found: 5, .. }));
        let mut bad = bytes.clone();
        bad[8] = 1;
        // Read as version 1, the channels (3) stand where the count is.
        assert!(matches!(err(&bad), WeightsError::Count { found: 3, .. }));
    }

    #[test]
    fn a_score_head_is_format_3_and_a_second_output_of_the_value_layer() {
        let plain = Net::random(shape(6), 7).unwrap();
        let scored = Shape {
            score: true,
            ..shape(6)
        };
        let mut net = Net::random(scored, 7).unwrap();
        assert_eq!(
            net.params.len(),
            plain.params.len() + 8 + 1,
            "one more output of the last value layer: 8 hidden inputs and a bias"
        );
        // The same weights as `plain`, the value output's column and bias included, and a
        // score column of its own: the value must not change.
        let (to, from) = (net.layout().value_out, plain.layout().value_out);
        net.params[..to.w].copy_from_slice(&plain.params[..from.w]);
        for i in 0..to.inputs {
            net.params[to.w + 2 * i] = plain.params[from.w + i];
            net.params[to.w + 2 * i + 1] = 0.05 * (i as f32 - 3.0);
        }
        net.params[to.b] = plain.params[from.b];
        net.params[to.b + 1] = 0.1;
        let board = crate::othello::Board::new(6).unwrap();
        let moves = board.legal_moves();
        let mut with = Inference::new(&net);
        let mut without = Inference::new(&plain);
        assert_eq!(
            with.policy_value(&board, &moves),
            without.policy_value(&board, &moves)
        );
        let mut act = Activations::new(&scored);
        board.encode(&mut act.input);
        net.forward(&mut act);
        let pre: f32 = 0.1
            + act
                .hidden
                .iter()
                .enumerate()
                .map(|(i, h)| h * 0.05 * (i as f32 - 3.0))
                .sum::<f32>();
        assert!((act.score - pre.tanh()).abs() < 1e-6, "{}", act.score);
        assert!((with.score() - 36.0 * act.score).abs() < 1e-4, "in discs");
        assert_eq!(without.score(), 0.0, "no head, no score");

        let bytes = net.to_bytes("othello");
        assert_eq!(bytes[8..12], 3u32.to_le_bytes());
        assert_eq!(bytes[52..56], 1u32.to_le_bytes());
        assert_eq!(bytes.len(), 60 + 4 * net.params.len() + 8);
        assert_eq!(
            Net::from_bytes(&bytes).unwrap(),
            (net.clone(), "othello".into())
        );
        assert_eq!(plain.to_bytes("othello")[8..12], 1u32.to_le_bytes());
        let err = |b: &[u8]| Net::from_bytes(b).unwrap_err();
        assert_eq!(err(&bytes[..64]), WeightsError::TooShort(64));
        let mut bad = bytes.clone();
        bad[52..56].copy_from_slice(&2u32.to_le_bytes());
        assert!(
            matches!(err(&bad), WeightsError::Shape(_)),
            "{:?}",
            err(&bad)
        );
        let mut bad = bytes.clone();
        bad[52..56].copy_from_slice(&0u32.to_le_bytes());
        assert!(
            matches!(err(&bad), WeightsError::Count { .. }),
            "a file that says no head has 9 parameters too many"
        );
    }

    #[test]
    fn the_score_utility_is_centred_on_the_root_and_joins_finished_games_too() {
        use crate::mcts::Evaluator;
        use crate::othello::{Bitboard, Board, Square};
        use crate::Color;
        let scored = Shape {
            score: true,
            ..shape(6)
        };
        let net = Net::random(scored, 5).unwrap();
        let mut inference = Inference::new(&net);
        let root = Board::new(6).unwrap();
        let moves = root.legal_moves();
        let mut priors = Vec::new();
        let value = f64::from(inference.policy_value(&root, &moves).1);
        let margin = f64::from(inference.score());
        assert_ne!(margin, 0.0, "a random head expects some margin");
        assert_eq!(inference.evaluate(&root, &moves, &mut priors), value);

        let (weight, scale) = (0.5, 2.0);
        inference.use_score(weight, scale);
        Evaluator::<Board>::root(&mut inference, &root);
        assert_eq!(
            inference.utility().map(|u| (u.center, u.side)),
            Some((margin, Color::Black))
        );
        // At the root the expected margin is the centre: nothing is added.
        assert!((inference.evaluate(&root, &moves, &mut priors) - value).abs() < 1e-9);
        // White to move after Black's move: White's centre is minus Black's.
        let child = root.after(moves[0]).unwrap();
        let replies = child.legal_moves();
        let v = f64::from(inference.policy_value(&child, &replies).1);
        let s = f64::from(inference.score());
        let expected = v + weight * std::f64::consts::FRAC_2_PI * ((s + margin) / scale).atan();
        let got = inference.evaluate(&child, &replies, &mut priors);
        assert!((got - expected).abs() < 1e-9, "{got} against {expected}");
        assert!((got - v).abs() > 1e-3, "the utility moved the value");

        // A finished game, Black 20 to White 16: its real margin, for whoever is to move.
        let squares: Vec<u64> = (0..36)
            .map(|p| Square::new(p / 6, p % 6).bitboard().0)
            .collect();
        let black = squares[..20].iter().fold(0, |a, b| a | b);
        let white = squares[20..].iter().fold(0, |a, b| a | b);
        for (side, result) in [(Color::Black, 4.0), (Color::White, -4.0)] {
            let end = Board::from_discs(6, Bitboard(black), Bitboard(white), side).unwrap();
            let centre = if side == Color::Black {
                margin
            } else {
                -margin
            };
            let expected = f64::signum(result)
                + weight * std::f64::consts::FRAC_2_PI * ((result - centre) / scale).atan();
            let got = inference.terminal(&end).unwrap();
            assert!(
                (got - expected).abs() < 1e-9,
                "{side:?}: {got} against {expected}"
            );
        }
        assert_eq!(inference.terminal(&root), None);
        // A drawn game, 18 to 18: 0 without the utility, the utility alone with it.
        let black = squares[..18].iter().fold(0, |a, b| a | b);
        let white = squares[18..].iter().fold(0, |a, b| a | b);
        let draw = Board::from_discs(6, Bitboard(black), Bitboard(white), Color::White).unwrap();
        let got = inference.terminal(&draw).unwrap();
        let expected = weight * std::f64::consts::FRAC_2_PI * ((0.0 + margin) / scale).atan();
        assert!(
            (got - expected).abs() < 1e-9,
            "draw: {got} against {expected}"
        );
        assert_eq!(Inference::new(&net).terminal(&draw), Some(0.0));
    }

    #[test]
    fn with_the_score_utility_the_search_tells_a_big_win_from_a_small_one() {
        use crate::mcts::{Settings, Tree};
        use crate::search::{alpha_beta, FULL_WINDOW};
        // Endgames of random 6×6 games, 4 empties from the end, where the side to move has
        // two winning moves or more and not all win by as much. A value of wins and losses
        // alone cannot tell them apart; the utility of the margins at the finished games
        // below can, once the search has seen them all (20,000 iterations: it then picks
        // the biggest win in every one of these endgames, and in about half without). The
        // margins of random games are large (10 to 24 discs), hence a scale of 8.
        let mut net = Net::random(
            Shape {
                score: true,
                ..shape(6)
            },
            3,
        )
        .unwrap();
        // A head that expects a margin of 0 everywhere (its weights and bias zeroed): the
        // utility is centred on 0 and learns nothing from the leaves, only from the ends.
        let out = net.layout().value_out;
        for i in 0..out.inputs {
            net.params[out.w + 2 * i + 1] = 0.0;
        }
        net.params[out.b + 1] = 0.0;
        let settings = Settings {
            iterations: 20000,
            c_puct: 1.5,
            ..Settings::default()
        };
        let mut rng = crate::rng::Rng::new(4);
        let (mut found, mut with, mut without) = (0, 0, 0);
        for _ in 0..300 {
            let mut board = crate::othello::Board::new(6).unwrap();
            while !board.is_game_over() && board.empties().count() > 4 {
                let moves = board.legal_moves();
                board = board.after(moves[rng.below(moves.len())]).unwrap();
            }
            let moves = board.legal_moves();
            let margins: Vec<i32> = moves
                .iter()
                .map(|&m| -alpha_beta(&board.after(m).unwrap(), FULL_WINDOW).value)
                .collect();
            let best = margins.iter().copied().max().unwrap_or(0);
            let wins = margins.iter().filter(|&&m| m > 0).count();
            if wins < 2 || margins.iter().filter(|&&m| m > 0).all(|&m| m == best) {
                continue;
            }
            found += 1;
            let margin_of = |mv| margins[moves.iter().position(|&m| m == mv).unwrap()];
            let mut plain = Inference::new(&net);
            let mv = Tree::search(&board, settings, &mut plain)
                .best_move()
                .unwrap();
            without += usize::from(margin_of(mv) == best);
            let mut scored = Inference::new(&net);
            scored.use_score(0.5, 8.0);
            let mv = Tree::search(&board, settings, &mut scored)
                .best_move()
                .unwrap();
            with += usize::from(margin_of(mv) == best);
        }
        assert!(found >= 20, "{found} such endgames");
        assert!(
            with * 10 >= found * 9 && without * 10 <= found * 8,
            "the biggest win in {with} of {found} with the utility, {without} without"
        );
    }

    #[test]
    fn the_policy_is_a_distribution_over_the_legal_moves() {
        let net = Net::random(shape(6), 3).unwrap();
        let board = crate::othello::Board::new(6).unwrap();
        let moves = board.legal_moves();
        let mut inference = Inference::new(&net);
        let (policy, value) = inference.policy_value(&board, &moves);
        let legal: Vec<usize> = moves.iter().map(|&m| board.move_index(m)).collect();
        let total: f32 = policy.iter().sum();
        assert!((total - 1.0).abs() < 1e-5, "{total}");
        for (i, &p) in policy.iter().enumerate() {
            assert_eq!(p > 0.0, legal.contains(&i), "output {i}");
        }
        assert!(value.abs() < 1.0);
    }

    /// The convolution as the formula says it, one output at a time: `bias + Σ x · w` over
    /// the window in (tap, input channel) order.
    fn plain_conv3x3(input: &[f32], w: &[f32], bias: &[f32], size: usize) -> Vec<f32> {
        let cout = bias.len();
        let cin = input.len() / (size * size);
        let mut out = Vec::new();
        for r in 0..size {
            for c in 0..size {
                for (co, &b) in bias.iter().enumerate() {
                    let mut sum = b;
                    for (tap, q) in window(size, r, c) {
                        for ci in 0..cin {
                            sum += input[q * cin + ci] * w[(tap * cin + ci) * cout + co];
                        }
                    }
                    out.push(sum);
                }
            }
        }
        out
    }

    #[test]
    fn the_blocked_convolution_equals_the_plain_one_to_the_last_bit() {
        let mut rng = crate::rng::Rng::new(9);
        // 57 outputs take every block size (32, 16, 8, 1); zeros in the input are skipped.
        for (size, cin, cout) in [(1, 1, 1), (3, 5, 16), (6, 7, 57), (7, 40, 33)] {
            let mut value = |zero_share: f64| {
                if rng.unit() < zero_share {
                    0.0
                } else {
                    rng.normal() as f32
                }
            };
            let input: Vec<f32> = (0..size * size * cin).map(|_| value(0.4)).collect();
            let w: Vec<f32> = (0..9 * cin * cout).map(|_| value(0.0)).collect();
            let bias: Vec<f32> = (0..cout).map(|_| value(0.0)).collect();
            let mut out = vec![f32::NAN; size * size * cout];
            conv3x3(&input, &w, &bias, size, &mut out, &mut ConvLists::default());
            let plain = plain_conv3x3(&input, &w, &bias, size);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&out), bits(&plain), "{size}x{size}, {cin} -> {cout}");
        }
    }

    #[test]
    fn shapes_outside_the_limits_are_refused() {
        for bad in [
            Shape {
                size: 0,
                ..shape(3)
            },
            Shape {
                size: 20,
                ..shape(3)
            },
            Shape {
                width: 0,
                ..shape(3)
            },
            Shape {
                blocks: 21,
                ..shape(3)
            },
            Shape {
                hidden: 0,
                ..shape(3)
            },
            Shape {
                value_channels: 0,
                ..shape(3)
            },
            Shape {
                value_channels: 33,
                ..shape(3)
            },
        ] {
            assert!(Net::random(bad, 1).is_err(), "{bad:?}");
        }
        assert!(Net::from_params(shape(3), vec![0.0; 3]).is_err());
    }
}
