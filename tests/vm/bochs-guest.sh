#!/usr/bin/env bash
# Guest side of the one bochs-drm boot of scripts/vm-tests: runs each display-needing test
# script in turn. A script that fails without printing a FAIL line gets one, so a crash is
# never counted as a pass; one that hangs is stopped after 5 minutes and fails as such, whatever
# it printed before (the checks it did not reach are not there to count).
# BOCHS_ONLY="race planes": only those scripts (scripts/bench's boot: the figures, not the checks).
#
# usage (in the guest): tests/vm/bochs-guest.sh BINARY OUT
set -u
bin=$1 out=$2
cd "$(dirname "$0")/../.."
. tests/vm/guest-lib.sh   # bin_on_tmpfs
bin_on_tmpfs
# stuck: what a script that timed out left behind: processes asleep in the kernel (state D) with
# their kernel stacks, and the kernel's last words (a driver deadlock shows here, nowhere else)
stuck() {
  local p
  for p in /proc/[0-9]*; do
    [ "$(awk '{ print $3 }' "$p/stat" 2>/dev/null)" = D ] || continue
    echo "  stuck in the kernel: ${p#/proc/} $(cat "$p/comm")"; sed 's/^/    /' "$p/stack" 2>/dev/null
  done
  dmesg | tail -20 | sed 's/^/  dmesg: /'
}
run() {  # run NAME COMMAND...: prints the script's output, then a FAIL line if it died silently
  local name=$1 log; shift
  [ -z "${BOCHS_ONLY:-}" ] || [[ " $BOCHS_ONLY " == *" $name "* ]] || return 0
  log=$(mktemp)
  # Timed by the monotonic clock: clock and sync step the wall clock (bash's SECONDS follows it).
  local t0; t0=$(cut -d. -f1 /proc/uptime)
  echo "### $name"
  timeout -k 5 "${limit:-300}" "$@" 2>&1 | tee "$log"     # a hung script must not hang the whole run
  local rc=${PIPESTATUS[0]}
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    echo "FAIL $name timed out after ${limit:-300} s ($(grep -cE '^(PASS|FAIL)' "$log") checks ran before)"; stuck
  elif [ "$rc" != 0 ]; then
    grep -q '^FAIL' "$log" || echo "FAIL $name exited with status $rc"
  fi
  rm -f "$log"
  echo "### $name took $(( $(cut -d. -f1 /proc/uptime) - t0 )) s"
}
# The guest boots with the kernel's clock unsynchronised (no NTP), under which the daemon does
# not read schedules from it: mark it synchronised, as timesyncd would (clock-guest.sh tests both).
/usr/bin/python3 tests/vm/clock_mark.py synchronised
run display tests/vm/display-guest.sh "$bin" "$out"
run touch env CAROUSELD="$bin" CAROUSELD_DEBUG=1 tests/vm/touch-input.sh "$out"
run touch-rest tests/vm/touch-rest.sh "$bin" "$out"
mkdir -p "$out/config-reload"
run config-reload env CAROUSELD_VM_GUEST=1 tests/vm/config-reload.sh "$bin" "$out/config-reload"
run operations tests/vm/operations-guest.sh "$bin" "$out"
run fade tests/vm/fade-guest.sh "$bin" "$out"
run pan tests/vm/pan-guest.sh "$bin" "$out"
run cec tests/vm/cec-guest.sh "$bin" "$out"
# These two step the guest clock: last but one.
run clock tests/vm/clock-guest.sh "$bin" "$out"
run sync tests/vm/sync-guest.sh "$bin" "$out"
limit=$((120 + 60 * ${RACE_ROUNDS:-1})) run race tests/vm/race-guest.sh "$bin" "$out"
# Last: it loads vkms and unbinds bochs. It takes 4 to 6 minutes; its limit keeps the boot within
# scripts/vm-tests' timeout for it, so the checks before it are still counted if it hangs.
# CPU_ROUNDS adds two minutes a round.
[ -z "${VM_VKMS_KO:-}" ] || limit=$((360 + 120 * ${CPU_ROUNDS:-0})) run planes tests/vm/planes-guest.sh "$bin" "$out"
