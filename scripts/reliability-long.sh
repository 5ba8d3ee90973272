#!/usr/bin/env bash
# The reliability suite's long mode (docs/development.md, "Reliability suite"). CI runs the short mode with the
# ordinary build: the auth matrix, the fuzz targets over their committed inputs only, three kill -9 rounds.
# This runs every parser fuzz target (each @FuzzTest under modules/*/src/test/java) in fuzzing mode for
# FUZZ_DURATION each, then the kill -9 durability test for DURABILITY_ROUNDS rounds.
#
#   scripts/reliability-long.sh                 every target 10 minutes, then 20 kill -9 rounds
#   FUZZ_DURATION=30s scripts/reliability-long.sh Noise      targets whose Class#method contains "Noise" only
#   DURABILITY_ROUNDS=0 scripts/reliability-long.sh         fuzzing only
#
# A finding fails that target's run and is written as crash-<hash> into the target's committed inputs
# (src/test/resources/<package>/<Class>Inputs/<method>/), where the ordinary build replays it from then on: fix the
# code, keep the input. What the fuzzer learned meanwhile (its generated corpus) stays in <module>/.cifuzz-corpus/,
# which is not committed; copy an input from there into the committed inputs when it reaches code they do not.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/find-jdk.sh && svc_find_jdk

duration=${FUZZ_DURATION:-10m}
rounds=${DURABILITY_ROUNDS:-20}
filter=${1:-}
failed=()

for file in $(grep -rl --include='*FuzzTest.java' '@FuzzTest' modules/*/src/test/java | sort); do
    module=${file%%/src/test/java/*}
    class=$(basename "$file" .java)
    for method in $(awk '/@FuzzTest/ { getline; if (match($0, /void [A-Za-z0-9_]+\(/)) print substr($0, RSTART + 5, RLENGTH - 6) }' "$file"); do
        target="$class#$method"
        [[ -n "$filter" && "$target" != *"$filter"* ]] && continue
        echo "fuzzing $target ($module) for $duration"
        mkdir -p "$module/target"
        if ! JAZZER_FUZZ=1 JAZZER_MAX_DURATION="$duration" ./mvnw -o -B -q -pl "$module" -am verify \
                -Dtest="$target" -Dsurefire.failIfNoSpecifiedTests=false > "$module/target/fuzz-$class-$method.log" 2>&1; then
            echo "  FINDING or failure: see $module/target/fuzz-$class-$method.log"
            failed+=("$target")
        fi
    done
done

if [[ -z "$filter" && "$rounds" -gt 0 ]]; then
    echo "kill -9 durability, $rounds rounds"
    if ! ./mvnw -o -B -q -pl modules/cli -am verify -Dtest='KillNineDurabilityTest,KillNineWebhookDeliveryTest' \
            -Dsurefire.failIfNoSpecifiedTests=false -Dsvc.durability.rounds="$rounds" > modules/cli/target/durability.log 2>&1; then
        echo "  FAILED: see modules/cli/target/durability.log"
        failed+=("KillNineDurabilityTest or KillNineWebhookDeliveryTest")
    fi
fi

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "failed: ${failed[*]}"
    exit 1
fi
echo "reliability suite, long mode: passed"
