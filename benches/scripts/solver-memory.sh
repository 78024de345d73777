#!/usr/bin/env bash
# The solver's peak memory against its `--hash` (benches/README.md, "Memory"): the 100 problems of
# problems/yaneuraou_mate11_100.sfen (pure rules) at each hash size given (default 64 256 1024),
# peak resident set size of the process in MiB. Run from the project root.
set -u -o pipefail
cargo build --release -p tsumugi-solver -q || { echo "release build fails"; exit 1; }
sizes=${*:-64 256 1024}
for h in $sizes; do
  python3 - "$h" <<'PY'
import resource, subprocess, sys
h = sys.argv[1]
subprocess.run(["target/release/tsumugi-mate", "solve", "problems/yaneuraou_mate11_100.sfen",
                "--rules", "pure", "--quiet", "--hash", h], stdout=subprocess.DEVNULL, check=False)
print(f"--hash {h}: peak RSS {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.1f} MiB")
PY
done
