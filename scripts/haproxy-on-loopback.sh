#!/usr/bin/env bash
# haproxy-on-loopback.sh EXAMPLE PORT MAXCONN INSTANCE_PORT...: prints the shipped HAProxy configuration EXAMPLE
# (docs/examples/haproxy.cfg) made to run on this machine, for the failover test (interop's Haproxy fixture) and
# bench/run-ha alike: without the settings of a system service (chroot, user, group, daemon, syslog), with MAXCONN
# connections, one plain listener on 127.0.0.1:PORT instead of the public binds, and the instances' loopback ports as
# its servers, in order. Balancing, checks and timeouts stay as shipped. Fails when the file names another number of
# servers than ports given.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 EXAMPLE PORT MAXCONN INSTANCE_PORT..." >&2
  exit 2
fi
example=$1 port=$2 maxconn=$3
shift 3
awk -v port="$port" -v maxconn="$maxconn" -v servers="$*" '
  BEGIN { count = split(servers, ports, " ") }
  $1 ~ /^(chroot|user|group|daemon)$/ { next }
  $1 == "maxconn" { print "    maxconn " maxconn; next }
  $1 == "log" && $2 == "/dev/log" { print "    log stdout format raw local0"; next }
  $1 == "bind" { if (!bound) print "    bind 127.0.0.1:" port; bound = 1; next }
  $1 == "server" { if (++used <= count) { $3 = "127.0.0.1:" ports[used]; print "    " $0 }; next }
  { print }
  END { if (used != count) { print "docs/examples/haproxy.cfg names " used " servers, not " count > "/dev/stderr"; exit 1 } }
' "$example"
