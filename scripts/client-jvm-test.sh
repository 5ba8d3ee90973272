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

flags=$(svc_client_jvm_flags /tmp/a.jsa -XX:+AutoCreateSharedArchive)
case "$flags" in *"-XX:TieredStopAtLevel=1"*"-XX:SharedArchiveFile=/tmp/a.jsa -XX:+AutoCreateSharedArchive"*) passed=$((passed+1));;
  *) failed=$((failed+1)); echo "FAIL client flags: $flags" >&2;; esac

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
