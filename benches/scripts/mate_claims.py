#!/usr/bin/env python3
"""Mate claims the tsume judge cannot confirm, checked by a proof tree of every defence.

`../shared/tools/mate_in_play.py` judges a move with cshogi's df-pn, which mates by checks
only: after a quiet move it asks, for each defence, for a mate by checks, so a mate whose
defender may interpose a spite check (a check the attacker must answer with a move that is not
a check), or whose attacker plays a quiet move later, shows there as `lost` although the
engine said `score mate`. This script takes those claims and tries to show each one: it
builds the tree of the claimed mate, every defence enumerated (cshogi's legal moves), the
attacker's move at each of its nodes being a mate by checks that cshogi's df-pn proves within
what is left, or else the engine's `bestmove` (`go nodes N`) followed into the tree. A claim is
**shown** when every branch ends in checkmate within the claimed plies; it is then a forced
mate whatever the engine's search did (the engine only proposes the attacker's moves; cshogi
enumerates the defences and proves the leaves). A claim not shown is either a mate the
engine's proposals do not find here, or a false claim: look at the defence printed.

A position met again on its own branch ends that branch unshown (a repetition is no mate).

  mate_claims.py --engine BIN [--opt Name=Value ...] [--nodes 300000] VERBOSE_OUT PROBLEMS

VERBOSE_OUT: the output of `mate_in_play.py --verbose` (lines `<id> <move> mate <k> <ms> lost`);
PROBLEMS: the problem file it was run on. Prints a line a claim and a summary line:
  `claims judged lost: L; shown forced mates: S; not shown: U (<ids>)`.
Needs cshogi.
"""
import argparse
import os
import sys

# The USI driver and the match record's reader of scripts/judge_suite.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from judge_suite import Usi  # noqa: E402

try:
    import cshogi
except ImportError:
    sys.exit("cshogi is required (pip install cshogi)")


def position_key(board):
    """The position without its move number."""
    return board.sfen().rsplit(" ", 1)[0]


class ProofTree:
    """Whether the side to move is mated within n plies, every defence tried."""

    def __init__(self, engine, nodes, dfpn_nodes):
        self.engine = engine
        self.nodes = nodes
        self.proposals = 0
        self.dfpn_nodes = dfpn_nodes
        self.memo = {}
        self.path = []
        self.failed_at = None

    def mates_by_checks(self, board, plies):
        d = cshogi.DfPn()
        d.set_max_depth(max(plies, 1))
        d.set_max_search_node(self.dfpn_nodes)
        return bool(d.search(board))

    def attacker_mates(self, board, plies):
        if plies <= 0:
            return False
        key = position_key(board)
        if key in self.path:
            return False
        if (key, plies) in self.memo:
            return self.memo[(key, plies)]
        mated = False
        if not board.is_check() and self.mates_by_checks(board, plies):
            mated = True
        elif plies >= 3:
            # The engine's move first; three plies from the end every move (the engine's
            # move may be a longer mate's, which the plies left do not cover).
            self.proposals += 1
            proposal, _ = self.engine.go(f"position sfen {board.sfen()}", self.nodes)
            moves = [proposal] if proposal not in ("resign", "win") else []
            if plies == 3:
                moves += [u for u in map(cshogi.move_to_usi, board.legal_moves) if u != proposal]
            self.path.append(key)
            for move in moves:
                board.push_usi(move)
                mated = self.defender_mated(board, plies - 1, report=len(moves) == 1)
                board.pop()
                if mated:
                    break
            self.path.pop()
        self.memo[(key, plies)] = mated
        return mated

    def defender_mated(self, board, plies, report=True):
        if board.is_game_over():
            return True
        if plies <= 0:
            return False
        key = position_key(board)
        if key in self.path:
            return False
        self.path.append(key)
        try:
            for reply in list(board.legal_moves):
                board.push(reply)
                mated = self.attacker_mates(board, plies - 1)
                if not mated and report and self.failed_at is None:
                    self.failed_at = (cshogi.move_to_usi(reply), board.sfen(), plies - 1)
                board.pop()
                if not mated:
                    return False
            return True
        finally:
            self.path.pop()


def claims(verbose_out):
    """(id, move, k) of each `score mate k` the judge called `lost`."""
    for line in open(verbose_out, encoding="utf-8"):
        f = line.split()
        if len(f) >= 6 and f[2] == "mate" and f[-1] == "lost" and f[3].lstrip("+").isdigit():
            yield f[0], f[1], int(f[3].lstrip("+"))


def problems(path):
    found = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or "#" not in line:
            continue
        sfen, rest = line.split("#", 1)
        if rest.split():
            found[rest.split()[0]] = sfen.strip()
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("verbose_out")
    ap.add_argument("problems")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--opt", action="append", default=[])
    ap.add_argument("--nodes", type=int, default=300_000, help="the engine's nodes a proposal")
    ap.add_argument("--dfpn-nodes", type=int, default=300_000)
    a = ap.parse_args()
    sfens = problems(a.problems)
    engine = Usi(os.path.abspath(a.engine) if os.path.exists(a.engine) else a.engine, a.opt)
    lost, shown, unshown = 0, 0, []
    try:
        for pid, move, k in claims(a.verbose_out):
            lost += 1
            sfen = sfens.get(pid)
            if sfen is None:
                print(f"{pid}: not in {a.problems}")
                unshown.append(pid)
                continue
            board = cshogi.Board(sfen)
            try:
                m = board.move_from_usi(move)
            except Exception:
                m = 0
            if m == 0 or not board.is_legal(m):
                print(f"{pid} {move}: not a legal move")
                unshown.append(pid)
                continue
            board.push(m)
            tree = ProofTree(engine, a.nodes, a.dfpn_nodes)
            if tree.defender_mated(board, k - 1):
                shown += 1
                print(f"{pid} {move} mate {k}: shown ({tree.proposals} proposals)", flush=True)
            else:
                unshown.append(pid)
                reply, at, left = tree.failed_at or ("?", "?", 0)
                print(f"{pid} {move} mate {k}: not shown: after {reply} ({at}) no mate within "
                      f"{left} found", flush=True)
    finally:
        engine.quit()
    print(f"claims judged lost: {lost}; shown forced mates: {shown}; not shown: {len(unshown)}"
          + (f" ({' '.join(unshown)})" if unshown else ""))


if __name__ == "__main__":
    main()
