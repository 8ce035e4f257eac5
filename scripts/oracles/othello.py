#!/usr/bin/env python3
"""Independent Othello oracle for the test data: a cell-walking simulator in Python that
shares no code with the Rust crate.

  othello.py game SIZE SEED [--passes] [--moves K]  random legal game, printed as (colour, r, c)
  othello.py swea < input                           answers a swea4615 input (#t black white)
  othello.py boj15671-seed < input                  runs the seed's accepted Python solution
                                                    (../shared/seeds/002_*.txt) on a boj15671 input

Used to make testdata/boj15671/rand-*.out and testdata/swea4615/*.out; see README.md.
"""
import glob
import os
import random
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def start(n):
    g = [["."] * n for _ in range(n)]
    h = n // 2
    g[h - 1][h - 1] = g[h][h] = "W"
    g[h - 1][h] = g[h][h - 1] = "B"
    return g


def flips(g, r, c, me):
    n = len(g)
    if g[r][c] != ".":
        return []
    you = "W" if me == "B" else "B"
    out = []
    for dr, dc in DIRS:
        line = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < n and 0 <= cc < n and g[rr][cc] == you:
            line.append((rr, cc))
            rr += dr
            cc += dc
        if line and 0 <= rr < n and 0 <= cc < n and g[rr][cc] == me:
            out.extend(line)
    return out


def legal(g, me):
    n = len(g)
    return [(r, c) for r in range(n) for c in range(n) if flips(g, r, c, me)]


def place(g, r, c, me):
    f = flips(g, r, c, me)
    if not f:
        raise ValueError(f"{me} at ({r + 1}, {c + 1}) flips nothing")
    g[r][c] = me
    for rr, cc in f:
        g[rr][cc] = me


def random_game(n, seed, moves=None):
    """Random legal game to the end (or `moves` placements); passes happen when forced."""
    rng = random.Random(seed)
    g = start(n)
    me = "B"
    seq = []
    passes = 0
    while moves is None or len(seq) < moves:
        options = legal(g, me)
        if not options:
            other = "W" if me == "B" else "B"
            if not legal(g, other):
                break
            passes += 1
            me = other
            continue
        r, c = rng.choice(options)
        place(g, r, c, me)
        seq.append((me, r, c))
        me = "W" if me == "B" else "B"
    return g, seq, passes


def count(g):
    flat = [x for row in g for x in row]
    return flat.count("B"), flat.count("W")


def main():
    mode = sys.argv[1]
    if mode == "game":
        n, seed = int(sys.argv[2]), int(sys.argv[3])
        moves = int(sys.argv[sys.argv.index("--moves") + 1]) if "--moves" in sys.argv else None
        g, seq, passes = random_game(n, seed, moves)
        print(f"# passes={passes} discs={count(g)}")
        for me, r, c in seq:
            print(me, r + 1, c + 1)
    elif mode == "swea":
        tok = sys.stdin.read().split()
        t, i = int(tok[0]), 1
        for case in range(1, t + 1):
            n, m = int(tok[i]), int(tok[i + 1])
            i += 2
            g = start(n)
            for _ in range(m):
                x, y, col = int(tok[i]), int(tok[i + 1]), int(tok[i + 2])
                i += 3
                place(g, x - 1, y - 1, "B" if col == 1 else "W")
            b, w = count(g)
            print(f"#{case} {b} {w}")
    elif mode == "boj15671-seed":
        here = os.path.dirname(os.path.abspath(__file__))
        [seed] = glob.glob(os.path.join(here, "../../../shared/seeds/002_*.txt"))
        text = open(seed, encoding="utf-8").read()
        code = text.split("파이썬 코드", 1)[1].split("#백준", 1)[0]
        exec(compile(code, seed, "exec"), {"__name__": "__main__"})
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
