# Sourced by the Wayland host tests (each sets `here` to tests/ first): image comparison, the
# PASS/FAIL counting, and running as a non-root user.
imgcmp() { /usr/bin/python3 "$here/vm/imgcmp.py" "$@"; }

passed=0 failed=0
check() {  # check NAME COMMAND...: PASS or FAIL, with the command's output
  local name=$1; shift
  local output; output=$("$@" 2>&1); local rc=$?
  if [ -n "${UNCOUNTED:-}" ]; then  # measured and printed, not counted (first-picture.sh: cage)
    echo "$([ $rc = 0 ] && echo pass || echo fail) (not counted) $name: $output"; return
  fi
  if [ $rc = 0 ]; then echo "PASS $name${output:+: $output}"; passed=$((passed + 1))
  else echo "FAIL $name: $output"; failed=$((failed + 1)); fi
}

# Run as root, `as_test_user "$@"` runs the calling script again as the user carouseld-test
# (compositors and clients run as non-root users in kiosks), in a copy under /tmp that user can
# read, copies its OUTDIR back and exits with its status. As any other user it returns.
as_test_user() {  # as_test_user CAROUSELD OUTDIR
  [ "$(id -u)" = 0 ] || return 0
  local here; here=$(cd "$(dirname "$0")/.." && pwd)
  id carouseld-test >/dev/null 2>&1 || useradd --system --no-create-home carouseld-test
  # cage starts Xwayland, which refuses an X socket directory that root does not own.
  mkdir -p /tmp/.X11-unix && chown root:root /tmp/.X11-unix && chmod 1777 /tmp/.X11-unix
  local work; work=$(mktemp -d /tmp/carouseld-wayland.XXXXXX); chmod 755 "$work"
  cp "$1" "$work/carouseld"; cp -r "$here" "$work/tests"; cp -r "$here/../config" "$work/config"
  chown -R carouseld-test "$work"
  runuser -u carouseld-test -- "$work/tests/wayland/$(basename "$0")" "$work/carouseld" "$work/out"; local rc=$?
  mkdir -p "$2"; cp -r "$work/out/." "$2/" 2>/dev/null; rm -rf "$work"
  exit $rc
}

# commits_and_panned LOG PID: each output's "COMMITS PANNED", on one line, from the stats line
# the daemon (PID, logging to LOG) writes on SIGUSR1 (waited for, 10 s at most)
commits_and_panned() {
  local before; before=$(grep -c "stats:" "$1")
  kill -USR1 "$2"
  local end=$((SECONDS + 10))
  until [ "$(grep -c "stats:" "$1")" -gt "$before" ] || [ $SECONDS -ge $end ]; do sleep 0.05; done
  grep "stats:" "$1" | tail -1 | grep -oE "wayland commits [0-9]+|panned frames [0-9]+" | awk '{ s = s (NR > 1 ? " " : "") $3 } END { print s }'
}
