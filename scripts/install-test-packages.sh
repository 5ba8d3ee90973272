#!/usr/bin/env bash
# Debian packages that module tests run against: Exim, a real SMTP server for the e-mail rules GreenMail cannot show
# (CRAM-MD5 as the only sign-in, refused senders, recipients and messages; notify's MailDeliveryTest), Knot DNS
# with its kdig, a real DNS server taking RFC 2136 updates signed with TSIG (server's Rfc2136UpdatesTest), and
# chromium with chromium-driver, the real browser of the console tests (interop's ConsoleTest), and PostgreSQL, the
# server the storage tests run a cluster of their own of (core's PostgresCluster; as root, as the package's postgres
# account), and HAProxy, the load balancer in front of two instances in the failover test (interop's
# FailoverTest, the slow suite; run by the test as a child process on loopback). Needs root; without it the tests that need these packages are skipped and say so.
set -euo pipefail
if [ "$(id -u)" != 0 ]; then
  echo "install-test-packages: not root; the Exim mail, Knot DNS, console browser and PostgreSQL tests will be skipped" >&2
  exit 0
fi
missing=()
[ -x /usr/sbin/exim ] || missing+=(exim4-daemon-light)
[ -x /usr/sbin/knotd ] || missing+=(knot)
[ -x /usr/bin/kdig ] || missing+=(knot-dnsutils)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
  # A fresh machine may have no package lists yet: update once when the first attempt fails.
  flock /tmp/apt.lock sh -c "apt-get install -y -q ${missing[*]} >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null && apt-get install -y -q ${missing[*]} >/dev/null; }"
fi
# The package may start a system daemon; the tests run their own on a free loopback port.
pkill -x exim4 2>/dev/null || true
echo "install-test-packages: exim $(/usr/sbin/exim -bV 2>/dev/null | head -1 | awk '{print $3}'), knot $(/usr/sbin/knotd -V 2>/dev/null | awk '{print $NF}')"
echo "install-test-packages: $(/usr/bin/chromium --version 2>/dev/null | head -1)"
postgres=$(ls -d /usr/lib/postgresql/*/bin/postgres 2>/dev/null | head -1)
echo "install-test-packages: ${postgres:+$("$postgres" --version)}"
echo "install-test-packages: $(/usr/sbin/haproxy -v 2>/dev/null | head -1)"
