# bench/lib.sh: what bench/run (our server) and bench/run-headscale share: building loadgen, measuring a
# server process from /proc, running loadgen, stopping the server and the closing JSON line. Sourced with
# $root (the repository) set; the functions use $work (the run's work folder). Not run on its own.

bench_say() { echo "bench: $*" >&2; }

# Validates N, the first argument of every bench script.
bench_check_n() {
  case $1 in ''|*[!0-9]*) echo "$2" >&2; exit 2 ;; esac
}

# Builds bench/loadgen into $work/loadgen (Go's build cache makes a second build quick).
bench_build_loadgen() {
  command -v go >/dev/null || { echo "bench: needs Go on the PATH (for bench/loadgen)" >&2; exit 1; }
  bench_say "building bench/loadgen"
  (cd "$root/bench/loadgen" && go build -o "$work/loadgen" .)
}

# The load generator's options that the environment sets for every server alike: how many users (each with
# its own reusable pre-auth key), and which peers each node must get (all, or under an autogroup:self policy
# only its own user's nodes).
bench_users=${BENCH_USERS:-1}
case $bench_users in ''|0|*[!0-9]*) echo "bench: BENCH_USERS must be a positive number" >&2; exit 2 ;; esac
bench_peers=${BENCH_PEERS:-all}
case $bench_peers in all|same-key) ;; *) echo "bench: BENCH_PEERS must be all or same-key" >&2; exit 2 ;; esac
if [ -n "${BENCH_POLICY:-}" ] && [ ! -f "$BENCH_POLICY" ]; then echo "bench: BENCH_POLICY: no file $BENCH_POLICY" >&2; exit 2; fi

bench_clock_ticks=$(getconf CLK_TCK)
# CPU ticks (user + system) the process has used so far, from /proc/<pid>/stat.
bench_cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# Peak resident set size so far (VmHWM), MiB.
bench_rss_peak_mib() { awk '/VmHWM/ {print int($2/1024)}' "/proc/$1/status"; }
bench_seconds() { awk -v a="$1" -v b="$2" -v t="$bench_clock_ticks" 'BEGIN {printf "%.1f", (b-a)/t}'; }
bench_load_average() { awk '{print $1}' /proc/loadavg; }

# Stops process $1 (TERM, then KILL after 20 s) and waits for it.
bench_stop() {
  local pid=$1
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then bench_say "process $pid did not stop in 20 s; killing it"; kill -KILL "$pid" 2>/dev/null || true; fi
  wait "$pid" 2>/dev/null || true
}

# bench_run_loadgen SERVER_URL KEYS N [loadgen flags...]: runs loadgen against the server ($server_pid, for its
# CPU seconds per phase), output in
# $work/loadgen.out and .err (and on the terminal), and sets loadgen_status. While it runs, calls the function
# bench_on_hold once (when defined) as soon as loadgen holds every stream open.
bench_run_loadgen() {
  local url=$1 keys=$2 n=$3 held=false pid
  shift 3
  set +e
  "$work/loadgen" -server "$url" -authkey "$keys" -peers "$bench_peers" -n "$n" -duration 5s \
    -server-pid "${server_pid:-0}" "$@" \
    > >(tee "$work/loadgen.out") 2> >(tee "$work/loadgen.err" >&2) &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    if ! $held && grep -q 'holding .* map streams' "$work/loadgen.err" 2>/dev/null; then
      held=true
      if declare -F bench_on_hold >/dev/null; then bench_on_hold; fi
    fi
    sleep 0.5
  done
  wait "$pid"; loadgen_status=$?
  set -e
}

# bench_top_lines: the 8 most frequent lines of stdin with their counts, indented. awk reads to the end rather than
# stopping like head, so no earlier command of the pipeline dies of SIGPIPE: under pipefail that would end the
# calling script before it prints its summary.
bench_top_lines() {
  sort | uniq -c | sort -rn | awk 'NR <= 8 { print "    " $0 }'
}

# bench_summary EXTRA: prints loadgen's JSON summary with the JSON members EXTRA ("a":1,"b":2) added.
bench_summary() {
  local json
  json=$(grep '^{' "$work/loadgen.out" | tail -n 1 || true)
  if [ -z "$json" ] || [ "$json" = '{}' ]; then echo "{$1}"; else echo "${json%\}},$1}"; fi
}

# Removes the work folder after a successful run, unless asked to keep it.
bench_finish() {
  if [ "$1" -eq 0 ] && [ "${BENCH_KEEP:-0}" != 1 ] && [ -z "${BENCH_WORK:-}" ]; then
    rm -rf "$work"
  else
    bench_say "work folder kept: $work"
  fi
}

# bench_svc_config PORT METRICS_PORT VERIFY_CLIENTS: writes $work/config.yaml for our server on 127.0.0.1:PORT,
# data in $work/data: no DERP map source but the embedded relay (derp.server.verify_clients as given), no STUN,
# no update check, so nothing leaves the machine.
bench_svc_config() {
  cat >"$work/config.yaml" <<YAML
server_url: "http://127.0.0.1:$1"
listen_addr: "127.0.0.1:$1"
metrics_listen_addr: "127.0.0.1:$2"
noise:
  private_key_path: "$work/data/noise_private.key"
database:
  sqlite:
    path: "$work/data/db.sqlite"
log:
  level: "info"
derp:
  server:
    verify_clients: $3
    stun_enabled: false
    private_key_path: "$work/data/derp_server_private.key"
  urls: []
  auto_update_enabled: false
client_updates:
  check: false
cli:
  local_credential_path: "$work/data/cli-credential.json"
YAML
}

# bench_svc_start PORT: starts `svc serve` with $work/config.yaml in the background, sets server_pid and waits
# until the local CLI can reach it. Needs svc() (the CLI with that config) defined.
bench_svc_start() {
  local port=$1
  bench_say "starting svc serve on 127.0.0.1:$port (work folder $work)"
  (cd "$work" && exec "$root/svc" serve -c "$work/config.yaml") >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 300); do
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; bench_say "the server exited at start"; exit 1; }
    [ -f "$work/data/cli-credential.json" ] && svc users list >/dev/null 2>&1 && break
    sleep 0.2
  done
  svc users list >/dev/null || { bench_say "the server did not come up in 60 s; log: $work/server.log"; exit 1; }
}

# bench_pg_start PORT: a throwaway PostgreSQL cluster from Debian's package in $work/postgres, on 127.0.0.1:PORT
# with its Unix socket in that folder, trusting connections (loopback only, for as long as the run), and an empty
# database `svc` owned by user `svc`. initdb refuses to run as root, so as root the cluster runs as the package's
# `postgres` account, which owns the folder (as the Java fixture PostgresCluster does). PostgreSQL's own settings
# are left as the package has them (fsync on), apart from more connections. Sets pg_bin and pg_pid (the postmaster).
bench_pg_start() {
  local port=$1 folder=$work/postgres
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
    bench_say "needs PostgreSQL's server package (scripts/install-test-packages.sh installs it)"
    exit 1
  fi
  pg_as=()
  mkdir -p "$folder"
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$folder"
    chmod o+x "$work" # postgres must reach its folder inside the work folder
    pg_as=(runuser -u postgres --)
  fi
  bench_say "starting PostgreSQL ($pg_bin) on 127.0.0.1:$port in $folder"
  "${pg_as[@]}" "$pg_bin/initdb" -D "$folder/data" -U svc --auth=trust -E UTF8 --locale=C >"$folder/initdb.log" 2>&1 \
    || { cat "$folder/initdb.log" >&2; bench_say "initdb failed"; exit 1; }
  "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
    -o "-p $port -k $folder -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null \
    || { cat "$folder/server.log" >&2; bench_say "PostgreSQL did not start"; exit 1; }
  pg_pid=$(head -n 1 "$folder/data/postmaster.pid")
  "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U svc svc
}

# bench_pg_stop: stops the cluster bench_pg_start started (fast: ends its sessions), if any.
bench_pg_stop() {
  [ -n "${pg_pid:-}" ] || return 0
  "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$work/postgres/data" -m fast -w -t 30 stop >/dev/null 2>&1 || true
  pg_pid=""
}

# bench_pg_cpu_ticks: CPU ticks of the whole cluster so far: the postmaster's own and those of its children that
# ended (cutime, cstime), plus its live children's (the instances' pooled sessions).
bench_pg_cpu_ticks() {
  local total child
  total=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pg_pid/stat")
  for child in $(pgrep -P "$pg_pid"); do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$child/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}

# bench_haproxy_config PORT INSTANCE_PORT...: $work/haproxy.cfg, the shipped docs/examples/haproxy.cfg made to run
# here by scripts/haproxy-on-loopback.sh (as interop's Haproxy fixture does), with a connection limit for the run.
# BENCH_HAPROXY_EXAMPLE=file runs a changed copy of the example instead (to try other checks or timeouts).
bench_haproxy_config() {
  local port=$1 maxconn
  shift
  # Two connections per node (its stream and a mass reconnect's new one) and room, within the file limit: HAProxy
  # needs two descriptors per connection it passes on.
  maxconn=$((2 * n + 1000))
  maxconn=$((maxconn < ($(ulimit -n) - 200) / 2 ? maxconn : ($(ulimit -n) - 200) / 2))
  "$root/scripts/haproxy-on-loopback.sh" "${BENCH_HAPROXY_EXAMPLE:-$root/docs/examples/haproxy.cfg}" "$port" \
    "$maxconn" "$@" >"$work/haproxy.cfg"
}
