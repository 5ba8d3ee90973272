#!/usr/bin/env bash
# Installs the real Tailscale binaries the interop tests run (tailscaled, tailscale, derper, derpprobe)
# for every version pinned in interop/versions.env, with `go install` from the Go module proxy.
#
#   interop/install-clients.sh            install what is missing or stale
#   interop/install-clients.sh --force    reinstall every pinned version
#
# Each version lands in <clients dir>/<version>/bin; the clients dir is $SVC_CLIENTS_DIR or
# <repo>/.tools/clients (git-ignored). A version whose stamp file (install.stamp) still matches its
# pin and whose four binaries still match the checksums in it is skipped. Needs `go` 1.21+ on PATH
# and access to the Go module proxy; the Go build cache stays where `go env GOCACHE` says, so a
# second machine-local run only relinks. Prints one line per version; any failure exits non-zero.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
clients_dir=${SVC_CLIENTS_DIR:-$repo/.tools/clients}
binaries=(tailscaled tailscale derper derpprobe)

die() { echo "install-clients: $*" >&2; exit 1; }
trap 'echo "install-clients: failed at line $LINENO: $BASH_COMMAND" >&2' ERR

force=false
for arg in "$@"; do
  case $arg in
    --force) force=true ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$arg' (try --help)" ;;
  esac
done

need_go="needs Go 1.21 or newer on PATH (https://go.dev/dl/, or apt-get install golang-go); the pinned toolchains are fetched by it"
command -v go >/dev/null || die "$need_go"
# GOTOOLCHAIN (how the pinned toolchain is selected and fetched) exists since Go 1.21.
[[ $(GOTOOLCHAIN=local go env GOVERSION) =~ ^go1\.(2[1-9]|[3-9][0-9]) ]] || die "$need_go; found $(go version)"
command -v sha256sum >/dev/null || die "needs sha256sum (coreutils)"

# shellcheck source=versions.env
. "$repo/interop/versions.env"
[ -n "${TS_PINS:-}" ] || die "interop/versions.env defines no TS_PINS"

# Prints the value of setting TS_<pin>_<what>; dies if it is missing.
pin_setting() {
  local name="TS_$1_$2"
  [ -n "${!name:-}" ] || die "interop/versions.env lacks $name"
  echo "${!name}"
}

# Reads one pin's settings into version, capver, toolchain.
read_pin() {
  local pin=$1
  version=$(pin_setting "$pin" VERSION)
  capver=$(pin_setting "$pin" CAPVER)
  toolchain=$(pin_setting "$pin" GOTOOLCHAIN)
  [[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "TS_${pin}_VERSION '$version' is not a release version like v1.80.3"
  [[ $toolchain =~ ^go[0-9]+\.[0-9]+(\.[0-9]+)?$ ]] || die "TS_${pin}_GOTOOLCHAIN '$toolchain' is not a toolchain name like go1.26.8"
}

# Everything that decides the bytes of the binaries; a change makes the stamp stale.
install_config() {
  echo "version=$version gotoolchain=$toolchain cgo=0 ldflags=$ldflags"
}

stamp_matches() {
  local dir=$1 stamp=$1/install.stamp
  [ -f "$stamp" ] || return 1
  [ "$(sed -n 's/^config: //p' "$stamp")" = "$(install_config)" ] || return 1
  [ "$(grep -c ' bin/' "$stamp")" -eq ${#binaries[@]} ] || return 1
  (cd "$dir" && grep ' bin/' "$stamp" | sha256sum --status --check --strict -) || return 1
}

# The tailscale binary in $1 must say it is the pinned version with the pinned capability version.
check_identity() {
  local meta
  meta=$("$1/tailscale" version --json) || die "$1/tailscale version --json failed"
  grep -q "\"short\": *\"${version#v}\"" <<<"$meta" || die "$version: tailscale version --json says $meta"
  grep -q "\"cap\": *$capver\b" <<<"$meta" ||
    die "$version: capability version is not $capver as pinned in interop/versions.env: $meta"
}

install_version() {
  local dir=$clients_dir/$version started=$SECONDS
  local staging=$dir/bin.partial packages=() name
  for name in "${binaries[@]}"; do packages+=("tailscale.com/cmd/$name@$version"); done

  rm -rf "$staging" "$dir/install.stamp"
  mkdir -p "$staging"
  # The pinned toolchain, not whatever go.mod or the environment would pick; CGO off like Tailscale's
  # static release builds (and no C compiler needed); GOFLAGS replaced so a user's settings can't leak in.
  if ! GOTOOLCHAIN=$toolchain GOFLAGS=-buildvcs=false CGO_ENABLED=0 GOBIN=$staging \
      go install -ldflags="$ldflags" "${packages[@]}"; then
    die "go install of tailscale.com $version with $toolchain failed (output above)"
  fi
  for name in "${binaries[@]}"; do
    [ -x "$staging/$name" ] || die "go install of $version produced no $name"
  done

  check_identity "$staging"

  rm -rf "$dir/bin"
  mv "$staging" "$dir/bin"
  {
    echo "# Written by interop/install-clients.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ) with $(GOTOOLCHAIN=$toolchain go version)."
    echo "# Delete this file (or run with --force) to reinstall."
    echo "config: $(install_config)"
    (cd "$dir" && sha256sum "${binaries[@]/#/bin/}")
  } >"$dir/install.stamp.partial"
  mv "$dir/install.stamp.partial" "$dir/install.stamp"
  echo "$version (capver $capver, $toolchain): installed in $((SECONDS - started))s -> $dir/bin"
}

IFS=, read -r -a pins <<<"$TS_PINS"
for pin in "${pins[@]}"; do
  read_pin "$pin"
  # Stamped like Tailscale's build_dist.sh, so `tailscale version` prints the release number
  # instead of "<version>-dev" (a module download carries no VCS information to derive it from).
  ldflags="-X tailscale.com/version.shortStamp=${version#v} -X tailscale.com/version.longStamp=${version#v}"
  if ! $force && stamp_matches "$clients_dir/$version"; then
    check_identity "$clients_dir/$version/bin"
    echo "$version (capver $capver, $toolchain): up to date, 0s -> $clients_dir/$version/bin"
    continue
  fi
  install_version
done
