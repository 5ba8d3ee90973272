#!/usr/bin/env bash
# The README's first command on a fresh clone: `./svc serve` must build, start with built-in defaults
# (SQLite under data/, HTTP on 127.0.0.1:8080, metrics on 127.0.0.1:9090) and answer /version.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
work=$(mktemp -d)
clone=$work/clone
git clone -q "$root" "$clone"
# Uncommitted work would be missing from the clone; test exactly what is in the working tree.
(cd "$root" && git ls-files -z --others --exclude-standard --modified | while IFS= read -r -d "" f; do [ -f "$f" ] && cp --parents "$f" "$clone/"; done)

log=$work/serve.log
# No DERP map URLs: the default is the vendor's public map, and a test never reaches the internet. An empty
# variable is an explicit empty list (configuration rule 4).
(cd "$clone" && SVC_DERP_URLS="" exec ./svc serve) >"$log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

ok=""
for _ in $(seq 1 300); do
  if body=$(curl -fsS http://127.0.0.1:8080/version 2>/dev/null); then ok=yes; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 1
done
if [ -z "$ok" ]; then
  echo "readme smoke test: ./svc serve did not answer /version; its output:" >&2
  cat "$log" >&2
  exit 1
fi
echo "readme smoke test: /version answered $body"
echo "$body" | grep -q '"version"' || { echo "readme smoke test: /version body lacks a version" >&2; exit 1; }
# Read whole before matching: grep -q stops at the first match, and under pipefail curl's failed write when the pipe
# closed early would count as no metrics.
metrics=$(curl -fsS http://127.0.0.1:9090/metrics) || metrics=""
grep -q svc_http_requests_total <<<"$metrics" || { echo "readme smoke test: no metrics on :9090" >&2; exit 1; }
[ -f "$clone/data/db.sqlite" ] || { echo "readme smoke test: no database under data/" >&2; exit 1; }
# The next steps name the command as it was started, with a key for every machine.
# They are logged once the start is complete, which can be just after /version answers.
steps=""
for _ in $(seq 1 60); do
  if grep -q -- "--help lists everything the CLI does" "$log"; then steps=yes; break; fi
  sleep 0.5
done
[ -n "$steps" ] && grep -q -- "2. create a key to join:     ./svc preauthkeys create --user alice --reusable" "$log" \
  || { echo "readme smoke test: the next steps do not name ./svc" >&2; cat "$log" >&2; exit 1; }
# The local CLI reaches the running server with no API key.
(cd "$clone" && ./svc users create --name smoke --role admin >/dev/null)
(cd "$clone" && ./svc users list --output json) | grep -q '"name" : "smoke"' || { echo "readme smoke test: local CLI failed" >&2; exit 1; }
kill "$pid"; wait "$pid" 2>/dev/null || true
[ ! -f "$clone/data/cli-credential.json" ] || { echo "readme smoke test: credential left behind after stop" >&2; exit 1; }
echo "1 passed, 0 failed"
