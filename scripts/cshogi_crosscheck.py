#!/usr/bin/env python3
"""Cross-check Tsumugi's legal move generator against cshogi.

Usage:
    python3 scripts/cshogi_crosscheck.py FILE [--limit N] [--binary CMD ...]

FILE holds one position per line: `<sfen> # <id> <answer>` (the `# ...` tail is
optional; a leading `sfen ` is allowed; empty lines and lines starting with '#'
are skipped).  By default the script runs, from the repository root,

    cargo run --release -q -p tsumugi-shogi --bin movelist -- FILE [--limit N]

which prints, per position line, `<line_no>\t<in_check 0|1>\t<mate 0|1>\t<moves>`
(moves: all legal USI moves, sorted, space-separated) or
`<line_no>\terror\t<message>`.  `--binary CMD ...` (must come last) replaces the
cargo command; FILE and `--limit N` are appended to it.

For every position the same data is computed with cshogi and compared:
the exact set of legal moves, in_check, and mate (= in check with no legal move).
Exit status: 0 all equal (or FILE absent: skipped with a note), 1 mismatches or
the tool failed, 2 usage/setup error (e.g. cshogi not installed).

What cshogi does (verified with cshogi 1.1.0, `pip install cshogi`):
  * `cshogi.Board(sfen).legal_moves` is a `cshogi.LegalMoveList`, which wraps
    Apery's `MoveList<LegalAll>`.  It INCLUDES the optional non-promotions:
    on `lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3`
    it gives both 8h2b and 8h2b+, 8h3c and 8h3c+ (39 moves); on
    `4k4/9/2P6/9/9/9/9/9/L3K4 b - 1` it gives 7c7b, 7c7b+, 9i9b, 9i9b+, 9i9c,
    9i9c+ and 9i9a+ only (no 9i9a); rook 9d9a/9d9a+ both present.  From the
    initial position it gives the usual 30 moves.  It excludes pawn-drop mate
    (P*1b on `8k/9/6NG1/9/9/9/9/9/4K4 b P 1` is absent).  Older cshogi
    releases wrapped `MoveList<Legal>`, which drops the non-promotions of
    pawn/bishop/rook and the lance's non-promotion to the 2nd-last rank.
  * `board.pseudo_legal_moves` adds nothing useful here.  `board.is_legal(
    board.move_from_usi(usi))` must NOT be used to supplement: it accepts
    7b7a (pawn to last rank unpromoted), 9i9a (lance), 7c6a (knight) and even
    5i5h+ (a "promoted" king move).
  * Therefore the script probes cshogi at start-up.  If legal_moves already
    contains the non-promotions (cshogi >= the LegalAll change), cshogi's list
    is used as is.  Otherwise, for every promotion of a pawn/lance/bishop/rook
    in cshogi's list, the same move without '+' is added, except pawn/lance
    moves to the last rank.  This is exact: promoting or not does not change
    whether one's own king is left in check.  In LegalAll mode the same rule
    is still applied as a consistency check (it must add nothing).
  * `cshogi.move_to_usi` gives e.g. `7g7f`, `8h2b+`, `P*5e` (drops are upper
    case for both colours).  `board.is_check()` = side to move in check.
    Mate is computed as `is_check() and no legal moves` (`is_game_over()` is
    "no legal moves" and is only used as a sanity check).
  * cshogi's SFEN parser is lenient (accepts a truncated board or a missing
    ply); a line counts as "cshogi can't parse it" (skipped with a note) if
    `cshogi.Board` raises, if board/side/hand don't round-trip through
    `board.sfen()` (board compared square by square: cshogi reads adjacent
    digits one at a time, so `1n14` = `1n5`; midgame_positions.sfen line 36
    has such a rank and our parser must accept it), or if a side has no king
    or several kings.  cshogi does accept dead pieces (e.g. a lance on the
    last rank) and two pawns on a file; if our parser rejects such a line it
    is reported as a mismatch (the shared problem files contain none).
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

MAX_REPORTED = 20

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CMD = ["cargo", "run", "--release", "-q", "-p", "tsumugi-shogi",
               "--example", "movelist", "--"]

try:
    import cshogi
except ImportError:  # pragma: no cover
    cshogi = None


# ---------------------------------------------------------------- input file

def position_lines(path, limit=None):
    """Yield (line_no, sfen) for the position lines of FILE, as our tool reads them."""
    text = Path(path).read_bytes().decode("utf-8", errors="replace")
    count = 0
    for idx, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if limit is not None and count >= limit:
            break
        count += 1
        sfen = line.split(" #", 1)[0].strip()
        if sfen.startswith("sfen "):
            sfen = sfen[5:].strip()
        yield idx, sfen


# ---------------------------------------------------------------- cshogi side

def _hand_counts(hand):
    if hand == "-":
        return {}
    if not re.fullmatch(r"(\d*[RBGSNLPrbgsnlp])+", hand):
        return None
    counts = {}
    for num, piece in re.findall(r"(\d*)([A-Za-z])", hand):
        counts[piece] = counts.get(piece, 0) + (int(num) if num else 1)
    return counts


def _expand_board(board):
    # "1n14" and "1n5" are the same rank: cshogi (like YaneuraOu) reads digits one by one.
    return re.sub(r"\d", lambda m: "." * int(m.group()), board)


def cshogi_parse(sfen):
    """Return a cshogi.Board, or a string saying why cshogi can't take the line."""
    fields = sfen.split()
    if len(fields) < 3:
        return "fewer than 3 SFEN fields"
    try:
        board = cshogi.Board(sfen)
    except Exception as e:  # cshogi raises RuntimeError("incorrect SFEN string")
        return "cshogi: %s" % e
    back = board.sfen().split()
    if _expand_board(back[0]) != _expand_board(fields[0]) or back[1] != fields[1]:
        return "cshogi does not round-trip the board/side (%s %s)" % (back[0], back[1])
    if _hand_counts(fields[2]) is None or _hand_counts(fields[2]) != _hand_counts(back[2]):
        return "cshogi does not round-trip the hand (%s)" % back[2]
    if fields[0].count("K") != 1 or fields[0].count("k") != 1:
        return "not exactly one king per side"
    return board


def supplement(board, moves):
    """Non-promotions implied by cshogi's promotion moves (see module docstring)."""
    last_rank = "a" if board.turn == cshogi.BLACK else "i"
    extra = set()
    for m in moves:
        if cshogi.move_is_drop(m) or not cshogi.move_is_promotion(m):
            continue
        pt = cshogi.move_from_piece_type(m)
        usi = cshogi.move_to_usi(m)
        assert usi.endswith("+"), usi
        if pt in (cshogi.BISHOP, cshogi.ROOK):
            extra.add(usi[:-1])
        elif pt in (cshogi.PAWN, cshogi.LANCE) and usi[3] != last_rank:
            extra.add(usi[:-1])
    return extra


def probe_legal_all():
    """True if cshogi's legal_moves already lists the optional non-promotions."""
    probes = [
        ("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3", "8h2b"),
        ("4k4/9/2P6/9/9/9/9/9/L3K4 b - 1", "7c7b"),
        ("4k4/9/L8/9/9/9/9/9/4K4 b - 1", "9c9b"),
        ("4k4/9/9/R8/9/9/9/9/4K4 b - 1", "9d9a"),
    ]
    found = []
    for sfen, usi in probes:
        board = cshogi.Board(sfen)
        found.append(usi in {cshogi.move_to_usi(m) for m in board.legal_moves})
    return all(found)


def cshogi_answer(board, legal_all):
    """(in_check, mate, set of usi moves, note or None)."""
    raw = list(board.legal_moves)
    moves = {cshogi.move_to_usi(m) for m in raw}
    extra = supplement(board, raw) - moves
    note = None
    if legal_all:
        if extra:
            note = "internal: non-promotion rule adds %s to cshogi's LegalAll list" % sorted(extra)
        if board.is_game_over() != (not moves):
            note = "internal: cshogi is_game_over() disagrees with its move list"
    else:
        moves |= extra
    in_check = bool(board.is_check())
    mate = in_check and not moves
    return in_check, mate, moves, note


# ---------------------------------------------------------------- our side

def run_tool(cmd, path, limit):
    full = list(cmd) + [str(path)]
    if limit is not None:
        full += ["--limit", str(limit)]
    print("running: %s" % " ".join(shlex.quote(c) for c in full), flush=True)
    try:
        proc = subprocess.run(full, cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True)
    except OSError as e:
        return None, "cannot start %s: %s" % (full[0], e)
    if proc.returncode != 0:
        return None, "tool exited with status %d" % proc.returncode
    return proc.stdout, None


def parse_tool_output(text):
    """Map line_no -> ('error', msg) | ('ok', in_check, mate, [moves]); plus format problems."""
    out, problems = {}, []
    for raw in text.split("\n"):
        raw = raw.rstrip("\r")
        if not raw.strip():
            continue
        parts = raw.split("\t")
        try:
            line_no = int(parts[0])
        except ValueError:
            problems.append("unparsable output line: %r" % raw[:200])
            continue
        if line_no in out:
            problems.append("line %d reported twice" % line_no)
            continue
        if len(parts) >= 2 and parts[1] == "error":
            out[line_no] = ("error", "\t".join(parts[2:]))
            continue
        if len(parts) not in (3, 4) or parts[1] not in ("0", "1") or parts[2] not in ("0", "1"):
            problems.append("malformed output for line %d: %r" % (line_no, raw[:200]))
            continue
        moves = parts[3].split(" ") if len(parts) == 4 and parts[3].strip() else []
        out[line_no] = ("ok", parts[1] == "1", parts[2] == "1", moves)
    return out, problems


# ---------------------------------------------------------------- compare

def compare(path, limit, ours, legal_all):
    """Return (stats, [(line_no, sfen, [detail lines]) per mismatching position])."""
    stats = {"positions": 0, "skipped": 0, "notes": []}
    mismatches = []
    expected = set()
    for line_no, sfen in position_lines(path, limit):
        expected.add(line_no)
        board = cshogi_parse(sfen)
        if isinstance(board, str):
            stats["skipped"] += 1
            stats["notes"].append("line %d skipped (cshogi can't parse: %s): %s" % (line_no, board, sfen))
            continue
        stats["positions"] += 1
        c_check, c_mate, c_moves, note = cshogi_answer(board, legal_all)
        if note:
            stats["notes"].append("line %d: %s" % (line_no, note))
        got = ours.get(line_no)
        details = []
        if got is None:
            details.append("no output from our tool for this line")
        elif got[0] == "error":
            details.append("our tool reported an error: %s" % got[1])
            details.append("cshogi: %d legal moves, in_check=%d mate=%d"
                           % (len(c_moves), c_check, c_mate))
        else:
            _, o_check, o_mate, o_list = got
            o_moves = set(o_list)
            if o_check != c_check:
                details.append("in_check: ours=%d cshogi=%d" % (o_check, c_check))
            if o_mate != c_mate:
                details.append("mate: ours=%d cshogi=%d" % (o_mate, c_mate))
            if o_moves != c_moves:
                details.append("moves: ours %d, cshogi %d" % (len(o_moves), len(c_moves)))
                details.append("only ours:   %s" % (" ".join(sorted(o_moves - c_moves)) or "-"))
                details.append("only cshogi: %s" % (" ".join(sorted(c_moves - o_moves)) or "-"))
            if len(o_moves) != len(o_list):
                dups = sorted({m for m in o_list if o_list.count(m) > 1})
                details.append("duplicate moves in our list: %s" % " ".join(dups))
            if o_list != sorted(o_list):
                details.append("our move list is not sorted")
        if details:
            mismatches.append((line_no, sfen, details))
    for line_no in sorted(set(ours) - expected):
        mismatches.append((line_no, "(not a position line within the limit)",
                           ["our tool printed output for this line"]))
    return stats, mismatches



def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--limit", type=int, default=None,
                    help="only the first N position lines")
    ap.add_argument("--binary", nargs=argparse.REMAINDER, default=None,
                    help="command replacing the cargo invocation (must be last); "
                         "FILE and --limit N are appended")
    args = ap.parse_args(argv)

    path = Path(args.file).resolve()
    if not path.is_file():
        print("cshogi cross-check: %s not found, skipped" % args.file)
        return 0
    if cshogi is None:
        print("cshogi cross-check: python module cshogi missing (pip install cshogi)",
              file=sys.stderr)
        return 2
    cmd = DEFAULT_CMD
    if args.binary is not None:
        if not args.binary:
            ap.error("--binary needs a command")
        cmd = shlex.split(args.binary[0]) if len(args.binary) == 1 else args.binary

    legal_all = probe_legal_all()
    try:
        from importlib.metadata import version
        cs_version = version("cshogi")
    except Exception:
        cs_version = "?"
    print("cshogi %s: legal_moves %s" % (
        cs_version,
        "includes the optional non-promotions (used as is)" if legal_all else
        "omits optional non-promotions (supplemented from its promotion moves)"))

    text, err = run_tool(cmd, path, args.limit)
    if text is None:
        print("cshogi cross-check: FAILED: %s" % err)
        return 1
    ours, problems = parse_tool_output(text)

    stats, mismatches = compare(path, args.limit, ours, legal_all)

    for note in stats["notes"][:MAX_REPORTED]:
        print("note: " + note)
    if len(stats["notes"]) > MAX_REPORTED:
        print("note: ... %d more notes" % (len(stats["notes"]) - MAX_REPORTED))
    for p in problems:
        print("output problem: " + p)
    for line_no, sfen, details in mismatches[:MAX_REPORTED]:
        print("MISMATCH line %d: %s" % (line_no, sfen))
        for d in details:
            print("    " + d)
    if len(mismatches) > MAX_REPORTED:
        print("... %d more mismatching positions not shown" % (len(mismatches) - MAX_REPORTED))
    skipped = ", %d skipped" % stats["skipped"] if stats["skipped"] else ""
    print("cshogi cross-check: %s: %d positions, %d mismatches%s"
          % (os.path.basename(str(path)), stats["positions"], len(mismatches), skipped))
    return 1 if mismatches or problems else 0


if __name__ == "__main__":
    sys.exit(main())
