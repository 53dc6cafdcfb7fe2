#!/usr/bin/env bash
# The test command: `Scripts/test.sh`. It lives in Scripts/ci/test.sh (with the other CI checks); this path stays so
# the README's command and `.ci/run` keep working.
exec "$(dirname "$0")/ci/test.sh" "$@"
