#!/usr/bin/env python3
"""Runs seed 004's own code (network, weights, MCTS), taken from the seed text, on a
position, and prints the report of `mini_alphago --seed-compatible` for it: the expected
output of the seed-compatible mode beyond the seed's own empty board.

  python3 scripts/oracles/seed004.py ITERATIONS < position     (needs numpy)

The position: N (7), N rows of . X O, the side to move (X or O).
Also: `seed004.py net < position` prints, as float.hex(), the network's value, its 49
policy probabilities and the policy head's 49 raw logits (before masking), for the
bit-level comparison in shared/tests/alphago.rs.
"""
import glob
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
[SEED] = glob.glob(os.path.join(HERE, "../../../shared/seeds/004_*.txt"))
text = open(SEED, encoding="utf-8").read()
code = text.split("\nPYTHON\n", 1)[1].split("\n출력\n", 1)[0]
library = code.split("# ============================\n# 실행")[0]
scope = {"__name__": "seed004"}
exec(compile(library, SEED, "exec"), scope)
Board, MiniAlphaGo, mcts_alphago = scope["Board"], scope["MiniAlphaGo"], scope["mcts_alphago"]

tok = sys.stdin.read().split()
n = int(tok[0])
assert n == 7
rows = tok[1:8]
turn = {"X": Board.BLACK, "O": Board.WHITE}[tok[8]]
cells = np.array([[{".": 0, "X": 1, "O": 2}[ch] for ch in row] for row in rows], dtype=int)
board = Board(cells, turn, int((cells != 0).sum()))
net = MiniAlphaGo()  # draws the weights exactly as the seed does: np.random.seed(42) ran at exec

if sys.argv[1] == "net":
    legal = np.zeros(49)
    for r, c in board.possible_moves():
        legal[r * 7 + c] = 1
    p = net.policy(board.to_input(), legal)
    v = net.value(board.to_input())
    conv2d_padded = scope["conv2d_padded"]
    logits = conv2d_padded(net.features(board.to_input()), net.W3_p, net.b3_p).reshape(-1)
    print(v.hex(), " ".join(float(x).hex() for x in p), " ".join(float(x).hex() for x in logits))
    sys.exit(0)

iterations = int(sys.argv[1])
root, move = mcts_alphago(board, net, n_iter=iterations)
stones = int((cells != 0).sum())
side = "흑" if turn == Board.BLACK else "백"
print("=== 7x7 미니 알파고 — 첫 수 결정 ===")
print(f"입력: 7x7 빈 보드, {side} 차례" if stones == 0 else f"입력: 7x7 보드 (돌 {stones}개), {side} 차례")
print("네트워크: 3층 CNN (Policy + Value)")
print(f"MCTS: {iterations} iterations, PUCT 알고리즘")
print()
print(f"알파고의 첫 수: {move}")
print()
print(f"루트 visits: {root.visits}")
print("상위 5개 자식 (visits 기준):")
print(f"  {'자리':>8} {'visits':>8} {'prior P':>10} {'Q value':>10}")
for ch in sorted(root.children.values(), key=lambda c: -c.visits)[:5]:
    print(f"  {str(ch.move):>8} {ch.visits:>8} {ch.prior:>10.4f} {ch.q_value():>10.4f}")
