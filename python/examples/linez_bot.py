#!/usr/bin/env python3
"""A small Linez player speaking the contest's protocol on stdin/stdout, for the Optuna example.

Each turn it reads the board (9 rows of `1`-`7` or `.`) and the preview, and moves the ball
whose move makes the longest line of its colour, valued `--line-weight` per ball in the line,
minus what it leaves (the line the ball stood in, valued `--keep-weight` per ball), plus
`--centre-weight` per step nearer the centre. Two numbers to tune, nothing clever: its score
depends on them enough for a tuner to find better values.
"""

import argparse
import sys

SIZE = 9
ROWS = "ABCDEFGHI"
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def run_length(board, row, col, colour):
    """The longest line of `colour` through (row, col) if a ball of that colour stood there."""
    best = 1
    for dr, dc in DIRECTIONS:
        length = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < SIZE and 0 <= c < SIZE and board[r][c] == colour:
                length += 1
                r, c = r + sign * dr, c + sign * dc
        best = max(best, length)
    return best


def empty_regions(board):
    """The region index of every empty cell (cells joined orthogonally), else -1."""
    region = [[-1] * SIZE for _ in range(SIZE)]
    count = 0
    for row in range(SIZE):
        for col in range(SIZE):
            if board[row][col] != "." or region[row][col] >= 0:
                continue
            stack = [(row, col)]
            region[row][col] = count
            while stack:
                r, c = stack.pop()
                for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= nr < SIZE and 0 <= nc < SIZE and board[nr][nc] == "." and region[nr][nc] < 0:
                        region[nr][nc] = count
                        stack.append((nr, nc))
            count += 1
    return region, count


def choose(board, weights):
    line_weight, keep_weight, centre_weight = weights
    region, count = empty_regions(board)
    cells_of = [[] for _ in range(count)]
    for row in range(SIZE):
        for col in range(SIZE):
            if region[row][col] >= 0:
                cells_of[region[row][col]].append((row, col))
    best, best_value = None, float("-inf")
    for row in range(SIZE):
        for col in range(SIZE):
            colour = board[row][col]
            if colour == ".":
                continue
            reachable = {
                region[r][c]
                for r, c in ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1))
                if 0 <= r < SIZE and 0 <= c < SIZE and region[r][c] >= 0
            }
            if not reachable:
                continue
            board[row][col] = "."
            leaving = keep_weight * run_length(board, row, col, colour)
            for index in reachable:
                for r, c in cells_of[index]:
                    centre = 8 - abs(r - 4) - abs(c - 4)
                    value = line_weight * run_length(board, r, c, colour) + centre_weight * centre - leaving
                    if value > best_value:
                        best, best_value = (row, col, r, c), value
            board[row][col] = colour
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--line-weight", type=float, default=1.0)
    parser.add_argument("--keep-weight", type=float, default=0.5)
    parser.add_argument("--centre-weight", type=float, default=0.1)
    args = parser.parse_args()
    weights = (args.line_weight, args.keep_weight, args.centre_weight)
    while True:
        lines = [sys.stdin.readline() for _ in range(SIZE + 1)]
        if not lines[-1]:
            return
        board = [list(line.strip()) for line in lines[:SIZE]]
        move = choose(board, weights)
        if move is None:
            return
        row, col, to_row, to_col = move
        print(f"{ROWS[row]}{col + 1}{ROWS[to_row]}{to_col + 1}", flush=True)


if __name__ == "__main__":
    main()
