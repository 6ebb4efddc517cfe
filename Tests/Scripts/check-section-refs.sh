#!/usr/bin/env bash
# Checks that every section reference (the section sign and a number, e.g. "docs/protocol/images.md
# <S>4.3") in Sources/, Tests/, docs/, Benchmarks/ and README.md resolves to a numbered heading in the
# repository's docs (docs/protocol/*.md). Exits 1 and lists the references that do not.
#
#   Tests/Scripts/check-section-refs.sh [--strict] [PATH...]
#
#   --strict   also fail on bare references (a section number without its file) outside the
#              section's own file; use it once Tests/Scripts/rewrite-section-refs.sh has run
#   PATH       files or folders relative to the repository root (default: all of the above)
#
# The rules and reference forms are described in Tests/Scripts/docs/section_refs.py.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/../.."
exec python3 "$here/docs/section_refs.py" check "$@"
