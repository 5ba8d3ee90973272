#!/usr/bin/env bash
# Prints the 20 slowest test classes of the last Maven run, from Surefire's reports (modules/*/target and
# interop/target), so that a suite growing slower shows where. It reads what is there and never fails a run.
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
count=${1:-20}
reports=$(find "$root/modules" "$root/interop" -path '*/target/surefire-reports/*.txt' 2>/dev/null)
[ -n "$reports" ] || exit 0
echo "== the $count slowest test classes (seconds)"
# A report's first line after the header: "Tests run: N, ... Time elapsed: S s -- in CLASS"
sed -n 's/^Tests run: .*Time elapsed: \([0-9.,]*\) s.* -- in \(.*\)$/\1 \2/p' $reports \
  | tr -d ',' | sort -rn | head -n "$count" | awk '{printf "%9.1f  %s\n", $1, $2}'
exit 0
