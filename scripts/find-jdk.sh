# Sourced by ./svc and ./run-tests: exports JAVA_HOME pointing at a JDK 21 or newer.
# JAVA_HOME wins when it is new enough; otherwise the newest JDK under /usr/lib/jvm (SVC_JDK_DIRS
# overrides that list, for tests) or the javac on PATH is taken. With none, one line says what to install.

svc_java_major() { # prints the feature version of the java binary $1, or nothing
  # A JDK's release file says it without starting a JVM, which costs tenths of a second at every ./svc call.
  local release version
  release=$(dirname "$(dirname "$1")")/release
  version=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9.]*\).*/\1/p' "$release" 2>/dev/null | head -n 1)
  if [ -n "$version" ]; then
    version=${version#1.}  # 1.8.0 is 8
    echo "${version%%.*}"
    return
  fi
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1
}

svc_find_jdk() {
  local candidate major best="" best_major=0
  # shellcheck disable=SC2086
  for candidate in "${JAVA_HOME:-}" ${SVC_JDK_DIRS:-/usr/lib/jvm/*} "$(dirname "$(dirname "$(readlink -f "$(command -v javac 2>/dev/null || echo /nonexistent)")")")"; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major=$(svc_java_major "$candidate/bin/java")
    [ -n "$major" ] && [ "$major" -ge 21 ] || continue
    if [ "$candidate" = "${JAVA_HOME:-}" ]; then best=$candidate; break; fi
    if [ "$major" -gt "$best_major" ]; then best=$candidate; best_major=$major; fi
  done
  if [ -z "$best" ]; then
    echo "svc: needs a JDK 21 or newer (none found in JAVA_HOME or /usr/lib/jvm); install one, e.g. 'apt-get install openjdk-21-jdk-headless' or Temurin 21+, and set JAVA_HOME" >&2
    return 1
  fi
  export JAVA_HOME=$best
  # JDK 24+ warns about sun.misc.Unsafe use inside Maven's own libraries; this flag exists only there.
  if [ "$(svc_java_major "$JAVA_HOME/bin/java")" -ge 24 ]; then
    export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
  fi
}
