#!/usr/bin/env bash
# CI smoke test of the load harness: bench/run with 100 nodes twice, first with full clients (the vendor's
# controlclient builds every node's netmap; 100 nodes are enough for the full maps of nodes 64 to 100 to carry the
# first 63 as a kept block of peers, so the vendor's client decodes such bodies here too), then with light clients
# (-light, what the runs at 5,000 and 10,000 nodes use: frames checked and decompressed by every node, decoded by a
# sample). It fails only when the harness cannot do its job (the server does not start, nodes do not register or
# never hold their peer lists, the server's map counter or CPU cannot be read, something crashes), never on how
# fast anything was; the figures are printed for the log. First come loadgen's own unit tests; last, when PostgreSQL
# and HAProxy are installed, bench/run-ha with 50 nodes (two instances and a failover).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
(cd "$root/bench/loadgen" && go vet ./... && go test ./...) # the harness's own unit tests
out=$(mktemp)
trap 'rm -f "$out"' EXIT

fail() { echo "bench/smoke.sh: FAILED: $*" >&2; exit 1; }

smoke_run() { # label, then bench/run's arguments
  local label=$1 last
  shift
  if ! "$root/bench/run" "$@" | tee "$out"; then
    fail "$label: bench/run $* did not complete (output above)"
  fi
  last=$(tail -n 1 "$out")
  case $last in
    *'"loadgen_exit":0'*'"server_cpu_s":'*|*'"server_cpu_s":'*'"loadgen_exit":0'*) ;;
    *) fail "$label: the last line is not bench/run's JSON summary: $last" ;;
  esac
  case $last in
    *'"reconnect_server_wrote_all_first_maps_s":'*) ;;
    *) fail "$label: no server-side reconnect figure (svc_map_messages_total not read): $last" ;;
  esac
  case $last in
    *'"join_server_full_maps_within_s":'*'"reconnect_server_full_maps_within_s":'*) ;;
    *) fail "$label: no server-side full-map times (svc_map_full_map_seconds not read): $last" ;;
  esac
  case $last in
    *'"phases":[{"name":"join","wall_s":'*'"server_cpu_s":'*'"mass reconnect"'*) ;;
    *) fail "$label: no server CPU per phase (-server-pid not read): $last" ;;
  esac
}

smoke_run "full clients" 100 -timeout 3m -changes 3
smoke_run "light clients" 100 -timeout 3m -changes 3 -light
case $(tail -n 1 "$out") in
  *'"light":true,"sampled_nodes":'*) ;;
  *) fail "light clients: the summary does not say the run was light" ;;
esac
# Two instances on PostgreSQL behind HAProxy with a failover (bench/run-ha), when both are installed (run-tests
# installs them as root): 50 full clients. Fails only when the run cannot finish or its summary lacks the failover.
if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null && [ -x /usr/sbin/haproxy ]; then
  if ! "$root/bench/run-ha" 50 -timeout 3m -changes 3 | tee "$out"; then
    fail "two instances: bench/run-ha 50 did not complete (output above)"
  fi
  case $(tail -n 1 "$out") in
    *'"failover":true,"failover_s":'*'"instance_cpu_s":['*'"loadgen_exit":0'*) ;;
    *) fail "two instances: the last line is not bench/run-ha's summary with a failover: $(tail -n 1 "$out")" ;;
  esac
else
  echo "bench/smoke.sh: PostgreSQL's server or HAProxy is not installed: the two-instance run (bench/run-ha) is skipped"
fi
echo "bench/smoke.sh: OK"
