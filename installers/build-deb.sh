#!/usr/bin/env bash
# Builds the Debian package of svc: the jlinked image (scripts/build-image.sh) under /opt/svc, `svc` on the PATH,
# a systemd unit, /etc/svc/config.yaml (a conffile) and the maintainer scripts of installers/deb/.
#
#   installers/build-deb.sh [OUT_DIR] [VERSION]
#
# OUT_DIR defaults to target/deb; VERSION to the project's version (a -SNAPSHOT suffix becomes ~snapshot, which
# sorts before the release). SVC_IMAGE names an image built already (it is copied, not rebuilt).
# Prints the path of the .deb it wrote. Needs dpkg-deb; a JDK 21+ while the image is built.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
out=$(realpath -m "${1:-$root/target/deb}")
version=${2:-$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$root/pom.xml" | head -n 1)}
version=${version/-SNAPSHOT/\~snapshot}
arch=$(dpkg --print-architecture)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
if [ -n "${SVC_IMAGE:-}" ]; then
  mkdir -p "$stage/opt"
  cp -a "$SVC_IMAGE" "$stage/opt/svc"
else
  "$root/scripts/build-image.sh" "$stage/opt/svc" >&2
fi
mkdir -p "$stage/opt/svc/docs" "$stage/usr/bin" "$stage/lib/systemd/system" "$stage/etc/svc" "$stage/DEBIAN"
cp "$root/config.yaml.example" "$stage/opt/svc/config.yaml.example"
cp "$root/docs/install.md" "$stage/opt/svc/docs/install.md"
ln -s /opt/svc/bin/svc "$stage/usr/bin/svc"
# `svc admin` in the desktop's application menu, with its icon.
mkdir -p "$stage/usr/share/applications" "$stage/usr/share/icons/hicolor/scalable/apps"
install -m 0644 "$root/installers/desktop/svc-admin.desktop" "$stage/usr/share/applications/svc-admin.desktop"
install -m 0644 "$root/installers/desktop/svc-admin.svg" "$stage/usr/share/icons/hicolor/scalable/apps/svc-admin.svg"
install -m 0644 "$root/installers/deb/svc.service" "$stage/lib/systemd/system/svc.service"
install -m 0640 "$root/installers/deb/config.yaml" "$stage/etc/svc/config.yaml"
for script in postinst prerm postrm; do
  install -m 0755 "$root/installers/deb/$script" "$stage/DEBIAN/$script"
done
echo /etc/svc/config.yaml > "$stage/DEBIAN/conffiles"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: svc
Version: $version
Architecture: $arch
Maintainer: Mesh Control <svc@localhost>
Section: net
Priority: optional
Depends: passwd
Suggests: libgtk-3-0
Installed-Size: $(du -sk "$stage" | cut -f1)
Homepage: https://github.com/
Description: Mesh Control, a self-hosted control server for Tailscale clients
 One process serves the control protocol, the /api/v1 and /api/v2 APIs and an embedded
 DERP relay; the svc command manages it. Runs as the systemd service svc, with its data
 in /var/lib/svc and its configuration in /etc/svc. On a desktop, svc admin opens the
 admin app (JavaFX, drawn through GTK 3).
CONTROL
mkdir -p "$out"
deb="$out/svc_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zgzip --build "$stage" "$deb" >&2
echo "$deb"
