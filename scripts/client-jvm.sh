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

# svc_client_archive FOLDER MAJOR: the class-data archive the client commands start from, in FOLDER, for a JDK of
# feature version MAJOR. JDK 25 and later: an AOT cache (client.aot, JEP 483/514), which besides the classes keeps
# them linked and keeps the resolved module graph, so a start neither scans the module path nor checks the signed
# jars on it (bcprov's signature alone took 0.3 s). Older JDKs: a dynamic CDS archive (client.jsa).
svc_client_archive() {
  if [ "$2" -ge 25 ]; then echo "$1/client.aot"; else echo "$1/client.jsa"; fi
}

# svc_client_jvm_flags ARCHIVE [train]: a client command does well under a second of its own work, so the JIT's
# optimising tier (C2) only competes with it for the CPU; the class-data archive ARCHIVE (svc_client_archive) maps
# the classes a client command loads instead of reading and verifying them again at every start. With "train": the
# flags of the training run that makes ARCHIVE (svc_train_client_archive). The archive's own log lines (classes it
# cannot hold, such as picocli's, compiled for Java 5; an archive the jars no longer match, which the JVM then
# ignores) are switched off. The report of a JVM crash goes to a file under TMPDIR rather than into the folder the
# command was run in.
svc_client_jvm_flags() {
  case $1:${2:-} in
    *.aot:train) _svc_archive_flags="-XX:AOTCacheOutput=$1 -Xlog:aot=off,cds=off" ;;
    *.aot:*) _svc_archive_flags="-XX:AOTCache=$1 -Xlog:aot=off,cds=off" ;;
    # (JDK 21 has no "aot" log tag, and refuses a selection that names it)
    *:train) _svc_archive_flags="-XX:SharedArchiveFile=$1 -XX:+AutoCreateSharedArchive -Xlog:cds=off,cds+dynamic=off" ;;
    *) _svc_archive_flags="-XX:SharedArchiveFile=$1 -Xlog:cds=off,cds+dynamic=off" ;;
  esac
  echo "-XX:TieredStopAtLevel=1 $_svc_archive_flags" \
    "-XX:ErrorFile=${TMPDIR:-/tmp}/svc-hs_err_pid%p.log"
}

# svc_admin_jvm_flags: what `svc admin` (the desktop app, a long-lived window) adds to the client flags. The
# default collector and heap size a JVM picks are for a server (G1, a heap up to a quarter of the machine's
# memory, grown and kept); a window holds a few MB of tables. The serial collector with a bounded heap that it
# gives back when idle, and smaller thread stacks, cut its resident memory (bench/desktop-memory, docs/desktop.md).
svc_admin_jvm_flags() {
  echo "-XX:+UseSerialGC -Xms16m -Xmx256m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -Xss512k" \
    "-XX:ReservedCodeCacheSize=32m -XX:MaxMetaspaceSize=128m"
}

# svc_server_jvm_flags: what `svc serve` starts with (SVC_JAVA_OPTS, after them, overrides any). The heap may grow
# to the JVM's default quarter of the machine's memory, so a network that grows never meets a ceiling set for a
# smaller one. G1 grows the heap whenever collections take more of the time than GCTimeRatio allows and keeps what
# it grew, so by default the resident memory followed the machine rather than the network. Measured with bench/run
# (docs/performance.md, "The server's heap"): a heap that gives back what is more than 30 % free after a collection
# cut the peak RSS at N = 500 under autogroup:self from 344-394 to 279 MiB; a time goal of 11 % (GCTimeRatio 8, the
# default 12 is 8 %) held it at 1.9 GiB at N = 10,000 under autogroup:self (2.4 GiB with 12; 4, 20 %, cost a fifth
# more CPU). Under allow-all at 10,000 it still reached 2.8 to 2.9 GiB: such a network wants an -Xmx of its own.
svc_server_jvm_flags() {
  echo "-XX:GCTimeRatio=8 -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30"
}

# The launchers start every svc JVM with `3>&1 1>&2` and SVC_STDOUT_FD=3: HotSpot prints the banner of a crash on
# descriptor 1 whatever its flags say (its error stream is bound before it reads them), so descriptor 1 is stderr
# and the command writes its output to descriptor 3, the real stdout (io.meshcontrol.cli.CliContext opens
# /dev/fd/3): a crash never lands in a pipe that expects a command's output. Not when stdout is a regular file
# (svc_stdout_is_file): a descriptor reopened by name has a file offset of its own, so the shell's next write to the
# file (`{ echo a; svc nodes list; echo b; } > f`) would land over the command's output; the JVM writes to
# descriptor 1 itself then.

# svc_stdout_is_file: true when descriptor 1 is a regular file (a shell redirection to a file).
svc_stdout_is_file() {
  [ -f /dev/stdout ]
}

# svc_train_client_archive ARCHIVE COMMAND...: makes the client commands' class-data archive ARCHIVE when svc is
# built, never at a user's run (a run that writes the archive while another maps it can crash the JVM). COMMAND
# is svc (a launcher, or the java command line) started with the training flags (svc_client_jvm_flags ARCHIVE
# train); it is run once as a client command that goes as far as a client gets without a server (configuration,
# picocli, the HTTP client, refused at a closed port), in a folder of its own whose config.yaml names that port
# (so that the YAML reader's classes go into the archive too); the failure it ends with is expected. The command line `nodes list` is given in an argument file (picocli's @FILE):
# a line that does not name its command builds the whole command tree (io.meshcontrol.cli.CommandTree), so every
# command's classes go into the archive, not only those of `nodes`. True when ARCHIVE was made.
svc_train_client_archive() {
  _svc_archive=$1; shift
  rm -f "$_svc_archive"
  _svc_train=$(mktemp -d)
  printf 'nodes\nlist\n' >"$_svc_train/training.args"
  printf 'cli:\n  address: "http://127.0.0.1:1"\n  api_key: "training"\n' >"$_svc_train/config.yaml"
  (cd "$_svc_train" && SVC_CLI_ADDRESS=http://127.0.0.1:1 SVC_CLI_API_KEY=training "$@" @training.args) \
    >/dev/null 2>&1 || true
  rm -rf "$_svc_train"
  [ -f "$_svc_archive" ]
}

# svc_invoked_name PATH: the name to suggest commands by (SVC_COMMAND_NAME), from the launcher's $0 (which a
# shell may have made absolute): the bare name when the PATH finds this launcher by it (an installed svc), else
# ./name when that is this launcher in the working folder (./svc in a checkout), else the path.
svc_invoked_name() {
  _svc_found=$(command -v "${1##*/}" 2>/dev/null)
  if [ -n "$_svc_found" ] && [ "$_svc_found" -ef "$1" ]; then echo "${1##*/}"
  elif [ "./${1##*/}" -ef "$1" ]; then echo "./${1##*/}"
  else echo "$1"; fi
}
