#!/usr/bin/env python3
"""Independent tic-tac-toe oracle for the test data, sharing no code with the Rust crate.

  tictactoe.py tictactoe < case.in   the tictactoe solver's output, with seed 001's own
                                     TicTacToe class (run from ../shared/seeds/001_*.txt)
                                     for the rules and drawing, plus a minimax and a
                                     fail-soft negamax alpha-beta written here
  tictactoe.py boj16571 < case.in    W / D / L by minimax
  tictactoe.py boj7682 < case.in     valid / invalid by enumerating every finished game
  tictactoe.py boj4664 < case.in     the first winning move by a memoised forced-win search
"""
import functools
import glob
import io
import os
import sys
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))


def seed_class():
    """Seed 001's TicTacToe class, taken from the seed's text and run as written."""
    [seed] = glob.glob(os.path.join(HERE, "../../../shared/seeds/001_*.txt"))
    text = open(seed, encoding="utf-8").read()
    code = text.split("class TicTacToe:", 1)[1].split("# === 테스트", 1)[0]
    scope = {}
    exec("class TicTacToe:" + code, scope)
    return scope["TicTacToe"]


def minimax(g, counter):
    """Value for the side to move (+1 win), the first best move, counting nodes."""
    counter[0] += 1
    if g.is_terminal():
        return -1 if g.winner() in ("X", "O") else 0, None
    best, best_move = -2, None
    for m in g.possible_moves():
        v = -minimax(g.play(m), counter)[0]
        if v > best:
            best, best_move = v, m
    return best, best_move


def alphabeta(g, alpha, beta, counter):
    counter[0] += 1
    if g.is_terminal():
        return -1 if g.winner() in ("X", "O") else 0
    best = -3
    for m in g.possible_moves():
        v = -alphabeta(g.play(m), -beta, -alpha, counter)
        if v > best:
            best = v
            alpha = max(alpha, v)
            if alpha >= beta:
                break
    return best


def tictactoe():
    T = seed_class()
    rows = sys.stdin.read().split()
    cells = [T.EMPTY if ch == "." else ch for row in rows for ch in row]
    x, o = cells.count("X"), cells.count("O")
    g = T(cells, T.X if x == o else T.O)
    buf = io.StringIO()
    with redirect_stdout(buf):
        g.show()
    out = buf.getvalue()
    w = g.winner()
    out += f"winner: {w if w else 'none'}\n"
    if w is None:
        counter = [0]
        value, best = minimax(g, counter)
        ab = [0]
        alphabeta(g, -2, 2, ab)
        out += f"to move: {g.turn}\n"
        out += f"best move: {best} ({best // 3}, {best % 3})\n"
        out += f"value for {g.turn}: {['-1', '0', '+1'][value + 1]} ({['loss', 'draw', 'win'][value + 1]})\n"
        out += f"minimax nodes: {counter[0]}\nalpha-beta nodes: {ab[0]}\n"
    sys.stdout.write(out)


def boj16571():
    T = seed_class()
    vals = sys.stdin.read().split()
    cells = [{"0": T.EMPTY, "1": "X", "2": "O"}[v] for v in vals]
    g = T(cells, T.X if cells.count("X") == cells.count("O") else T.O)
    print("LDW"[minimax(g, [0])[0] + 1])


def finished_positions():
    """Every position where a game can end, by playing every game."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    seen, finals = set(), set()

    def walk(cells, turn):
        key = "".join(cells)
        if key in seen:
            return
        seen.add(key)
        won = any(cells[a] != "." and cells[a] == cells[b] == cells[c] for a, b, c in lines)
        if won or "." not in cells:
            finals.add(key)
            return
        for i in range(9):
            if cells[i] == ".":
                cells[i] = turn
                walk(cells, "O" if turn == "X" else "X")
                cells[i] = "."

    walk(["."] * 9, "X")
    return finals


def boj7682():
    finals = finished_positions()
    for line in sys.stdin.read().split():
        if line == "end":
            break
        print("valid" if line in finals else "invalid")


LINES4 = [sum(1 << (4 * r + c) for c in range(4)) for r in range(4)] + \
         [sum(1 << (4 * r + c) for r in range(4)) for c in range(4)] + \
         [sum(1 << (5 * i) for i in range(4)), sum(1 << (4 * i + 3 - i) for i in range(4))]


@functools.lru_cache(maxsize=None)
def x_forces_win(x, o):
    """x to move: can x force four in a row?"""
    full = 0xFFFF
    for i in range(16):
        bit = 1 << i
        if (x | o) & bit:
            continue
        nx = x | bit
        if any(nx & l == l for l in LINES4):
            return True
        if (nx | o) == full:
            continue
        if all(o_loses_after(nx, o, j) for j in range(16) if not (nx | o) & (1 << j)):
            return True
    return False


def o_loses_after(x, o, j):
    no = o | (1 << j)
    if any(no & l == l for l in LINES4):
        return False
    if (x | no) == 0xFFFF:
        return False
    return x_forces_win(x, no)


def boj4664():
    tok = sys.stdin.read().split()
    i = 0
    while tok[i] != "$":
        rows = tok[i + 1:i + 5]
        i += 5
        x = sum(1 << (4 * r + c) for r in range(4) for c in range(4) if rows[r][c] == "x")
        o = sum(1 << (4 * r + c) for r in range(4) for c in range(4) if rows[r][c] == "o")
        answer = "#####"
        for cell in range(16):
            bit = 1 << cell
            if (x | o) & bit:
                continue
            nx = x | bit
            if any(nx & l == l for l in LINES4) or (
                (nx | o) != 0xFFFF
                and all(o_loses_after(nx, o, j) for j in range(16) if not (nx | o) & (1 << j))
            ):
                answer = f"({cell // 4},{cell % 4})"
                break
        print(answer)


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    {"tictactoe": tictactoe, "boj16571": boj16571, "boj7682": boj7682, "boj4664": boj4664}[sys.argv[1]]()
