#!/usr/bin/env python3
"""Start positions from the middle of recorded games, for `tsumugi learn gen --openings`.

Self-play from the openings file plays few late middle games: games are decided there, so
this takes the positions of recorded games (`tsumugi match --record`: ours against YaneuraOu,
or self-play) from ply FROM on, every EVERY plies, up to LAST plies before the game's end, and
writes each as the `position` line that reaches it (the moves kept, so that `learn gen` sees
the repetition history). The lines are the openings format of docs/learn.md; the comment names
the record, the game and the ply.

    python3 scripts/midgame_starts.py base3.rec on2.rec --from 30 --every 4 > starts.txt
"""

import argparse
import sys


def games(path):
    """(game number, the position line) of each game of a match record."""
    number = None
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith("# game "):
                words = line.split()
                number = words[2] if len(words) > 2 else str(i)
            elif line.startswith("position"):
                if number is None:
                    sys.exit(f"{path}:{i}: a position line without its game line")
                yield number, line
                number = None


def starts(line, first, every, last):
    """The cut points of one game's position line: (ply, position line up to that ply)."""
    setup, _, moves = line.partition(" moves ")
    moves = moves.split()
    for ply in range(first, len(moves) - last + 1, every):
        cut = " ".join(moves[:ply])
        yield ply, f"{setup} moves {cut}" if cut else setup


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", nargs="+", help="match records (tsumugi match --record)")
    ap.add_argument("--from", dest="first", type=int, default=30,
                    help="first ply cut, counted after the record's opening (default 30)")
    ap.add_argument("--every", type=int, default=4, help="plies between cuts (default 4)")
    ap.add_argument("--last", type=int, default=6,
                    help="no cut within this many plies of the game's end (default 6)")
    a = ap.parse_args()
    if a.every < 1 or a.first < 0 or a.last < 1:
        sys.exit("--every and --last must be at least 1, --from at least 0")
    count = 0
    for path in a.records:
        for number, line in games(path):
            for ply, start in starts(line, a.first, a.every, a.last):
                print(f"{start} # {path.rsplit('/', 1)[-1]} game {number} ply {ply}")
                count += 1
    print(f"{count} start positions", file=sys.stderr)


if __name__ == "__main__":
    main()
