# Sourced by the benchmark scripts: sets $python to a Python that has the test peers (imgtool,
# smpclient, smpmgr): $SMPCTL_PYTHON, else the .venv that `.ci/setup --tests` makes, else /tmp/venv.
# The path is made absolute (not resolved: smpmgr and imgtool sit next to the venv's python), so
# that it still works after a `cd` into a fixture's folder.
python="${SMPCTL_PYTHON:-}"
for candidate in "$python" .venv/bin/python /tmp/venv/bin/python; do
    [ -n "$candidate" ] && [ -x "$candidate" ] && { python=$candidate; break; }
done
[ -x "$python" ] || { echo "no Python with the test peers (imgtool, smpmgr): set SMPCTL_PYTHON or run .ci/setup --tests" >&2; exit 1; }
python="$(cd "$(dirname "$python")" && pwd)/$(basename "$python")"
