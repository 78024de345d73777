"""Tests of the `tsumugi` Python module: `pip install ./python pytest cshogi`, then
`pytest python/tests -q` from the repository root.

Mate lines are replayed with cshogi, an independent implementation of the rules, when it is
installed (CI installs it); those checks are skipped without it.
"""

import time
from pathlib import Path

import pytest

import tsumugi

try:
    import cshogi
except ImportError:  # pragma: no cover - depends on the environment
    cshogi = None

PROBLEMS = Path(__file__).resolve().parent.parent.parent / "problems"

# Small tables: the problems here are short, and each call allocates its own.
HASH_MB = 16


def problem_lines(name, count):
    """The first `count` problems of a set: (sfen, id, answer) from `<sfen> # <id> <answer>`."""
    out = []
    for line in (PROBLEMS / name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        sfen, _, tail = line.partition("#")
        ident, answer = tail.split()[:2]
        out.append((sfen.strip(), ident, answer))
        if len(out) == count:
            break
    return out


MATE3 = problem_lines("yaneuraou_mate3_100.sfen", 20)


def assert_mate_in_cshogi(sfen, moves):
    board = cshogi.Board(sfen)
    for m in moves:
        move = board.move_from_usi(m)
        assert move and board.is_legal(move), f"illegal move {m} in {board.sfen()}"
        board.push(move)
    assert board.is_game_over(), f"{' '.join(moves)} does not end in mate"
    assert board.is_check()


@pytest.mark.parametrize("sfen,ident,answer", MATE3, ids=[p[1] for p in MATE3])
def test_mate3_set(sfen, ident, answer):
    # These sets' answers are pure-rule lengths (every interposition counts), as in .ci/run.
    r = tsumugi.solve(sfen, rules="pure", hash_mb=HASH_MB)
    assert r.status == "mate", r
    assert r.length == int(answer), r
    assert r["length"] == r.length == len(r.moves)
    assert r.main_line and r.proven_shortest
    if cshogi is not None:
        assert_mate_in_cshogi(sfen, r.moves)


def test_twenty_problems_read():
    assert len(MATE3) == 20


def test_nomate():
    sfen, ident, answer = problem_lines("derived_nomate_nshogi.sfen", 1)[0]
    assert answer == "nomate", ident
    r = tsumugi.solve(sfen, hash_mb=HASH_MB)
    assert r.status == "nomate", r
    assert r.moves == [] and r.length is None


def test_position_forms():
    sfen, _, _ = MATE3[0]
    for text in (sfen, f"sfen {sfen}", f"position sfen {sfen}", f"  {sfen}\n"):
        assert tsumugi.solve(text, rules="pure", hash_mb=HASH_MB).length == 3, text
    # The start position: no check at all, so no mate.
    assert tsumugi.solve("position startpos", hash_mb=HASH_MB).status == "nomate"


@pytest.mark.skipif(cshogi is None, reason="cshogi is not installed")
def test_cshogi_sfen_is_accepted():
    r = tsumugi.solve(cshogi.Board().sfen(), hash_mb=HASH_MB)
    assert r.status == "nomate"
    sfen, _, answer = MATE3[1]
    r = tsumugi.solve(cshogi.Board(sfen).sfen(), rules="pure", hash_mb=HASH_MB)
    assert r.length == int(answer)


@pytest.mark.parametrize(
    "text", ["", "not a position", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
             "9/9/9/9/9/9/9/9/9 b - 1 trailing", "position startpos moves 7g7f 7g7f"]
)
def test_bad_position_raises_value_error(text):
    with pytest.raises(ValueError):
        tsumugi.solve(text)


def test_illegal_position_says_why():
    # Two black pawns on file 1.
    with pytest.raises(ValueError, match="(?i)pawn"):
        tsumugi.solve("4k4/9/9/9/9/8P/8P/9/4K4 b - 1")


@pytest.mark.parametrize(
    "kwargs", [dict(rules="shogi"), dict(threads=0), dict(time_ms=-1), dict(nodes=-5),
               dict(hash_mb=0), dict(hash_mb=1 << 20)]
)
def test_bad_arguments_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        tsumugi.solve("position startpos", **kwargs)


def test_time_limit():
    # 将棋図巧 1, 69 plies: far beyond 50 ms.
    sfen, _, _ = problem_lines("edo_zukou.sfen", 1)[0]
    start = time.monotonic()
    r = tsumugi.solve(sfen, time_ms=50, hash_mb=HASH_MB)
    assert r.status == "timeout", r
    assert time.monotonic() - start < 3
    assert r.moves == [] and r.length is None and r.nodes > 0
    assert r.cut == "the first proof"


def test_node_limit():
    sfen, _, _ = problem_lines("edo_zukou.sfen", 1)[0]
    r = tsumugi.solve(sfen, time_ms=None, nodes=10_000, hash_mb=HASH_MB)
    assert r.status == "timeout", r


def test_result_is_a_small_frozen_record():
    sfen, _, _ = MATE3[0]
    r = tsumugi.solve(sfen, rules="pure", threads=2, hash_mb=HASH_MB)
    d = r.to_dict()
    assert set(d) == {"status", "moves", "length", "nodes", "time_ms", "proven_shortest",
                      "main_line", "moves_ja", "cut"}
    assert r.cut is None
    assert d == dict(r)
    assert all(r[k] == v for k, v in d.items())
    assert len(r.moves_ja) == len(r.moves) and r.moves_ja[0][0] in "▲△"
    assert isinstance(r.time_ms, float) and r.nodes > 0
    assert repr(r).startswith("Result(status='mate', length=3, moves=['")
    with pytest.raises(KeyError):
        r["nope"]
    with pytest.raises(AttributeError):
        r.status = "nomate"


def test_any_mate():
    sfen, _, _ = MATE3[0]
    r = tsumugi.solve(sfen, rules="pure", any_mate=True, hash_mb=HASH_MB)
    assert r.status == "mate" and not r.main_line
    if cshogi is not None:
        assert_mate_in_cshogi(sfen, r.moves)


def test_japanese_moves_of_a_mate_in_one():
    r = tsumugi.solve("4k4/9/4P4/9/9/9/9/9/9 b G 1", time_ms=5000)
    assert r.moves == ["G*5b"]
    assert r.moves_ja == ["▲５二金"]


def test_report_of_a_mate_with_a_piece_left_and_of_a_cook():
    r = tsumugi.report("4k4/9/4P4/9/9/9/9/9/9 b GP 1", time_ms=5000)
    assert r["status"] == "mate" and r["length"] == 1
    assert r["main_line"]["usi"] == ["G*5b"]
    assert r["pieces_left"] == ["歩"]
    assert r["cooks"] == []
    # nshogi-mate1-0003: 7i6g mates, and 7i8g too (a cook).
    sfen = next(s for s, i, _ in problem_lines("nshogi_mate1.sfen", 10) if i == "nshogi-mate1-0003")
    r = tsumugi.report(sfen, time_ms=10000, hash_mb=16)
    assert any(c["line"]["usi"][0] == "7i8g" and c["length"] == 1 for c in r["cooks"])
    q = r["questions"]
    assert q["settled"] > 0 and q["unsettled"] == len(r["unsettled"]) == 0, q
    assert q["budget_ms"] == 60000


def test_report_with_a_node_budget_for_its_questions():
    # nshogi-mate1-0003 again: the questions within 1,000,000 nodes and no time limit.
    sfen = next(s for s, i, _ in problem_lines("nshogi_mate1.sfen", 10) if i == "nshogi-mate1-0003")
    r = tsumugi.report(sfen, time_ms=10000, hash_mb=16, questions_nodes=1000000)
    q = r["questions"]
    assert q["budget_nodes"] == 1000000 and q["budget_ms"] is None, q
    assert 0 < q["nodes"] <= 1000000 and q["unsettled"] == 0, q
    assert r["proven_shortest"] and r["shorter_open"] == []
    with pytest.raises(ValueError):
        tsumugi.report(sfen, questions_nodes=-1)


def test_report_compares_the_intended_line():
    r = tsumugi.report("4k4/9/4P4/9/9/9/9/9/9 b G 1", time_ms=5000, intended=["G*5b"])
    assert r["intended"]["departure"] == "Same"
    with pytest.raises(ValueError):
        tsumugi.report("4k4/9/4P4/9/9/9/9/9/9 b G 1", intended=["G*5b", "9a9b"])
