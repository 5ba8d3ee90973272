#!/usr/bin/env bash
# Lists the tests of the last Maven run that failed and then passed when Surefire ran them again (interop and gui
# run a failed test once more: docs/development.md, "Flaky tests"), with the first line of what the failed run
# said. Each is a race to fix, not a pass to forget. It reads what is there and never fails a run.
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
reports=$(grep -l -E '<flaky(Failure|Error)' $(find "$root/modules" "$root/interop" \
  -path '*/target/surefire-reports*/TEST-*.xml' 2>/dev/null) /dev/null 2>/dev/null)
[ -n "$reports" ] || { echo "== no flaky tests"; exit 0; }
echo "== flaky tests: failed, then passed when run again"
python3 - $reports <<'PY'
import sys
import xml.etree.ElementTree as ET
for path in sys.argv[1:]:
    for case in ET.parse(path).getroot().iter('testcase'):
        for flake in list(case.iter('flakyFailure')) + list(case.iter('flakyError')):
            message = (flake.get('message') or flake.get('type') or '').strip().splitlines()
            print(f"  {case.get('classname')}.{case.get('name')}: {message[0][:200] if message else ''}")
PY
exit 0
