#!/usr/bin/env bash
# The launchers' split between `svc serve` and the client commands (scripts/client-jvm.sh): which word is the
# command, and that only client commands get the client flags.
set -u
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
passed=0; failed=0
check() { if [ "$1" = "$2" ]; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAIL $3: expected [$2], got [$1]" >&2; fi; }
. "$root/scripts/client-jvm.sh"

check "$(svc_command serve)" serve "plain serve"
check "$(svc_command -c /etc/svc/config.yaml serve)" serve "serve after -c FILE"
check "$(svc_command --config serve nodes list)" nodes "the value of --config is not the command"
check "$(svc_command --config=/x.yaml serve)" serve "serve after --config=FILE"
check "$(svc_command nodes list --output json)" nodes "a client command"
check "$(svc_command --help)" svc "no command"
check "$(svc_command -c)" svc "-c without its value"
check "$(svc_command ../evil)" other "a word that is not a name does not name an archive file"
# The image's launcher is plain sh.
check "$(sh -c ". '$root/scripts/client-jvm.sh'; svc_command -c f users list")" users "POSIX sh"

# The name commands are suggested by: as typed, or bare when the PATH finds this very launcher by it.
bin=$(mktemp -d); printf '#!/bin/sh\n' >"$bin/svc"; chmod +x "$bin/svc"
check "$(PATH="$bin:$PATH" svc_invoked_name "$bin/svc")" svc "an installed svc found on the PATH"
check "$(PATH=/usr/bin:/bin svc_invoked_name ./svc)" ./svc "a checkout's ./svc"
check "$(cd "$bin" && PATH=/usr/bin:/bin svc_invoked_name "$bin/svc")" ./svc "made absolute by the shell, in its folder"
check "$(cd / && PATH=/usr/bin:/bin svc_invoked_name "$bin/svc")" "$bin/svc" "elsewhere: the path"
check "$(PATH="$bin:$PATH" svc_invoked_name /work/other/svc)" /work/other/svc "another svc than the PATH's"
rm -rf "$bin"

# The archive's kind follows the JDK: an AOT cache from JDK 25, a dynamic CDS archive before.
check "$(svc_client_archive /x/cds 25)" /x/cds/client.aot "JDK 25: an AOT cache"
check "$(svc_client_archive /x/cds 21)" /x/cds/client.jsa "JDK 21: a dynamic archive"
expect_flags() { # FLAGS PATTERN WHAT
  case "$1" in $2) passed=$((passed+1));; *) failed=$((failed+1)); echo "FAIL $3: $1" >&2;; esac
}
expect_flags "$(svc_client_jvm_flags /tmp/a.jsa train)" \
  "*-XX:TieredStopAtLevel=1*-XX:SharedArchiveFile=/tmp/a.jsa -XX:+AutoCreateSharedArchive*" "jsa training flags"
expect_flags "$(svc_client_jvm_flags /tmp/a.jsa)" "*-XX:SharedArchiveFile=/tmp/a.jsa -Xlog:cds=off*" "jsa flags"
expect_flags "$(svc_client_jvm_flags /tmp/a.aot train)" "*-XX:TieredStopAtLevel=1*-XX:AOTCacheOutput=/tmp/a.aot *" \
  "aot training flags"
expect_flags "$(svc_client_jvm_flags /tmp/a.aot)" "*-XX:AOTCache=/tmp/a.aot -Xlog:aot=off,cds=off*" "aot flags"
case "$(svc_client_jvm_flags /tmp/a.jsa)" in *aot*) failed=$((failed+1)); echo "FAIL JDK 21 refuses the aot log tag" >&2;;
  *) passed=$((passed+1));; esac

# The launcher ./svc, with a stand-in JDK and Maven in a copy of the checkout, for a JDK 25 (AOT cache) and a JDK 21
# (dynamic archive): a build makes the client commands' class-data archive (one training run, given its command
# line in an argument file, which the stand-in java obeys by writing the archive); a user's run maps it and never
# creates one; every run has descriptor 1 on stderr and the output on descriptor 3; the CLI is told the name it was
# started by.
launcher_checks() { # JDK_VERSION ARCHIVE_NAME TRAINING_FLAG RUN_FLAG
  fake=$(mktemp -d)
  mkdir -p "$fake/scripts" "$fake/jdk/bin" "$fake/modules/cli/target/lib"
  cp "$root/svc" "$fake/"
  cp "$root/scripts/find-jdk.sh" "$root/scripts/client-jvm.sh" "$root/scripts/build-stamp.sh" "$fake/scripts/"
  echo "JAVA_VERSION=\"$1\"" >"$fake/jdk/release"
  cat >"$fake/jdk/bin/java" <<'JAVA'
#!/bin/sh
printf '%s\n' "$*" >>"$FAKE_JAVA_LOG"
case " $* " in *" -XX:+AutoCreateSharedArchive "*)
  for a; do case $a in -XX:SharedArchiveFile=*) : >"${a#*=}";; esac; done;; esac
for a; do case $a in -XX:AOTCacheOutput=*) : >"${a#*=}";; esac; done
echo "on descriptor 1"
# Reopened by name, as the CLI opens it (its own file offset, appending).
if [ -n "${SVC_STDOUT_FD:-}" ]; then echo "on descriptor 3" >>"/dev/fd/$SVC_STDOUT_FD"; fi
echo "named ${SVC_COMMAND_NAME:-}" >&2
JAVA
  cp "$fake/jdk/bin/java" "$fake/jdk/bin/javac"
  chmod +x "$fake/jdk/bin/java" "$fake/jdk/bin/javac"
  printf '#!/bin/sh\ntouch modules/cli/target/meshcontrol-cli-0.jar\n' >"$fake/mvnw"; chmod +x "$fake/mvnw"
  touch "$fake/pom.xml"
  export FAKE_JAVA_LOG=$fake/java.log
  out=$(cd "$fake" && JAVA_HOME=$fake/jdk SVC_JDK_DIRS=/nonexistent ./svc nodes list 2>"$fake/err")
  archive=$fake/modules/cli/target/cds/$2
  check "$([ -f "$archive" ] && echo made)" made "JDK $1: the build makes the class-data archive"
  check "$(ls "$fake/modules/cli/target/cds")" "$2" "JDK $1: nothing but the archive is left"
  check "$(grep -c -- "$3" "$FAKE_JAVA_LOG")" 1 "JDK $1: one training run, at the build"
  check "$(grep -- "$3" "$FAKE_JAVA_LOG" | sed 's/.* //')" "@training.args" "JDK $1: trained by an argument file"
  run=$(tail -n 1 "$FAKE_JAVA_LOG")
  case "$run" in *"$4$archive "*) passed=$((passed+1));; *) failed=$((failed+1)); echo "FAIL JDK $1 archive flag: $run" >&2;; esac
  case "$run" in *"-XX:ErrorFile="*) passed=$((passed+1));;
    *) failed=$((failed+1)); echo "FAIL crash flags: $run" >&2;; esac
  check "$out" "on descriptor 3" "stdout is descriptor 3; descriptor 1 goes to stderr"
  check "$(grep -c 'on descriptor 1' "$fake/err")" 1 "descriptor 1 is stderr"
  check "$(grep 'named' "$fake/err")" "named ./svc" "the name it was started by"
  # Output redirected to a file, with the shell writing around it: nothing is written over.
  (cd "$fake" && { echo before; JAVA_HOME=$fake/jdk SVC_JDK_DIRS=/nonexistent ./svc nodes list 2>/dev/null;
    echo after; } >"$fake/out.txt")
  check "$(cat "$fake/out.txt" | paste -sd' ')" "before on descriptor 1 after" \
    "stdout a regular file: the JVM writes its descriptor 1, between the shell's lines"
  out=$(cd "$fake" && JAVA_HOME=$fake/jdk SVC_JDK_DIRS=/nonexistent ./svc serve 2>/dev/null)
  run=$(tail -n 1 "$FAKE_JAVA_LOG")
  case "$run" in *"$3"*|*"$4"*) failed=$((failed+1)); echo "FAIL serve got client flags: $run" >&2;;
    *) passed=$((passed+1));; esac
  check "$out" "on descriptor 3" "serve's stdout is descriptor 3 too"
  case "$run" in *"$(svc_server_jvm_flags)"*) passed=$((passed+1));;
    *) failed=$((failed+1)); echo "FAIL serve lacks the server's flags: $run" >&2;; esac
  case "$(grep -v ' serve' "$FAKE_JAVA_LOG")" in *GCTimeRatio*) failed=$((failed+1)); echo "FAIL a client got the server's flags" >&2;;
    *) passed=$((passed+1));; esac
  check "$(grep -c -- "$3" "$FAKE_JAVA_LOG")" 1 "JDK $1: no run but the build's trains"
  # svc admin (the desktop app) gets the window's heap and collector on top of the client flags; no other command does.
  (cd "$fake" && JAVA_HOME=$fake/jdk SVC_JDK_DIRS=/nonexistent ./svc admin >/dev/null 2>&1)
  run=$(tail -n 1 "$FAKE_JAVA_LOG")
  case "$run" in *"-XX:TieredStopAtLevel=1"*"-XX:+UseSerialGC"*"-Xmx"*) passed=$((passed+1));;
    *) failed=$((failed+1)); echo "FAIL admin flags: $run" >&2;; esac
  case "$(grep -v ' admin' "$FAKE_JAVA_LOG")" in *UseSerialGC*) failed=$((failed+1)); echo "FAIL another command got admin's flags" >&2;;
    *) passed=$((passed+1));; esac
  rm -rf "$fake"
}
launcher_checks 25 client.aot -XX:AOTCacheOutput= -XX:AOTCache=
launcher_checks 21 client.jsa -XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
