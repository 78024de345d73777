#!/usr/bin/env bash
# The engine's peak memory at USI_Hash 64 (benches/README.md, "Memory"): `go infinite` from the
# start position for 15 s after `isready`, peak resident memory (VmHWM) read by usi_probe.py, as
# ../shared/acceptance/engine-races.sh reads it. Run from the project root.
set -u -o pipefail
SHARED=${SHARED:-../shared}
cargo build --release -p tsumugi-engine -q || { echo "release build fails"; exit 1; }
START='lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
python3 "$SHARED/tools/usi_probe.py" memory --engine target/release/tsumugi --hash "${HASH:-64}" \
  --seconds 15 --go "go infinite" --sfen "$START"
