#!/usr/bin/env bash
# CI smoke test of the load harness: bench/run with 100 nodes (enough for the full maps of nodes 64 to 100 to
# carry the first 63 as a kept block of peers, so the vendor's client decodes such bodies here too). It fails
# only when the harness cannot do its job (the server does not start, nodes do not register or never hold their
# peer lists, the server's map counter cannot be read, something crashes), never on how fast anything was; the
# figures are printed for the log. First come loadgen's own unit tests.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
(cd "$root/bench/loadgen" && go vet ./... && go test ./...) # the harness's own unit tests (its comparison table)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! "$root/bench/run" 100 -timeout 3m -changes 3 | tee "$out"; then
  echo "bench/smoke.sh: FAILED: bench/run 100 did not complete (output above)" >&2
  exit 1
fi
last=$(tail -n 1 "$out")
case $last in
  *'"loadgen_exit":0'*'"server_cpu_s":'*|*'"server_cpu_s":'*'"loadgen_exit":0'*) ;;
  *) echo "bench/smoke.sh: FAILED: the last line is not bench/run's JSON summary: $last" >&2; exit 1 ;;
esac
case $last in
  *'"reconnect_server_wrote_all_first_maps_s":'*) ;;
  *) echo "bench/smoke.sh: FAILED: no server-side reconnect figure (svc_map_messages_total not read): $last" >&2; exit 1 ;;
esac
case $last in
  *'"join_server_full_maps_within_s":'*'"reconnect_server_full_maps_within_s":'*) ;;
  *) echo "bench/smoke.sh: FAILED: no server-side full-map times (svc_map_full_map_seconds not read): $last" >&2; exit 1 ;;
esac
echo "bench/smoke.sh: OK"
