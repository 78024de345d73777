#!/usr/bin/env bash
# Kill-and-resume check of the table file (by hand, not in CI): solves 将棋図巧 002-019 with a
# table file, kills the run with SIGKILL after KILL_AFTER seconds, runs again with the same
# file (which must open with its dirty flag set, have its entries checked, and finish), checks
# the answers with verify_mates.py, then runs a third time on the clean file to compare nodes.
# Usage: scripts/table_file_kill_resume.sh [KILL_AFTER=8] [HASH_MB=256]
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin="$here/target/release/tsumugi-mate"
kill_after=${1:-8}
hash=${2:-256}
work=$(mktemp -d)
grep -E " # zukou-0(0[2-9]|1[0-9]) " /work/shared/problems/edo_zukou.sfen > "$work/set.sfen"
solve() { "$bin" solve "$work/set.sfen" --quiet --hash "$hash" --time-ms 30000 --table-file "$work/t.tt" "$@"; }

# The binary itself in the background (not a function's subshell), so that the kill reaches it.
"$bin" solve "$work/set.sfen" --quiet --hash "$hash" --time-ms 30000 --table-file "$work/t.tt" \
    --results "$work/killed.res" > "$work/killed.out" 2> "$work/killed.err" &
pid=$!
sleep "$kill_after"
kill -9 "$pid" || true
wait "$pid" 2>/dev/null || true
echo "killed after ${kill_after}s: $(wc -l < "$work/killed.res") problems answered"
od -An -tu1 -j42 -N1 "$work/t.tt" | sed 's/^ */dirty flag after the kill: /'

solve --results "$work/resumed.res" > "$work/resumed.out" 2> "$work/resumed.err"
head -1 "$work/resumed.err"
python3 /work/shared/tools/verify_mates.py --rules tsume "$work/set.sfen" "$work/resumed.res"
od -An -tu1 -j42 -N1 "$work/t.tt" | sed 's/^ */dirty flag after a clean run: /'
solve --results "$work/again.res" > "$work/again.out" 2> "$work/again.err"
for run in resumed again; do
    grep "^# time" "$work/$run.out" | sed "s/^/$run: /"
done
echo "work dir: $work"
