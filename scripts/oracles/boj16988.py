#!/usr/bin/env python3
"""Independent boj16988 oracle: tries every pair of empty points and flood-fills the
opponent's groups, sharing no code or idea beyond the statement with the Rust solver.

  boj16988.py < case.in                     the answer
  boj16988.py gen ROWS COLS SEED DENSITY    a random valid input (no group without liberty)
"""
import itertools
import random
import sys


def groups(board, n, m, color):
    seen, out = set(), []
    for r in range(n):
        for c in range(m):
            if board[r][c] == color and (r, c) not in seen:
                stack, stones, libs = [(r, c)], [], set()
                seen.add((r, c))
                while stack:
                    cr, cc = stack.pop()
                    stones.append((cr, cc))
                    for nr, nc in ((cr - 1, cc), (cr + 1, cc), (cr, cc - 1), (cr, cc + 1)):
                        if 0 <= nr < n and 0 <= nc < m:
                            if board[nr][nc] == 0:
                                libs.add((nr, nc))
                            elif board[nr][nc] == color and (nr, nc) not in seen:
                                seen.add((nr, nc))
                                stack.append((nr, nc))
                out.append((stones, libs))
    return out


def answer(board, n, m):
    empties = [(r, c) for r in range(n) for c in range(m) if board[r][c] == 0]
    best = 0
    for a, b in itertools.combinations(empties, 2):
        for r, c in (a, b):
            board[r][c] = 1
        best = max(best, sum(len(s) for s, libs in groups(board, n, m, 2) if not libs))
        for r, c in (a, b):
            board[r][c] = 0
    return best


def main():
    if sys.argv[1:2] == ["gen"]:
        n, m, seed, density = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
        rng = random.Random(seed)
        while True:
            board = [[rng.choice([1, 2]) if rng.random() < density else 0 for _ in range(m)] for _ in range(n)]
            ok = all(libs for color in (1, 2) for _, libs in groups(board, n, m, color))
            if ok and sum(row.count(0) for row in board) >= 2:
                break
        print(n, m)
        for row in board:
            print(" ".join(map(str, row)))
        return
    tok = sys.stdin.read().split()
    n, m = int(tok[0]), int(tok[1])
    vals = list(map(int, tok[2:2 + n * m]))
    board = [vals[r * m:(r + 1) * m] for r in range(n)]
    print(answer(board, n, m))


if __name__ == "__main__":
    main()
