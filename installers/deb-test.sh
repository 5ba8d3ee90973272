#!/usr/bin/env bash
# The Debian package, tested in a clean Debian root (debootstrap, cached under .cache/):
#   - systemd-analyze verify accepts the unit;
#   - the package installs (dpkg -i in the root, its maintainer scripts run there: account, folders);
#   - the binary starts from the unit's own ExecStart, as the unit's user in its working folder, and answers /version;
#   - an upgrade to a higher version keeps the database (a user made before is there after);
#   - removing the package keeps the data.
# Needs root (debootstrap, chroot), dpkg-deb and systemd-analyze; installs debootstrap when missing. About 3 minutes the
# first time (the Debian root), then well under one.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cache=$root/.cache/debian-bookworm-root
if [ "$(id -u)" != 0 ]; then
  echo "deb-test: needs root (debootstrap, chroot); skipped" >&2
  exit 0
fi
if ! command -v debootstrap >/dev/null || ! command -v systemd-analyze >/dev/null; then
  # A fresh machine may have no package lists yet: update once when the first attempt fails.
  flock /tmp/apt.lock sh -c 'apt-get install -y debootstrap systemd >/dev/null 2>&1 \
      || { apt-get update >/dev/null && apt-get install -y debootstrap systemd >/dev/null; }'
fi
if [ ! -x "$cache/bin/sh" ]; then
  rm -rf "$cache.partial"
  debootstrap --variant=minbase bookworm "$cache.partial" http://deb.debian.org/debian >/dev/null
  mv "$cache.partial" "$cache"
fi

work=$(mktemp -d)
debian=$work/root
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  umount "$debian/proc" 2>/dev/null || true
  umount "$debian/dev" 2>/dev/null || true
  umount "$debian" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "deb-test: $*" >&2; exit 1; }

# Two packages of one image (SVC_IMAGE: one built already): the second a higher version, for the upgrade.
image=${SVC_IMAGE:-$work/image}
[ -n "${SVC_IMAGE:-}" ] || "$root/scripts/build-image.sh" "$image" >/dev/null
v1=$(SVC_IMAGE=$image "$root/installers/build-deb.sh" "$work/debs" 1.0.0)
v2=$(SVC_IMAGE=$image "$root/installers/build-deb.sh" "$work/debs" 1.0.1)

mkdir "$debian" && cp -a "$cache/." "$debian/"
# The root a mount point of its own: the JVM looks files' file systems up in /proc/self/mounts, which a chroot shows
# only for mount points inside it.
mount --bind "$debian" "$debian"
mount -t proc proc "$debian/proc"
mount --bind /dev "$debian/dev"
in_root() { chroot "$debian" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }

cp "$v1" "$v2" "$debian/tmp/"
in_root dpkg -i "/tmp/$(basename "$v1")" >/dev/null || fail "dpkg -i $v1 failed"
in_root getent passwd svc >/dev/null || fail "postinst made no svc account"
[ "$(stat -c %u "$debian/var/lib/svc")" = "$(in_root id -u svc)" ] || fail "/var/lib/svc is not the svc account's"
[ -L "$debian/usr/bin/svc" ] || fail "svc is not on the PATH"
grep -qx 'Exec=svc admin' "$debian/usr/share/applications/svc-admin.desktop" \
  || fail "the desktop entry of svc admin is missing"
[ -s "$debian/usr/share/icons/hicolor/scalable/apps/svc-admin.svg" ] || fail "the icon of svc admin is missing"
unit=$debian/lib/systemd/system/svc.service
# Verified on this machine's systemd (the minimal root has none), its ExecStart pointed into the root.
mkdir "$work/unit"
sed "s#/opt/svc/#$debian/opt/svc/#g" "$unit" >"$work/unit/svc.service"
systemd-analyze verify "$work/unit/svc.service" 2>"$work/verify" \
  || { cat "$work/verify" >&2; fail "systemd-analyze verify refused the unit"; }

# Start the service as its unit would: its user, its working folder, its ExecStart; free loopback ports and no
# outside requests, through the SVC_ variables a drop-in would set.
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
start() {
  rm -f "$debian/var/lib/svc/cli-credential.json"
  chroot --userspec=svc:svc "$debian" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/var/lib/svc \
    SVC_LISTEN_ADDR=127.0.0.1:0 SVC_METRICS_LISTEN_ADDR=127.0.0.1:0 SVC_DERP_SERVER_STUN_LISTEN_ADDR=127.0.0.1:0 \
    SVC_DERP_SERVER_TLS_LISTEN_ADDR=127.0.0.1:0 SVC_DERP_URLS= SVC_CLIENT_UPDATES_CHECK=false \
    /bin/sh -c "cd /var/lib/svc && exec $exec_start" >"$work/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 1 600); do
    [ -s "$debian/var/lib/svc/cli-credential.json" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/serve.log" >&2; fail "svc serve exited"; }
    sleep 0.1
  done
  url=$(sed -n 's/.*"url" *: *"\([^"]*\)".*/\1/p' "$debian/var/lib/svc/cli-credential.json")
  [ -n "$url" ] || { cat "$work/serve.log" >&2; fail "svc serve left no local credential"; }
}
stop() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }

start
version=$(curl -fsS "$url/version") || fail "no /version at $url"
echo "$version" | grep -q '"version"' || fail "/version answered $version"
in_root svc users create --name odin >/dev/null || fail "svc users create failed"
stop

in_root dpkg -i "/tmp/$(basename "$v2")" >/dev/null || fail "upgrade to $v2 failed"
in_root dpkg-query -W -f '${Version}' svc | grep -qx 1.0.1 || fail "the upgrade did not install 1.0.1"
start
in_root svc users list | grep -q odin || fail "the upgrade lost the database"
stop

in_root dpkg -r svc >/dev/null || fail "dpkg -r failed"
[ -s "$debian/var/lib/svc/db.sqlite" ] || fail "removing the package removed the database"
[ ! -e "$debian/opt/svc/bin/svc" ] || fail "removing the package left the program"
echo "deb-test: ok (install, unit verified, /version from ExecStart, upgrade kept the database, removal kept the data)"
