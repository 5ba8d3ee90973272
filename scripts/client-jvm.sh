# JVM flags for the short-lived client commands (everything but `svc serve`), shared by the ./svc launcher and
# the image's bin/svc (scripts/build-image.sh). Measured in docs/performance.md, "CLI start-up".
# Sourced by bash and by sh: POSIX shell only.

# svc_command ARGS...: prints the command word of an svc command line (serve, nodes, version, ...): the first
# word that is neither an option nor the value of -c/--config; "svc" when there is none (svc --help), "other"
# when the word is not a plain name (it names an archive file below).
svc_command() {
  while [ $# -gt 0 ]; do
    case $1 in
      -c|--config) shift ;;
      -*) ;;
      *[!a-z-]*) echo other; return ;;
      *) echo "$1"; return ;;
    esac
    [ $# -gt 0 ] && shift
  done
  echo svc
}

# svc_client_jvm_flags ARCHIVE [EXTRA...]: a client command does well under a second of its own work, so the
# JIT's optimising tier (C2) only competes with it for the CPU; the class-data archive ARCHIVE maps the classes
# a client command loads instead of reading and verifying them again at every start. EXTRA: e.g.
# -XX:+AutoCreateSharedArchive to (re)create the archive at exit when it is missing or stale. The archive's
# own log lines (classes it cannot hold, such as picocli's, compiled for Java 5) are switched off.
svc_client_jvm_flags() {
  archive=$1; shift
  echo "-XX:TieredStopAtLevel=1 -XX:SharedArchiveFile=$archive $* -Xlog:cds=off,cds+dynamic=off"
}
