#!/usr/bin/env bash
# Builds the installable svc image: a trimmed Java runtime made by jlink (only the JDK modules svc needs),
# the application's modular jars beside it, and a launcher.
#
#   scripts/build-image.sh [OUT]      default OUT: target/image
#
#   OUT/runtime/   the jlinked JDK (java.base, java.sql, ... as computed below; no jmods, headers or man pages)
#   OUT/lib/       svc's own modules and their dependencies, run on the module path
#   OUT/bin/svc    the launcher: OUT/bin/svc serve, OUT/bin/svc version, ...
#   OUT/cds/       the class-data archive client commands start from (docs/performance.md, "CLI start-up")
#
# The third-party libraries stay jars rather than being linked into the runtime: several are automatic
# modules, which jlink refuses (shared/reference/java-stack.md, path (b)). Needs a JDK 21+ (scripts/find-jdk.sh).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
out=$(realpath -m "${1:-$root/target/image}")
. "$root/scripts/find-jdk.sh"
svc_find_jdk || exit 1

# What ./svc built from these sources is reused (scripts/build-stamp.sh); anything else is built now.
. "$root/scripts/build-stamp.sh"
if svc_build_stale "$root"; then
  (cd "$root" && ./mvnw -B -q -DskipTests -pl modules/cli -am package)
fi
target=$root/modules/cli/target
cli_jar=$(ls "$target"/meshcontrol-cli-*.jar | grep -v -- '-tests.jar' | head -n 1)

rm -rf "$out"
mkdir -p "$out/lib" "$out/bin" "$out/share/applications" "$out/share/icons/hicolor/scalable/apps"
cp "$target"/lib/*.jar "$cli_jar" "$out/lib/"
# The desktop app's launcher entry and icon (docs/desktop.md): the Debian package puts them where desktops look;
# from a bare image, `xdg-desktop-menu install` and `xdg-icon-resource install` do.
cp "$root/installers/desktop/svc-admin.desktop" "$out/share/applications/"
cp "$root/installers/desktop/svc-admin.svg" "$out/share/icons/hicolor/scalable/apps/"

# JDK modules: what jdeps finds in the bytecode, plus every JDK module the boot layer resolves for a
# `requires` of a module on the path (jdeps misses some, e.g. sqlite-jdbc's java.sql.rowset, whose
# descriptor sits in a multi-release folder), plus the diagnostics an operator expects to work against a
# running server (JFR, jcmd's management commands).
modules=$("$JAVA_HOME/bin/jdeps" --ignore-missing-deps --multi-release 21 --print-module-deps \
  --module-path "$out/lib" --add-modules ALL-MODULE-PATH)
required=$("$JAVA_HOME/bin/java" --dry-run --show-module-resolution -p "$out/lib" --add-modules ALL-MODULE-PATH \
    -m io.meshcontrol.cli/io.meshcontrol.cli.Svc \
  | awk '$2 == "requires" && $1 !~ /^(java|jdk)\./ && $3 ~ /^(java|jdk)\./ { print $3 }')
# Before JDK 22 the elliptic-curve TLS ciphers live in their own module, found only through a service.
extra="jdk.jfr jdk.management"
if "$JAVA_HOME/bin/java" --list-modules | grep -q '^jdk.crypto.ec@'; then extra="$extra jdk.crypto.ec"; fi
modules=$(printf '%s\n' ${modules//,/ } $required $extra | sort -u | paste -sd, -)

# --generate-cds-archive: the JDK's own class-data archive, which a jlinked runtime otherwise lacks (every
# start would then parse and verify the JDK's classes) and on which the client archive below builds.
"$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
  --compress=zip-6 --generate-cds-archive --output "$out/runtime"
# Its twin for heaps over 32 GB (no compressed pointers) would add 14 MB; such a server starts without one.
rm -f "$out/runtime/lib/server/classes_nocoops.jsa"

# JDK 24+ warns when a library (zstd-jni, sqlite-jdbc) uses sun.misc.Unsafe's memory access unless allowed.
unsafe_flag=""
if [ "$(svc_java_major "$JAVA_HOME/bin/java")" -ge 24 ]; then unsafe_flag="--sun-misc-unsafe-memory-access=allow"; fi

# The launcher carries scripts/client-jvm.sh: how a client command line is told from `serve`, and its flags.
. "$root/scripts/client-jvm.sh"
archive=$(svc_client_archive cds "$(svc_java_major "$JAVA_HOME/bin/java")")
{
  echo '#!/bin/sh'
  echo "# svc launcher: the bundled runtime, the application's modules from ../lib. SVC_JAVA_OPTS adds JVM flags."
  echo "# SVC_ARCHIVE_TRAINING=yes: the build's training run, which writes the client commands' archive."
  cat "$root/scripts/client-jvm.sh"
  cat <<EOF
home=\$(cd "\$(dirname "\$(readlink -f "\$0")")/.." && pwd)
client=""
if [ "\$(svc_command "\$@")" != serve ]; then
  client=\$(svc_client_jvm_flags "\$home/$archive" \${SVC_ARCHIVE_TRAINING:+train})
else
  client=\$(svc_server_jvm_flags)
fi
if [ "\$(svc_command "\$@")" = admin ]; then client="\$client \$(svc_admin_jvm_flags)"; fi
# The name the CLI suggests its commands by, and the command's output on descriptor 3 unless stdout is a regular
# file (scripts/client-jvm.sh).
export SVC_COMMAND_NAME="\$(svc_invoked_name "\$0")"
if ! svc_stdout_is_file; then export SVC_STDOUT_FD=3; exec 3>&1 1>&2; fi
exec "\$home/runtime/bin/java" \\
  --add-modules ALL-MODULE-PATH \\
  --add-reads org.jboss.logging=undertow.core,xnio.api,xnio.nio \\
  --enable-native-access=org.xerial.sqlitejdbc,com.github.luben.zstd_jni,javafx.graphics $unsafe_flag \\
  -Dorg.jboss.logging.provider=jdk \\
  \$client \${SVC_JAVA_OPTS:-} \\
  -p "\$home/lib" -m io.meshcontrol.cli/io.meshcontrol.cli.Svc "\$@"
EOF
} >"$out/bin/svc"
chmod +x "$out/bin/svc"

# The client commands' class-data archive, made now by a training run (svc_train_client_archive).
mkdir -p "$out/cds"
svc_train_client_archive "$out/$archive" env SVC_ARCHIVE_TRAINING=yes "$out/bin/svc" \
  || { echo "build-image: the class-data archive was not made" >&2; exit 1; }
echo "svc image: $out ($(du -sh "$out" | cut -f1); runtime modules: $modules)"
