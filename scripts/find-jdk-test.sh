#!/usr/bin/env bash
# The JDK finder: it prefers JAVA_HOME when new enough, else finds the newest JDK 21+, and with none
# prints one line saying what to install and fails.
set -u
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
passed=0; failed=0
check() { if [ "$1" = "$2" ]; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAIL $3: expected [$2], got [$1]" >&2; fi; }

jdk21=$(for d in /usr/lib/jvm/*; do [ -x "$d/bin/javac" ] && echo "$d"; done | while read -r d; do
  v=$("$d/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')
  [ "${v:-0}" -ge 21 ] && echo "$d"; done | head -n 1)

# No JDK 21+ anywhere: one line, non-zero. The PATH holds the basic tools but no java/javac.
tools=$(mktemp -d); trap 'rm -rf "$tools"' EXIT
for t in dirname readlink sed head; do ln -s "$(command -v "$t")" "$tools/$t"; done
out=$(cd "$root" && env -i PATH="$tools" HOME="$HOME" SVC_JDK_DIRS=/nonexistent /bin/bash -c '. scripts/find-jdk.sh; svc_find_jdk' 2>&1); code=$?
check "$code" 1 "exit code without a JDK"
check "$(printf '%s\n' "$out" | wc -l)" 1 "one line without a JDK"
case "$out" in *"needs a JDK 21 or newer"*) passed=$((passed+1));; *) failed=$((failed+1)); echo "FAIL message: $out" >&2;; esac

if [ -n "$jdk21" ]; then
  # An old JAVA_HOME is passed over in favour of a JDK 21+.
  old=$(for d in /usr/lib/jvm/*; do [ -x "$d/bin/javac" ] && echo "$d"; done | while read -r d; do
    v=$("$d/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')
    [ "${v:-0}" -lt 21 ] && echo "$d"; done | head -n 1)
  if [ -n "$old" ]; then
    found=$(cd "$root" && env -i PATH=/usr/bin:/bin HOME="$HOME" JAVA_HOME="$old" bash -c '. scripts/find-jdk.sh; svc_find_jdk && echo "$JAVA_HOME"')
    [ "$found" != "$old" ] && passed=$((passed+1)) || { failed=$((failed+1)); echo "FAIL old JAVA_HOME was kept" >&2; }
  fi
  # A JAVA_HOME that is new enough wins.
  found=$(cd "$root" && env -i PATH=/usr/bin:/bin HOME="$HOME" JAVA_HOME="$jdk21" bash -c '. scripts/find-jdk.sh; svc_find_jdk && echo "$JAVA_HOME"')
  check "$found" "$jdk21" "JAVA_HOME 21+ is used"
fi
# The version comes from the JDK's release file, without starting its java (here one that cannot start);
# a JDK without that file is asked by running its java.
fake=$(mktemp -d)
mkdir -p "$fake/new/bin" "$fake/old/bin" "$fake/bare/bin"
printf '#!/bin/sh\nexit 1\n' >"$fake/new/bin/java"
echo 'JAVA_VERSION="25.0.3"' >"$fake/new/release"
echo 'JAVA_VERSION="1.8.0_392"' >"$fake/old/release"
printf '#!/bin/sh\necho "    java.specification.version = 22" >&2\n' >"$fake/bare/bin/java"
chmod +x "$fake"/*/bin/java 2>/dev/null
check "$(. "$root/scripts/find-jdk.sh"; svc_java_major "$fake/new/bin/java")" 25 "major version from the release file"
check "$(. "$root/scripts/find-jdk.sh"; svc_java_major "$fake/old/bin/java")" 8 "1.8 is 8"
check "$(. "$root/scripts/find-jdk.sh"; svc_java_major "$fake/bare/bin/java")" 22 "no release file: ask java"
rm -rf "$fake"

echo "find-jdk: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
