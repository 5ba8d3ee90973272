#!/usr/bin/env bash
# Builds Let's Encrypt's test ACME server (pebble) and its DNS/challenge companion (pebble-challtestsrv)
# from the Go module proxy into <repo>/.cache/pebble (git-ignored), with the TLS certificate pebble serves
# its API with, copied from the same module. The ACME interop tests (AcmeTest, TailscaleCertTest) run them
# on loopback. Skips the build when the stamp still names the pinned version.
set -euo pipefail

PEBBLE_VERSION=v2.10.1

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$repo/.cache/pebble
stamp=$out/install.stamp
if [[ -f $stamp && $(cat "$stamp") == "$PEBBLE_VERSION" && -x $out/pebble && -x $out/pebble-challtestsrv
      && -f $out/classpath/pebble.minica.pem ]]; then
  echo "install-pebble: pebble $PEBBLE_VERSION already in $out"
  exit 0
fi
mkdir -p "$out/certs"
GOBIN=$out GOFLAGS=-mod=mod go install \
  "github.com/letsencrypt/pebble/v2/cmd/pebble@$PEBBLE_VERSION" \
  "github.com/letsencrypt/pebble/v2/cmd/pebble-challtestsrv@$PEBBLE_VERSION"
source_dir=$(go env GOMODCACHE)/github.com/letsencrypt/pebble/v2@$PEBBLE_VERSION/test/certs
install -m 0644 "$source_dir/localhost/cert.pem" "$out/certs/localhost-cert.pem"
install -m 0600 "$source_dir/localhost/key.pem" "$out/certs/localhost-key.pem"
install -m 0644 "$source_dir/pebble.minica.pem" "$out/certs/minica.pem"
# acme4j's pebble provider (acme://pebble/...) trusts a /pebble.minica.pem on the class path before its own copy,
# which is of an older pebble: the interop module puts this folder on its test class path.
mkdir -p "$out/classpath"
install -m 0644 "$source_dir/pebble.minica.pem" "$out/classpath/pebble.minica.pem"
echo "$PEBBLE_VERSION" > "$stamp"
echo "install-pebble: pebble $PEBBLE_VERSION built into $out"
