#!/usr/bin/env bash
# CI smoke test of the load harness: bench/run with 50 nodes. It fails only when the harness cannot do its
# job (the server does not start, nodes do not register or never hold their peer lists, something crashes),
# never on how fast anything was; the figures are printed for the log.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! "$root/bench/run" 50 -timeout 3m -changes 3 | tee "$out"; then
  echo "bench/smoke.sh: FAILED: bench/run 50 did not complete (output above)" >&2
  exit 1
fi
last=$(tail -n 1 "$out")
case $last in
  *'"loadgen_exit":0'*'"server_cpu_s":'*|*'"server_cpu_s":'*'"loadgen_exit":0'*) ;;
  *) echo "bench/smoke.sh: FAILED: the last line is not bench/run's JSON summary: $last" >&2; exit 1 ;;
esac
echo "bench/smoke.sh: OK"
