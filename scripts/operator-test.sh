#!/usr/bin/env bash
# The vendor's Kubernetes operator against /api/v2 (issue 15; docs/api-v2.md, "The Kubernetes operator"). OPTIONAL:
# not part of ./run-tests, since building the operator takes minutes. Run it by hand:
#
#   scripts/operator-test.sh
#
# It builds tailscale.com/cmd/k8s-operator at the pinned client release (Go module proxy the first time; the binary
# is cached under .cache/k8s-operator/<version>/), starts `./svc serve` in a temporary folder on free loopback ports,
# gives it the policy and the OAuth client the spec's operator paragraph asks for (scopes auth_keys, devices:core,
# services; tag tag:k8s-operator, which owns tag:k8s, the proxies' tag), and starts the operator out of cluster with
# that client's credentials in files, as its Helm chart mounts them. The operator fetches a token
# (/api/v2/oauth/token), mints its own auth key (POST /api/v2/tailnet/-/keys) and joins as tag:k8s-operator through
# tsnet. No Kubernetes API server can run here, so it then stops at its first Kubernetes call (loading a kubeconfig):
# that failure is expected, and the script checks that it came only after the join.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
. "$root/interop/versions.env"
version=$TS_NEWEST_VERSION
bin=$root/.cache/k8s-operator/$version/k8s-operator
if [ ! -x "$bin" ]; then
  echo "operator test: building tailscale.com/cmd/k8s-operator@$version into $(dirname "$bin") (slow the first time)" >&2
  mkdir -p "$(dirname "$bin")"
  (cd "$(dirname "$bin")" && GOBIN=$(dirname "$bin") GOTOOLCHAIN=$TS_NEWEST_GOTOOLCHAIN \
    go install "tailscale.com/cmd/k8s-operator@$version")
fi

work=$(mktemp -d)
mkdir -p "$work/home"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
metrics_port=$(free_port)
cat >"$work/config.yaml" <<YAML
server_url: "http://127.0.0.1:$port"
listen_addr: "127.0.0.1:$port"
metrics_listen_addr: "127.0.0.1:$metrics_port"
cli:
  local_credential_path: "$work/data/cli-credential.json"
derp:
  urls: []
  server:
    stun_listen_addr: "127.0.0.1:0"
    tls_listen_addr: "127.0.0.1:0"
YAML
log=$work/serve.log
(cd "$work" && exec "$root/svc" serve) >"$log" 2>&1 &
pid=$!
operator=
cleanup() {
  [ -n "$operator" ] && { kill "$operator" 2>/dev/null || true; wait "$operator" 2>/dev/null || true; }
  kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "operator test: FAILED: $1" >&2
  [ -f "$work/operator.log" ] && { echo "--- operator output" >&2; tail -n 40 "$work/operator.log" >&2; }
  echo "--- server output" >&2; tail -n 30 "$log" >&2
  exit 1
}

base=http://127.0.0.1:$port
credential=$work/data/cli-credential.json
for _ in $(seq 1 300); do
  [ -s "$credential" ] && curl -fsS "$base/version" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || fail "the server stopped"
  sleep 0.5
done
[ -s "$credential" ] && curl -fsS "$base/version" >/dev/null 2>&1 || fail "the server did not start"
local_token=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["token"])' "$credential")
key=$(curl -fsS -X POST -H "Authorization: Bearer $local_token" -H 'Content-Type: application/json' \
  -d '{"description":"operator test"}' "$base/api/v1/apikey" | python3 -c 'import json,sys; print(json.load(sys.stdin)["secret"])')

# The spec's operator set-up, through /api/v2 as a Terraform configuration would make it.
curl -fsS -u "$key:" -X POST -H 'Content-Type: application/hujson' "$base/api/v2/tailnet/-/acl" --data-binary @- >/dev/null <<'POLICY'
{
  "tagOwners": {"tag:k8s-operator": [], "tag:k8s": ["tag:k8s-operator"]},
  "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}],
}
POLICY
curl -fsS -u "$key:" -X POST -H 'Content-Type: application/json' "$base/api/v2/tailnet/-/keys" \
  -d '{"keyType":"client","scopes":["auth_keys","devices:core","services"],"tags":["tag:k8s-operator"],"description":"k8s operator"}' \
  >"$work/client.json"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); open(sys.argv[2],"w").write(c["id"]); open(sys.argv[3],"w").write(c["key"])' \
  "$work/client.json" "$work/client_id" "$work/client_secret"

# Out of cluster: its namespace from the environment, tsnet's state in the temporary home, no log uploads, and no
# kubeconfig anywhere (KUBECONFIG names a file that does not exist).
echo "operator test: k8s-operator $version against $base"
(cd "$work" && exec env -i PATH="$PATH" HOME="$work/home" KUBECONFIG="$work/no-kubeconfig" \
  CLIENT_ID_FILE="$work/client_id" CLIENT_SECRET_FILE="$work/client_secret" OPERATOR_LOGIN_SERVER="$base/" \
  OPERATOR_NAMESPACE=tailscale OPERATOR_HOSTNAME=k8s-operator-test TS_NO_LOGS_NO_SUPPORT=true \
  "$bin") >"$work/operator.log" 2>&1 &
operator=$!

# Joined: the device is listed, tagged as the operator, and the operator went on to its Kubernetes set-up.
joined=
for _ in $(seq 1 240); do
  devices=$(curl -fsS -u "$key:" "$base/api/v2/tailnet/-/devices?hostname=k8s-operator-test" || true)
  if python3 -c 'import json,sys; d=json.loads(sys.argv[1])["devices"]; sys.exit(0 if d and d[0]["tags"]==["tag:k8s-operator"] else 1)' \
      "$devices" 2>/dev/null; then
    joined=yes
    break
  fi
  kill -0 "$operator" 2>/dev/null || break
  sleep 0.5
done
[ -n "$joined" ] || fail "the operator did not join as tag:k8s-operator"
for _ in $(seq 1 120); do
  kill -0 "$operator" 2>/dev/null || break
  sleep 0.5
done
status=0
wait "$operator" || status=$?
operator=
[ "$status" -ne 0 ] || fail "the operator exited 0: it cannot have run without a Kubernetes API server"
grep -qi "kubeconfig\|kubernetes\|in-cluster\|KUBERNETES_SERVICE_HOST" "$work/operator.log" \
  || fail "the operator stopped, but not at its Kubernetes configuration"
grep -q "creating operator authkey" "$work/operator.log" && fail "the operator could not mint its auth key"
echo "operator test: the operator obtained a token, minted its auth key and joined as tag:k8s-operator;"
echo "operator test: then it stopped for lack of a Kubernetes API server, as expected:"
grep -i "kubeconfig\|kubernetes\|in-cluster" "$work/operator.log" | tail -n 1
echo "1 passed, 0 failed"
