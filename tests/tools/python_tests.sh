#!/usr/bin/env bash
# The Python package's tests (python/tests) with the tools interpreter. A
# missing pytest is named with how to get it, and skips (77) unless the
# peers are required (tests/tools/optional_module.py); -rs prints the reason
# of every skipped module, so a missing peer is never silent.
# Arguments: PYTHON TESTS_DIR
set -euo pipefail
python=$1 tests=$2
"$python" "$(dirname "$0")/optional_module.py" pytest
exec "$python" -m pytest -q -rs -p no:cacheprovider "$tests"
