#!/usr/bin/env bash
# The jlinked image must run on its own: build it (scripts/build-image.sh), then start `bin/svc serve` from
# the image in an empty folder and check that the database migrations ran (the image has no class path, so
# Flyway must find them through the module layer), /version answers, and the image's CLI works locally.
# SVC_IMAGE names an image built already (run-tests builds one for this test and installers/deb-test.sh).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
work=$(mktemp -d)
image=${SVC_IMAGE:-$work/image}
[ -n "${SVC_IMAGE:-}" ] || "$root/scripts/build-image.sh" "$image"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
metrics_port=$(free_port)
cat >"$work/config.yaml" <<EOF
server_url: "http://127.0.0.1:$port"
listen_addr: "127.0.0.1:$port"
metrics_listen_addr: "127.0.0.1:$metrics_port"
derp:
  urls: []
  server:
    stun_listen_addr: "127.0.0.1:0"
    tls_listen_addr: "127.0.0.1:0"
EOF

log=$work/serve.log
(cd "$work" && exec "$image/bin/svc" serve) >"$log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "image smoke test: $1; server output:" >&2; cat "$log" >&2; exit 1; }

ok=""
for _ in $(seq 1 120); do
  if body=$(curl -fsS "http://127.0.0.1:$port/version" 2>/dev/null); then ok=yes; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.5
done
[ -n "$ok" ] || fail "bin/svc serve did not answer /version"
echo "image smoke test: /version answered $body"
echo "$body" | grep -q '"version"' || fail "/version body lacks a version"
# Creating a user needs the migrated schema; the CLI finds the server through the local credential.
(cd "$work" && "$image/bin/svc" users create --name imagesmoke --role admin >/dev/null) || fail "svc users create failed"
(cd "$work" && "$image/bin/svc" users list --output json) | grep -q '"name" : "imagesmoke"' || fail "the user is not listed"
echo "1 passed, 0 failed"
