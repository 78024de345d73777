#!/usr/bin/env python3
"""A judged position suite: how good are the moves an engine configuration chooses, in the
eyes of a stronger (or just different) USI engine used as judge?

A 100-game match resolves about ±75 Elo; this resolves much less noisy differences in a few
minutes, deterministically, because both sides search a fixed number of nodes.

    # 1. positions: our side to move, plies 16-89 of recorded games (`tsumugi match --record`),
    #    kept when the judge finds them balanced (|score| <= 600 at a shallow search)
    python3 scripts/judge_suite.py collect --judge JUDGE --out suite.tsv REC...
    # 2. the moves of each configuration, at fixed nodes
    python3 scripts/judge_suite.py moves --positions suite.tsv --engine target/release/tsumugi \\
        --set oracle_root_ms=0 --set USI_Hash=64 --nodes 180000 --out base.txt
    python3 scripts/judge_suite.py moves ... --set lmr_ttpv=2 --out ttpv.txt
    (the root df-pn search runs on its own clock: `oracle_root_ms=0` keeps the moves
    deterministic)
    # 3. the judge searches the position after each move (cached); the report gives each
    #    configuration's mean value against the first, with its standard error
    python3 scripts/judge_suite.py judge --positions suite.tsv --judge JUDGE base.txt ttpv.txt

JUDGE is any USI engine command; `--judge-option NAME=VALUE` sets its options. Values are
centipawns from the side that chose the move, clipped to ±800 so that lost or won positions
do not dominate. Calibration (session 6, YaneuraOu-material as judge at 700k nodes, 1556
positions): half the nodes scored −11.8 ± 2.5, twice the nodes +7.2 ± 2.5.
"""

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

CLIP = 800


class Usi:
    """One USI engine process."""

    def __init__(self, command, options):
        self.p = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            cwd=os.path.dirname(os.path.abspath(command)),
        )
        self.send("usi")
        self.wait("usiok")
        for o in options:
            name, _, value = o.partition("=")
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"engine exited while waiting for {token}")
            if line.startswith(token):
                return line

    def go(self, position, nodes, movetime=None):
        """(best move, score for the side to move or None); a fixed number of nodes, or a
        fixed time in milliseconds when `movetime` is given."""
        self.send("usinewgame")
        self.send(position)
        # YaneuraOu answers `go nodes` alone almost at once (no time given is no time): a
        # long byoyomi beside the node limit lets the limit decide.
        limit = (f"movetime {movetime}" if movetime
                 else f"btime 0 wtime 0 byoyomi 3600000 nodes {nodes}")
        self.send(f"go {limit}")
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine exited during a search")
            if line.startswith("info") and " score " in line:
                kind, value = line.split(" score ")[1].split()[:2]
                if kind == "cp":
                    score = int(value)
                else:
                    score = -30000 if value.startswith("-") else 30000
            if line.startswith("bestmove"):
                return line.split()[1], score

    def quit(self):
        self.send("quit")
        self.p.wait()


def in_parallel(jobs, items, work):
    """Runs `work(chunk)` on `jobs` interleaved chunks of `items`; merges the dicts."""
    chunks = [items[k::jobs] for k in range(jobs)]
    merged = {}
    with ThreadPoolExecutor(jobs) as ex:
        for part in ex.map(work, chunks):
            merged.update(part)
    return merged


def judged_values(positions, pairs, cache_path, judge, options, nodes, jobs):
    """The judge's value of each (position index, move) of `pairs`, from the side that chose
    the move, as a dict keyed "<index> <move>"; kept in `cache_path` and searched only when
    missing there."""
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    todo = sorted(p for p in pairs if f"{p[0]} {p[1]}" not in cache)

    def work(chunk):
        engine = Usi(judge, options)
        values = {}
        for i, m in chunk:
            if m in ("resign", "win"):
                values[f"{i} {m}"] = -30000 if m == "resign" else 30000
                continue
            _, score = engine.go(positions[i] + " " + m, nodes)
            values[f"{i} {m}"] = -(score if score is not None else 0)
        engine.quit()
        return values

    if todo:
        cache.update(in_parallel(jobs, todo, work))
        json.dump(cache, open(cache_path, "w"))
    return cache


def read_positions(path):
    return [line.rstrip("\n") for line in open(path) if line.strip()]


def read_moves(path):
    return dict((int(i), m) for i, m in (line.split() for line in open(path)))


def games(records):
    """(game name, record head, base position, moves, plies counted by the record) of every
    game of `tsumugi match --record` files."""
    for path in records:
        lines = open(path).read().split("\n")
        for i, head in enumerate(lines[:-1]):
            if not head.startswith("# game"):
                continue
            base, _, moves = lines[i + 1].partition(" moves ")
            number = head.split()[2]
            plies = re.search(r" plies=(\d+)", head)
            yield (f"{os.path.basename(path)}#{number}", head, base, moves.split(),
                   int(plies.group(1)) if plies else 0)


def ours_black(head, name):
    """Whether our player (its name starts with `name`) has black in the game of `head`."""
    black = head.split(" black=", 1)[1].split(" white=", 1)[0]
    return black.startswith(name)


def we_lost(head, name):
    result = re.search(r" result=(\S+)", head)
    if not result or result.group(1) not in ("1-0", "0-1"):
        return False
    return (result.group(1) == "1-0") != ours_black(head, name)


def our_turn(base, k, black):
    """Whether the position after `k` moves from `base` has our side to move."""
    return ((k % 2 == 0) == (" b " in base)) == black


def clipped(v, limit):
    return max(-limit, min(limit, v))


def races(args):
    """The race suite: in each game we lost after more than --min-plies plies, our move whose
    value in the judge's eyes fell most (before it, after it), among our last moves
    (--window plies) where the judge still had us at --floor or better before the move."""
    lost = [g for g in games(args.records) if g[4] > args.min_plies and we_lost(g[1], args.name)]
    asks = []
    for game, head, base, moves, _ in lost:
        black = ours_black(head, args.name)
        for k in range(max(0, len(moves) - args.window), len(moves)):
            if our_turn(base, k, black):
                before = base + " moves " + " ".join(moves[:k])
                asks.append((game, k, before, moves[k]))

    def work(chunk):
        judge = Usi(args.judge, args.judge_option)
        seen = {}
        for game, k, before, played in chunk:
            best, score = judge.go(before, args.nodes)
            if score is None or best in ("resign", "win"):
                continue
            _, after_played = judge.go(before + " " + played, args.nodes)
            _, after_best = judge.go(before + " " + best, args.nodes)
            if after_played is None or after_best is None:
                continue
            seen[(game, k)] = (before, best, -after_best, played, -after_played, score)
        judge.quit()
        return seen

    judged = in_parallel(args.jobs, asks, work)
    suite = []
    for game in sorted({g for g, _ in judged}):
        ks = [k for g, k in judged if g == game]
        playable = [k for k in ks if judged[(game, k)][5] >= args.floor]
        if not playable:
            continue
        worst = max(playable, key=lambda k: judged[(game, k)][2] - judged[(game, k)][4])
        before, best, best_value, played, played_value, _ = judged[(game, worst)]
        if best == played or best_value - played_value < args.min_margin:
            continue
        view = judged[(game, worst)][5]
        suite.append((before, best, best_value, played, played_value, view, game, worst))
    with open(args.out, "w") as f:
        f.write(f"# race suite: {len(suite)} positions before our worst move in the {len(lost)} "
                f"games we lost after more than {args.min_plies} plies; judged at {args.nodes} "
                "nodes\n# position\tjudge's move\tits value\tour move\tits value\t"
                "the judge's view\tgame\tply\n")
        for row in suite:
            f.write("\t".join(str(x) for x in row) + "\n")
    print(f"{len(suite)} race positions from {len(lost)} lost long games -> {args.out}")


def read_suite(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        fields = line.rstrip("\n").split("\t")
        pos, best, best_value, played, played_value, view, game, ply = fields
        rows.append((pos, best, int(best_value), played, int(played_value), int(view), game,
                     int(ply)))
    return rows


def race_score(args):
    """How an engine configuration plays the race suite: how often its move is the judge's or
    one the judge values within --margin of it, and its evaluation's bias (its own score of
    the position minus the judge's, centipawns, clipped to ±--bias-clip)."""
    suite = read_suite(args.suite)

    def work(chunk):
        engine = Usi(args.engine, args.set)
        out = {i: engine.go(suite[i][0], args.nodes, args.movetime) for i in chunk}
        engine.quit()
        return out

    chosen = in_parallel(args.jobs, list(range(len(suite))), work)
    cache = judged_values([row[0] for row in suite], {(i, chosen[i][0]) for i in chosen},
                          args.suite + f".judge{args.judge_nodes}.json", args.judge,
                          args.judge_option, args.judge_nodes, args.jobs)
    hits, bias, same = 0, [], 0
    for i, (pos, best, best_value, played, played_value, view, game, ply) in enumerate(suite):
        move, score = chosen[i]
        value = cache[f"{i} {move}"]
        same += move == best
        hit = move == best or value >= best_value - args.margin
        hits += hit
        if score is not None:
            bias.append(clipped(score, args.bias_clip) - clipped(view, args.bias_clip))
        if args.detail:
            print(f"{i + 1:2} {game} ply {ply}: ours {move} ({value:+}) judge's {best} "
                  f"({best_value:+}) {'hit' if hit else 'miss'}; our score {score}, "
                  f"the judge's view {view}")
    n = len(suite)
    mean_bias = statistics.mean(bias) if bias else 0.0
    se = statistics.pstdev(bias) / len(bias) ** 0.5 if bias else 0.0
    print(f"{args.engine} {' '.join(args.set)}: judge's move or within {args.margin} cp "
          f"{hits}/{n} ({100 * hits / max(n, 1):.0f} %), the judge's move {same}/{n}; "
          f"bias {mean_bias:+.0f} ± {se:.0f} cp over {len(bias)}")


def collect(args):
    positions = []
    for path in args.records:
        lines = open(path).read().split("\n")
        for i, head in enumerate(lines[:-1]):
            if not head.startswith("# game"):
                continue
            base, _, moves = lines[i + 1].partition(" moves ")
            moves = moves.split()
            ours_black = f"black={args.name}" in head
            black_first = " b " in base
            for k in range(args.first_ply, min(len(moves), args.last_ply + 1)):
                if ((k % 2 == 0) == black_first) == ours_black:
                    positions.append(base + " moves " + " ".join(moves[:k]))
    positions = sorted(set(positions))
    random.Random(args.seed).shuffle(positions)
    positions = positions[: args.max]

    def balanced(chunk):
        judge = Usi(args.judge, args.judge_option)
        kept = {}
        for p in chunk:
            _, score = judge.go(p, args.prefilter_nodes)
            if score is not None and abs(score) <= args.balanced:
                kept[p] = True
        judge.quit()
        return kept

    kept = in_parallel(args.jobs, positions, balanced)
    with open(args.out, "w") as f:
        for p in positions:
            if p in kept:
                f.write(p + "\n")
    print(f"{len(kept)} balanced positions of {len(positions)} sampled -> {args.out}")


def choose(args):
    positions = read_positions(args.positions)

    def work(chunk):
        engine = Usi(args.engine, args.set)
        chosen = {i: engine.go(positions[i], args.nodes)[0] for i in chunk}
        engine.quit()
        return chosen

    chosen = in_parallel(args.jobs, list(range(len(positions))), work)
    with open(args.out, "w") as f:
        for i in range(len(positions)):
            f.write(f"{i}\t{chosen[i]}\n")


def judge(args):
    positions = read_positions(args.positions)
    sets = [read_moves(path) for path in args.moves]
    cache = judged_values(positions, {(i, m) for s in sets for i, m in s.items()},
                          args.cache or args.positions + f".judge{args.nodes}.json", args.judge,
                          args.judge_option, args.nodes, args.jobs)

    def value(i, m):
        return max(-CLIP, min(CLIP, cache[f"{i} {m}"]))

    base = sets[0]
    for path, s in zip(args.moves, sets):
        diffs = [value(i, s[i]) - value(i, base[i]) for i in base]
        changed = sum(1 for i in base if s[i] != base[i])
        se = statistics.pstdev(diffs) / len(diffs) ** 0.5
        mean = statistics.mean(value(i, s[i]) for i in base)
        print(f"{path}: mean {mean:7.1f}  changed {changed:4d}/{len(base)}  "
              f"vs first {statistics.mean(diffs):+6.1f} ± {se:.1f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    jobs = dict(type=int, default=2, help="engine processes in parallel")

    c = sub.add_parser("collect", help="balanced positions from match records")
    c.add_argument("records", nargs="+")
    c.add_argument("--out", required=True)
    c.add_argument("--judge", required=True)
    c.add_argument("--judge-option", action="append", default=[])
    c.add_argument("--name", default="tsumugi", help="our player's name in the records")
    c.add_argument("--first-ply", type=int, default=16)
    c.add_argument("--last-ply", type=int, default=89)
    c.add_argument("--max", type=int, default=4000, help="positions sampled")
    c.add_argument("--balanced", type=int, default=600)
    c.add_argument("--prefilter-nodes", type=int, default=30000)
    c.add_argument("--seed", type=int, default=7)
    c.add_argument("--jobs", **jobs)

    m = sub.add_parser("moves", help="the moves one configuration chooses at fixed nodes")
    m.add_argument("--positions", required=True)
    m.add_argument("--engine", required=True)
    m.add_argument("--set", action="append", default=[], help="USI option NAME=VALUE")
    m.add_argument("--nodes", type=int, default=180000)
    m.add_argument("--out", required=True)
    m.add_argument("--jobs", **jobs)

    j = sub.add_parser("judge", help="judge move files; the first is the baseline")
    j.add_argument("moves", nargs="+")
    j.add_argument("--positions", required=True)
    j.add_argument("--judge", required=True)
    j.add_argument("--judge-option", action="append", default=[])
    j.add_argument("--nodes", type=int, default=700000)
    j.add_argument("--cache")
    j.add_argument("--jobs", **jobs)

    r = sub.add_parser("races", help="the race suite from the lost long games of records")
    r.add_argument("records", nargs="+")
    r.add_argument("--out", required=True)
    r.add_argument("--judge", required=True)
    r.add_argument("--judge-option", action="append", default=[])
    r.add_argument("--name", default="tsumugi", help="our player's name in the records")
    r.add_argument("--min-plies", type=int, default=120)
    r.add_argument("--window", type=int, default=60, help="the last plies of a game looked at")
    r.add_argument("--floor", type=int, default=-300,
                   help="the judge's least view of us before the move")
    r.add_argument("--min-margin", type=int, default=200,
                   help="least loss of our move against the judge's")
    r.add_argument("--nodes", type=int, default=700000)
    r.add_argument("--jobs", **jobs)

    rs = sub.add_parser("race-score", help="one configuration on the race suite")
    rs.add_argument("--suite", required=True)
    rs.add_argument("--engine", required=True)
    rs.add_argument("--set", action="append", default=[], help="USI option NAME=VALUE")
    rs.add_argument("--movetime", type=int, default=200, help="ms a move (0: --nodes)")
    rs.add_argument("--nodes", type=int, default=180000)
    rs.add_argument("--judge", required=True)
    rs.add_argument("--judge-option", action="append", default=[])
    rs.add_argument("--judge-nodes", type=int, default=700000)
    rs.add_argument("--margin", type=int, default=100)
    rs.add_argument("--bias-clip", type=int, default=2000)
    rs.add_argument("--detail", action="store_true",
                    help="a line per position: our move and the judge's, with its values")
    rs.add_argument("--jobs", **jobs)

    args = ap.parse_args()
    {"collect": collect, "moves": choose, "judge": judge, "races": races,
     "race-score": race_score}[args.command](args)


if __name__ == "__main__":
    main()
