#!/usr/bin/env bash
# The optional suites that ./run-tests leaves out for time, in one command (docs/development.md, "Slow suites"):
#
#   scripts/slow-suites.sh
#
# 1. the real-client suites behind their switches: HeadscaleMigrationTest (builds headscale once,
#    bench/install-headscale.sh) and FailoverTest (two `svc serve` instances on PostgreSQL behind HAProxy, kill -9
#    and a rolling restart; prints the FAILOVER: figures);
# 2. scripts/operator-test.sh (the vendor's Kubernetes operator, built once).
# The reliability suite's long mode (hours) stays its own command: scripts/reliability-long.sh.
# Installs what they need the way ./run-tests does (cached under .tools/ and .cache/); fails when any suite fails.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cd "$root"
. scripts/find-jdk.sh
svc_find_jdk || exit 1

interop/install-clients.sh
scripts/install-test-packages.sh
bench/install-headscale.sh
# One JVM after the other (svc.interop.forks=1): beside the failover test's kills and mass reconnects on two cores,
# the headscale test's clients missed their 90 s waits once.
./mvnw -B -pl interop -am verify -Dsvc.interop=true -Dsvc.headscale=true -Dsvc.failover=true -Dsvc.interop.forks=1 \
    -Dtest='HeadscaleMigrationTest,FailoverTest' -Dsurefire.failIfNoSpecifiedTests=false
scripts/operator-test.sh
