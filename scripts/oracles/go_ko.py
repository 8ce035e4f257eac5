#!/usr/bin/env python3
"""Independent go_ko oracle: the seeds' play order (seed 003) with flood fills, and the ko
rules by whole-board comparison against the history (seed 000), sharing no code with the
Rust crate. Reads a go_ko input on stdin and prints the expected output.

  python3 scripts/oracles/go_ko.py < testdata/go_ko/<case>.in
"""
import sys


def main():
    tok = sys.stdin.read().split()
    n, k, rule = int(tok[0]), int(tok[1]), tok[2]
    rows = tok[3:3 + n]
    board = [[{".": 0, "X": 1, "O": 2}[ch] for ch in row] for row in rows]
    i = 3 + n
    history = [[r[:] for r in board]]

    def neighbours(r, c):
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < n and 0 <= c + dc < n:
                yield r + dr, c + dc

    def group(b, r, c):
        color, seen, stack, libs = b[r][c], {(r, c)}, [(r, c)], set()
        while stack:
            cr, cc = stack.pop()
            for nr, nc in neighbours(cr, cc):
                if b[nr][nc] == 0:
                    libs.add((nr, nc))
                elif b[nr][nc] == color and (nr, nc) not in seen:
                    seen.add((nr, nc))
                    stack.append((nr, nc))
        return seen, libs

    out = []
    for _ in range(k):
        sym = tok[i]
        color = 1 if sym == "X" else 2
        if tok[i + 1] == "pass":
            i += 2
            history.append([r[:] for r in board])
            out.append(f"{sym} pass")
            continue
        r, c = int(tok[i + 1]), int(tok[i + 2])
        i += 3
        if board[r][c] != 0:
            out.append(f"{sym} ({r}, {c}): occupied")
            continue
        new = [row[:] for row in board]
        new[r][c] = color
        captured = set()
        for nr, nc in neighbours(r, c):
            if new[nr][nc] == 3 - color:
                stones, libs = group(new, nr, nc)
                if not libs:
                    captured |= stones
        for cr, cc in captured:
            new[cr][cc] = 0
        if not group(new, r, c)[1]:
            out.append(f"{sym} ({r}, {c}): suicide")
            continue
        if rule != "none" and len(history) >= 2 and new == history[-2]:
            out.append(f"{sym} ({r}, {c}): ko")
            continue
        if rule == "superko" and new in history:
            out.append(f"{sym} ({r}, {c}): superko")
            continue
        board = new
        history.append([row[:] for row in board])
        listed = ", ".join(f"({a}, {b})" for a, b in sorted(captured))
        out.append(f"{sym} ({r}, {c}): captured [{listed}]")
    for row in board:
        out.append(" ".join(".XO"[v] for v in row))
    print("\n".join(out))


if __name__ == "__main__":
    main()
