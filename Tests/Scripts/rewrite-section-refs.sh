#!/usr/bin/env bash
# Rewrites section references that name no file, or name smp-protocol.md (not in the repository),
# so that they name the docs/protocol file holding the section: "(smp-protocol.md <S>17)" becomes
# "(docs/protocol/upgrade.md <S>17)", "(<S>15.1 of the protocol notes)" becomes
# "(docs/protocol/serial.md <S>15.1)"; in Markdown files a reference becomes a link
# "[<S>14](protocol/suit.md#14-suit-group-ncs-66-by-default)". The file for each number is read from
# the numbered headings of docs/protocol/*.md, so the mapping needs no table.
#
#   Tests/Scripts/rewrite-section-refs.sh [--write] [PATH...]
#
#   --write   rewrite the files in place (default: print the diff and change nothing)
#   PATH      files or folders relative to the repository root (default: Sources Tests docs
#             Benchmarks README.md); docs/protocol itself is never rewritten
#
# Then run Tests/Scripts/check-section-refs.sh --strict.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/../.."
exec python3 "$here/docs/section_refs.py" rewrite "$@"
