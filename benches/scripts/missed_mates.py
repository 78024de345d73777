#!/usr/bin/env python3
"""The opponent's mates in the games we lost: which move of ours let a mate by checks in.

For each game of a match record (`tsumugi match --record FILE`) that our engine lost, the game
is replayed and, after each move of ours, cshogi's df-pn asks whether the opponent now mates by
checks (within --plies plies and --nodes nodes). The first move of ours after which it does is
the move that let the mate in (the search did not see it coming). At the position before that
move every legal move of ours is asked the same question (with --alt-nodes), to tell an
avoidable mate (some move keeps the opponent from a mate by checks) from one that was already
coming whatever we played (the mistake was earlier, or it was a race lost).

  missed_mates.py RECORD [--us tsumugi] [--plies 31] [--nodes 200000] [--alt-nodes 20000]
                  [--suite FILE]

Prints a line a lost game and a summary line:
  `lost L; a mate by checks let in by our move: M (avoidable A); none found: N`.
--suite writes the avoidable ones as a problem file: `<sfen before our move> # <id> <our move>
<the opponent's mate length>`, the positions for the threat probe to see.
Needs cshogi.
"""
import argparse
import os
import sys

# The USI driver and the match record's reader of scripts/judge_suite.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from judge_suite import games, ours_black, we_lost  # noqa: E402

try:
    import cshogi
except ImportError:
    sys.exit("cshogi is required (pip install cshogi)")


def start_sfen(base):
    """The SFEN of a record's `position ...` line (without its moves)."""
    return cshogi.STARTING_SFEN if base.split()[1] == "startpos" else base.split(" ", 2)[2]


def mate_by_checks(board, plies, nodes):
    """Whether the side to move mates by checks, and the mate's length when it does."""
    if board.is_check():
        return None
    d = cshogi.DfPn()
    d.set_max_depth(plies)
    d.set_max_search_node(nodes)
    if not d.search(board):
        return None
    return len(d.get_pv(board)) or 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("record")
    ap.add_argument("--us", default="tsumugi", help="how our engine's name begins")
    ap.add_argument("--plies", type=int, default=31)
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--alt-nodes", type=int, default=20_000)
    ap.add_argument("--suite")
    a = ap.parse_args()
    lost = let_in = avoidable = none = 0
    suite = []
    for game, header, base, moves, _ in games([a.record]):
        if not we_lost(header, a.us):
            continue
        us = cshogi.BLACK if ours_black(header, a.us) else cshogi.WHITE
        lost += 1
        board = cshogi.Board(start_sfen(base))
        found = None
        for ply, usi in enumerate(moves):
            ours = board.turn == us
            before = board.sfen()
            board.push_usi(usi)
            if ours:
                n = mate_by_checks(board, a.plies, a.nodes)
                if n:
                    found = (ply, usi, n, before)
                    break
        if found is None:
            none += 1
            print(f"game {game}: lost, no mate by checks let in")
            continue
        let_in += 1
        ply, usi, n, before = found
        pos = cshogi.Board(before)
        legal = list(pos.legal_moves)
        safe = 0
        for m in legal:
            pos.push(m)
            safe += mate_by_checks(pos, a.plies, a.alt_nodes) is None
            pos.pop()
        if safe:
            avoidable += 1
            suite.append(f"{before} # g{game.rsplit('#', 1)[-1]}-p{ply + 1} {usi} {n}")
        print(f"game {game} ply {ply + 1}: {usi} let in a mate in {n} by checks; "
              f"{safe} of {len(legal)} moves would not have; {before}", flush=True)
    if a.suite:
        with open(a.suite, "w", encoding="utf-8") as f:
            f.write(f"# The moves of ours that let a mate by checks in, from {a.record}\n")
            f.write("".join(s + "\n" for s in suite))
    print(f"lost {lost}; a mate by checks let in by our move: {let_in} (avoidable {avoidable}); "
          f"none found: {none}")


if __name__ == "__main__":
    main()
