# Sourced by ./svc and scripts/build-image.sh: whether the CLI and its libraries under modules/cli/target must be
# built again. ./svc touches the stamp after each build (package, then the client archive's training run), so a
# second build of the same sources, e.g. the jlinked image right after a smoke test ran ./svc, is skipped.
svc_build_stamp() { echo "$1/modules/cli/target/svc-build.stamp"; }

# svc_build_stale ROOT: true when there is no stamp or any source or POM is newer than it.
svc_build_stale() {
  local stamp
  stamp=$(svc_build_stamp "$1")
  [ -f "$stamp" ] || return 0
  [ -n "$(find "$1/pom.xml" "$1/modules" \( -name target -prune \) -o \( -type f -newer "$stamp" -print \) | head -n 1)" ]
}
