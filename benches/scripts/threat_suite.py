#!/usr/bin/env python3
"""The threat suite: positions of lost games where our move let a mate by checks in.

Each position (written by `missed_mates.py --suite`: `<sfen> # <id> <move played> <mate>`) is
thought over as in a game (`go btime 0 wtime 0 byoyomi MS`), and the move the engine plays
now is judged by cshogi's df-pn: does the opponent then mate by checks (within --plies and
--nodes)? Prints a line a position with --verbose and a summary line:
  `ENGINE: avoided A of N (the mate let in before: P of them played again), average M ms`.

  threat_suite.py --engine BIN [--opt Name=Value ...] [--byoyomi 200] SUITE

Needs cshogi.
"""
import argparse
import os
import sys
import time

# The USI driver and the match record's reader of scripts/judge_suite.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from judge_suite import Usi  # noqa: E402

try:
    import cshogi
except ImportError:
    sys.exit("cshogi is required (pip install cshogi)")


def lets_mate_in(sfen, move, plies, nodes):
    """Whether after `move` the opponent mates by checks (cshogi's df-pn)."""
    b = cshogi.Board(sfen)
    b.push_usi(move)
    if b.is_check():
        return False
    d = cshogi.DfPn()
    d.set_max_depth(plies)
    d.set_max_search_node(nodes)
    return bool(d.search(b))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("suite")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--opt", action="append", default=[])
    ap.add_argument("--byoyomi", type=int, default=200)
    ap.add_argument("--plies", type=int, default=31)
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    positions = []
    for line in open(a.suite, encoding="utf-8"):
        if line.startswith("#") or "#" not in line:
            continue
        sfen, rest = line.split("#", 1)
        f = rest.split()
        positions.append((sfen.strip(), f[0], f[1] if len(f) > 1 else ""))
    engine = Usi(os.path.abspath(a.engine) if os.path.exists(a.engine) else a.engine, a.opt)
    avoided = again = 0
    total_ms = 0.0
    try:
        for sfen, pid, played in positions:
            engine.send("isready")
            engine.wait("readyok")
            engine.send("usinewgame")
            start = time.monotonic()
            engine.send(f"position sfen {sfen}")
            engine.send(f"go btime 0 wtime 0 byoyomi {a.byoyomi}")
            best = engine.wait("bestmove").split()[1]
            ms = (time.monotonic() - start) * 1000
            total_ms += ms
            ok = best not in ("resign", "win") and not lets_mate_in(sfen, best, a.plies, a.nodes)
            avoided += ok
            again += best == played
            if a.verbose:
                print(pid, best, f"{ms:.0f}ms", "avoided" if ok else "lets mate in", flush=True)
    finally:
        engine.quit()
    n = len(positions)
    print(f"{a.engine} {' '.join(a.opt)}: avoided {avoided} of {n} (the mate let in before: "
          f"{again} of them played again), average {total_ms / max(n, 1):.0f} ms")


if __name__ == "__main__":
    main()
