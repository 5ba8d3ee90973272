#!/usr/bin/env bash
# bench/install-headscale.sh [--force]: installs the headscale release pinned in bench/versions.env into
# <repo>/.tools/headscale/<version>/bin/headscale (git-ignored) and prints that path on stdout. Skips the build
# when that binary is there and says it is the pinned version. Needs Go 1.21+ on the PATH and the Go module
# proxy; the first build downloads headscale's dependencies into the module cache (a few minutes).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
die() { echo "install-headscale: $*" >&2; exit 1; }

force=false
case ${1:-} in
  --force) force=true ;;
  '') ;;
  *) echo "usage: bench/install-headscale.sh [--force]" >&2; exit 2 ;;
esac
command -v go >/dev/null || die "needs Go 1.21 or newer on the PATH"
# shellcheck source=versions.env
. "$root/bench/versions.env"
[[ ${HEADSCALE_VERSION:-} =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "bench/versions.env: HEADSCALE_VERSION is not like v0.29.2"
[[ ${HEADSCALE_GOTOOLCHAIN:-} =~ ^go[0-9]+\.[0-9]+(\.[0-9]+)?$ ]] || die "bench/versions.env: HEADSCALE_GOTOOLCHAIN is not like go1.26.8"

dir=$root/.tools/headscale/$HEADSCALE_VERSION
bin=$dir/bin/headscale
if ! $force && [ -x "$bin" ] && "$bin" version 2>/dev/null | grep -qx "headscale version $HEADSCALE_VERSION"; then
  echo "$bin"
  exit 0
fi

# A throwaway module that requires the pinned release as a tool: `go get` resolves exactly that version
# (checked against the checksum database) without asking the proxy for the version list.
src=$dir/src
rm -rf "$src" "$dir/bin"
mkdir -p "$src" "$dir/bin"
echo "install-headscale: building headscale $HEADSCALE_VERSION with $HEADSCALE_GOTOOLCHAIN (first time: several minutes)" >&2
(
  cd "$src"
  export GOTOOLCHAIN=$HEADSCALE_GOTOOLCHAIN GOFLAGS=-buildvcs=false CGO_ENABLED=0
  go mod init io.meshcontrol/bench/headscale-build >/dev/null 2>&1
  go get -tool "github.com/juanfont/headscale/cmd/headscale@$HEADSCALE_VERSION" >get.log 2>&1 || { cat get.log >&2; exit 1; }
  go build -o "$bin" github.com/juanfont/headscale/cmd/headscale
) || die "building headscale $HEADSCALE_VERSION failed (output above)"
"$bin" version 2>/dev/null | grep -qx "headscale version $HEADSCALE_VERSION" ||
  die "$bin does not say it is $HEADSCALE_VERSION: $("$bin" version 2>&1 | head -n 1)"
echo "$bin"
