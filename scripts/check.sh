#!/usr/bin/env bash
# The project's test command: lint, types, layering, then the tests. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.venv/bin
"$bin/ruff" check tracker tui tests benchmarks
"$bin/mypy"
"$bin/lint-imports"
"$bin/python" -m pytest "$@"
