#!/usr/bin/env python3
"""Walks two expansion traces side by side and prints where they part.

A trace is what `tsumugi-mate solve --profile DIR --trace N` writes to `DIR/<id>.trace` (and a
local traced shtsume writes in the same form): `seq ply OR|AND sfen th_pn th_dn pn0 dn0 pn1 dn1
again [terminal]`, one expansion a line in the order the search made them. Two searches are
the same up to the first line whose position differs; that line, with the lines before it,
names the mechanism that parts them (issue 80, benches/history/45).

    trace_walk.py A.trace B.trace [--context 4] [--skip-terminal]

`--skip-terminal` drops lines marked terminal (a position with no move: shtsume expands it,
ours answers it at its parent). Numbers are compared too: the first line where the position
agrees and the numbers returned do not is printed as well, being the first place where the
two searches value one position otherwise.
"""
import argparse
import sys


def read(path, skip_terminal):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 11:
                sys.exit(f"{path}:{n}: expected 11 or 12 tab-separated fields, got {len(parts)}")
            if skip_terminal and len(parts) > 11 and parts[11] == "1":
                continue
            sfen = " ".join(parts[3].split()[:3])  # board, side, hand: no move number
            norm = lambda v: "inf" if v in ("inf", "32767") else v
            rows.append({
                "ply": parts[1], "kind": parts[2], "sfen": sfen,
                "th": (norm(parts[4]), norm(parts[5])),
                "before": (norm(parts[6]), norm(parts[7])),
                "after": (norm(parts[8]), norm(parts[9])),
                "line": n,
            })
    return rows


def show(tag, r):
    return (f"{tag} line {r['line']}: ply {r['ply']} {r['kind']} {r['sfen']} th {r['th'][0]}/{r['th'][1]}"
            f" before {r['before'][0]}/{r['before'][1]} after {r['after'][0]}/{r['after'][1]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--context", type=int, default=4)
    ap.add_argument("--skip-terminal", action="store_true")
    args = ap.parse_args()
    a, b = read(args.a, args.skip_terminal), read(args.b, args.skip_terminal)
    first_value = None
    for i, (x, y) in enumerate(zip(a, b)):
        if x["sfen"] != y["sfen"] or x["kind"] != y["kind"]:
            print(f"same for {i} expansions; they part at expansion {i}:")
            for j in range(max(0, i - args.context), i):
                print("  both " + show("A", a[j]))
            print("  " + show("A", x))
            print("  " + show("B", y))
            break
        if first_value is None and x["after"] != y["after"]:
            first_value = (i, x, y)
    else:
        print(f"same for all {min(len(a), len(b))} expansions compared")
    if first_value:
        i, x, y = first_value
        print(f"first numbers to differ, expansion {i}:")
        print("  " + show("A", x))
        print("  " + show("B", y))


if __name__ == "__main__":
    main()
