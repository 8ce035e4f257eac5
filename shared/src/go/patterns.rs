//! The 3×3 shapes that heavy playouts answer near the last move: the hane, cut and edge
//! patterns of MoGo (Gelly, Wang, Munos and Teytaud, "Modification of UCT with Patterns in
//! Monte-Carlo Go", 2006), in the list michi plays them. A point matches when its eight
//! neighbours fit one of the shapes in any of the eight rotations and reflections, with the
//! colours either way round.
//!
//! The table is built at compile time: one bit per arrangement of the eight neighbours, each
//! neighbour 2 bits (the board's cell codes: empty 0, black 1, white 2, edge 3), in
//! row-major order without the centre.

use super::board::{Board, EMPTY};
use super::Point;

/// The shapes, row-major, centre (always empty: the move) in the middle. `X` and `O` are
/// stones of the two colours, `.` empty, `x` anything but an `X` stone, `o` anything but an
/// `O` stone, `?` anything, and a space the edge of the board.
const SHAPES: [&[u8; 9]; 13] = [
    b"XOX...???", // hane: enclosing hane
    b"XO....?.?", // hane: non-cutting hane
    b"XO?X..x.?", // hane: magari
    b".O.X.....", // katatsuke or diagonal attachment
    b"XO?O.o?o?", // cut: unprotected cut
    b"XO?O.X???", // cut: peeped cut
    b"?X?O.Oooo", // cut: de
    b"OX?o.O???", // cut: keima
    b"X.?O.?   ", // edge: chase
    b"OX?X.O   ", // edge: block the side cut
    b"?X?x.O   ", // edge: block the side connection
    b"?XOx.x   ", // edge: sagari
    b"?OXX.O   ", // edge: cut
];

/// One bit per arrangement of a point's eight neighbours: whether it matches a shape.
static TABLE: [u64; 1024] = build();

/// Whether the empty point `p` of `board` is the centre of one of the shapes.
#[inline]
pub(super) fn matches(board: &Board, p: usize) -> bool {
    let s = usize::from(board.stride);
    let cell = |q: usize| usize::from(board.c.color[q]);
    let code = cell(p - s - 1)
        | cell(p - s) << 2
        | cell(p - s + 1) << 4
        | cell(p - 1) << 6
        | cell(p + 1) << 8
        | cell(p + s - 1) << 10
        | cell(p + s) << 12
        | cell(p + s + 1) << 14;
    TABLE[code >> 6] >> (code & 63) & 1 == 1
}

impl Board {
    /// Whether the empty point `p` is the centre of one of MoGo's 3×3 shapes (hane, cuts,
    /// edge moves) that heavy playouts answer near the last move; false on a stone.
    pub fn fits_shape(&self, p: Point) -> bool {
        let p = usize::from(p.0);
        self.c.color[p] == EMPTY && matches(self, p)
    }
}

/// The cell codes (as a set of bits 0..4: empty, black, white, edge) that `symbol` allows,
/// with `X` black unless `swap`.
const fn allowed(symbol: u8, swap: bool) -> u8 {
    let (x, o) = if swap {
        (1 << 2, 1 << 1)
    } else {
        (1 << 1, 1 << 2)
    };
    match symbol {
        b'X' => x,
        b'O' => o,
        b'.' => 1,
        b' ' => 1 << 3,
        b'x' => 0b1111 & !x,
        b'o' => 0b1111 & !o,
        _ => 0b1111,
    }
}

/// The cell (row, column) of a shape that lands on (r, c) under symmetry `t` (bit 0 flips
/// the rows, bit 1 the columns, bit 2 transposes).
const fn transform(r: usize, c: usize, t: usize) -> (usize, usize) {
    let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
    let r = if t & 1 != 0 { 2 - r } else { r };
    let c = if t & 2 != 0 { 2 - c } else { c };
    (r, c)
}

const fn build() -> [u64; 1024] {
    let mut table = [0u64; 1024];
    let mut s = 0;
    while s < SHAPES.len() {
        let mut variant = 0;
        while variant < 16 {
            // The codes each of the eight neighbours may hold in this variant.
            let mut masks = [0u8; 8];
            let mut slot = 0;
            let mut cell = 0;
            while cell < 9 {
                if cell != 4 {
                    let (r, c) = transform(cell / 3, cell % 3, variant & 7);
                    masks[slot] = allowed(SHAPES[s][r * 3 + c], variant >= 8);
                    slot += 1;
                }
                cell += 1;
            }
            // Every arrangement the masks allow, odometer-wise.
            let mut choice = [0u8; 8];
            let mut k = 0;
            while k < 8 {
                choice[k] = lowest(masks[k], 0);
                k += 1;
            }
            loop {
                let mut code = 0usize;
                let mut k = 0;
                while k < 8 {
                    code |= (choice[k] as usize) << (2 * k);
                    k += 1;
                }
                table[code >> 6] |= 1 << (code & 63);
                let mut k = 0;
                while k < 8 {
                    let next = lowest(masks[k], choice[k] + 1);
                    if next < 4 {
                        choice[k] = next;
                        break;
                    }
                    choice[k] = lowest(masks[k], 0);
                    k += 1;
                }
                if k == 8 {
                    break;
                }
            }
            variant += 1;
        }
        s += 1;
    }
    table
}

/// The smallest code at or above `from` in `mask`, or 4 when there is none.
const fn lowest(mask: u8, from: u8) -> u8 {
    let mut code = from;
    while code < 4 && mask & (1 << code) == 0 {
        code += 1;
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the centre of a 3×3 board drawn as text matches (`X` black, `O` white).
    fn centre_matches(rows: &str) -> bool {
        let board: Board = rows.parse().expect("a 3x3 board");
        let p = board.point(1, 1).expect("the centre");
        matches(&board, p.index())
    }

    #[test]
    fn a_hane_matches_in_every_orientation_and_colour() {
        // X O X / . . . / . . . and its turns and colour swap.
        for rows in [
            "X O X\n. . .\n. . .",
            ". . .\n. . .\nX O X",
            "X . .\nO . .\nX . .",
            ". . O\n. . X\n. . O",
        ] {
            assert!(centre_matches(rows), "{rows}");
        }
    }

    #[test]
    fn empty_surroundings_and_lone_stones_do_not_match() {
        for rows in [
            ". . .\n. . .\n. . .",
            "X . .\n. . .\n. . .",
            ". . .\n. . .\n. . O",
        ] {
            assert!(!centre_matches(rows), "{rows}");
        }
    }

    #[test]
    fn an_edge_shape_matches_on_the_edge() {
        // Chase along the edge: X above-left, O to the left, the edge below.
        let board: Board = ". . . .\n. . . .\nX . . .\nO . . ."
            .parse()
            .expect("a board");
        assert!(matches(
            &board,
            board.point(3, 1).expect("edge point").index()
        ));
    }

    /// The shapes matched the slow way: the neighbourhood drawn as 9 characters, each shape
    /// turned a quarter at a time and mirrored as text, the colours swapped by letter.
    fn slow_match(code: usize) -> bool {
        let mut grid = [b'.'; 9];
        let mut slot = 0;
        for (cell, g) in grid.iter_mut().enumerate() {
            if cell == 4 {
                continue;
            }
            *g = [b'.', b'X', b'O', b' '][(code >> (2 * slot)) & 3];
            slot += 1;
        }
        let fits = |symbol: u8, have: u8| match symbol {
            b'?' => true,
            b'x' => have != b'X',
            b'o' => have != b'O',
            s => s == have,
        };
        SHAPES.iter().any(|shape| {
            let mut s: Vec<u8> = shape.to_vec();
            (0..2).any(|_mirror| {
                let found = (0..4).any(|_turn| {
                    let turned: Vec<u8> = (0..9).map(|i| s[(2 - i % 3) * 3 + i / 3]).collect();
                    s = turned;
                    let swapped: Vec<u8> = s
                        .iter()
                        .map(|&c| match c {
                            b'X' => b'O',
                            b'O' => b'X',
                            b'x' => b'o',
                            b'o' => b'x',
                            c => c,
                        })
                        .collect();
                    [&s, &swapped]
                        .iter()
                        .any(|v| v.iter().zip(grid.iter()).all(|(&a, &b)| fits(a, b)))
                });
                s = (0..9).map(|i| s[(i / 3) * 3 + 2 - i % 3]).collect();
                found
            })
        })
    }

    #[test]
    fn the_table_equals_matching_shape_by_shape() {
        let board_codes = 1usize << 16;
        let mut matched = 0;
        for code in 0..board_codes {
            let fast = TABLE[code >> 6] >> (code & 63) & 1 == 1;
            assert_eq!(fast, slow_match(code), "neighbourhood code {code:#06x}");
            matched += usize::from(fast);
        }
        // Some but far from all arrangements are shapes.
        assert!(matched > 100 && matched < board_codes / 4, "{matched}");
    }
}
