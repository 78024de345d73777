#!/usr/bin/env python3
"""Compares two `tsumugi-mate report --json` outputs of the same problems, and replays cooks.

Usage: report-verdicts.py BEFORE.json AFTER.json [--replay]

Prints, a line each, every cook (余詰, by problem, ply and move) that BEFORE found and AFTER
did not ("lost") or the other way round ("new"), every problem whose 変長/変同 flags differ,
and the counts of unsettled questions and "shortest proven" headlines; with --replay, every
cook line of AFTER is replayed from its position with cshogi (../shared/tools/verify_mates.py,
tsume rules: a line may end where the remaining interpositions are futile). The summary line
last; exit 1 when a cook was lost or a line does not replay as a mate.
"""
import json
import os
import subprocess
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return {e["id"]: e["report"] for e in json.load(f)}


def cooks(report):
    return {(c["ply"], c["line"]["usi"][0]) for c in report["cooks"] if c["kind"] == "Cook"}


def flags(report):
    return sorted((v["ply"], v["line"]["usi"][0], v["flag"]) for v in report["variations"]
                  if v["flag"] in ("Longer", "Equal", "EqualWithPiecesLeft"))


def sfen_after(sfen, moves):
    import cshogi
    board = cshogi.Board(sfen)
    for m in moves:
        board.push_usi(m)
    return board.sfen()


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    replay = "--replay" in sys.argv
    if len(args) != 2:
        sys.exit(__doc__)
    before, after = load(args[0]), load(args[1])
    lost = new = flag_changes = bad = replayed = 0
    for pid in sorted(set(before) & set(after)):
        b, a = before[pid], after[pid]
        if b["main_line"]["usi"] != a["main_line"]["usi"]:
            print(f"{pid}: main lines differ ({len(b['main_line']['usi'])} and "
                  f"{len(a['main_line']['usi'])} plies): cooks compared as found")
        for ply, mv in sorted(cooks(b) - cooks(a)):
            lost += 1
            print(f"{pid}: cook lost at move {ply}: {mv}")
        for ply, mv in sorted(cooks(a) - cooks(b)):
            new += 1
            print(f"{pid}: new cook at move {ply}: {mv}")
        if flags(b) != flags(a):
            flag_changes += 1
            print(f"{pid}: 変長/変同 differ: {flags(b)} -> {flags(a)}")
        if replay:
            tool = os.path.join(os.path.dirname(__file__), "../../../shared/tools/verify_mates.py")
            for c in a["cooks"]:
                pos = sfen_after(a["sfen"], a["main_line"]["usi"][:c["ply"] - 1])
                line = "checkmate " + " ".join(c["line"]["usi"])
                ok = subprocess.run([sys.executable, tool, "--rules", "tsume", pos, line],
                                    capture_output=True, text=True).returncode == 0
                replayed += 1
                if not ok:
                    bad += 1
                    print(f"{pid}: cook at move {c['ply']} does not replay as a mate: {line}")

    def unsettled(r):
        return sum(len(x["unsettled"]) for x in r.values())

    def proven(r):
        return sum(1 for x in r.values() if x["status"] == "mate" and x["proven_shortest"])

    print(f"{len(set(before) & set(after))} problems: {lost} cooks lost, {new} new, "
          f"{flag_changes} with other 変長/変同; unsettled {unsettled(before)} -> "
          f"{unsettled(after)}; shortest proven {proven(before)} -> {proven(after)}"
          + (f"; {replayed} cook lines replayed, {bad} not a mate" if replay else ""))
    sys.exit(1 if lost or bad else 0)


if __name__ == "__main__":
    main()
