#!/usr/bin/env bash
# Guest side of the wall-clock sync check (issue 15), in the bochs-drm boot of scripts/vm-tests:
# the daemon with sync = "wallclock" (10 s per picture from 2026-01-01T00:00:00Z) must show the
# picture the clock says, and re-align at once when the clock is stepped with `date -s`, forward
# and back. The oracle is plain arithmetic here ((now - epoch) mod 50 s, 10 s a picture), read
# against the screen with tests/vm/touch_screen_colour.py. Prints one PASS/FAIL line per check.
# usage (in the guest): tests/vm/sync-guest.sh BINARY OUT
set -u
bin=$1 out=$2/sync
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"; rm -f "$out"/*
conf=/tmp/sync-conf; mkdir -p $conf
# 10 s a picture: a screendump bracketed by two clock readings must fall within one picture's
# window, away from its change; under a loaded host a screendump took 4 s and more, which 5 s
# pictures left too little room for.
printf 'interval = 10\nmedia = "%s"\nsync = "wallclock"\nepoch = "2026-01-01T00:00:00Z"\n' \
  "$repo/config/example/images" > $conf/carouseld.conf
EPOCH=1767225600

. "$repo/tests/vm/guest-lib.sh"   # check, checked, waitfor, crtc_active
now() { date +%s.%N; }
# expected T: the slide shown at wall time T; "edge" within 1 s of a change (the move may run).
# Shell arithmetic on milliseconds: a Python start per reading cost a second under TCG.
expected() {
  local frac="${1#*.}000"
  local ms=$(( ${1%.*} * 1000 + 10#${frac:0:3} - EPOCH * 1000 ))
  local within=$(( ms % 10000 ))
  if [ $within -lt 500 ] || [ $within -gt 9000 ]; then echo edge
  else echo "slide$(( (ms % 50000) / 10000 + 1 ))"; fi
}
# on_clock NAME SAMPLES: SAMPLES screendumps away from a change all show the clock's slide.
# A screendump that straddles a change is not a reading and is taken again; 40 attempts is the
# hang detector (CI saw a screendump take 4 s, so a fixed 30 s window once held one reading).
on_clock() {
  local name=$1 want=$2 tries=0 good=0 t0 t1 e0 e1 got
  while [ $good -lt "$want" ] && [ $tries -lt 40 ]; do
    tries=$((tries + 1))
    t0=$(now); vm-screendump "$out/screen.ppm"; t1=$(now)   # bracket the screendump alone
    e0=$(expected "$t0"); e1=$(expected "$t1")
    if [ "$e0" = edge ] || [ "$e0" != "$e1" ]; then sleep 0.3; continue; fi
    got=$(/usr/bin/python3 "$repo/tests/vm/touch_screen_colour.py" "$out/screen.ppm")
    [ "$got" = "$e0" ] || { echo "FAIL $name (at $t0 the screen shows $got, the clock says $e0)"; return 1; }
    good=$((good + 1)); sleep 1.3
  done
  [ $good -ge "$want" ] && echo "PASS $name ($good screendumps, each the clock's slide)" \
    || echo "FAIL $name (only $good of $tries screendumps away from a change)"
}
# step NAME SECONDS: date -s to about SECONDS from now, in the middle of a picture's window (so
# the check reads the cut, not a move); the screen shows the clock's slide at once
step() {
  local name=$1 by=$2 lines t got want
  t=$(/usr/bin/python3 -c "import sys; t = float(sys.argv[1]) + $by; print('%.3f' % (t - (t - $EPOCH) % 10 + 5))" "$(now)")
  lines=$(wc -l < "$out/daemon.log")
  date -s "@$t" > /dev/null
  # A hang detector: the daemon hears of the step at once (timerfd's cancel-on-set); 10 s of room.
  for _ in $(seq 1 100); do tail -n +"$lines" "$out/daemon.log" | grep -q "the wall clock was set" && break; sleep 0.1; done
  check "$name: the daemon noticed the clock step" sh -c "tail -n +$lines '$out/daemon.log' | grep -q 'the wall clock was set'"
  # The clock's slide at the screendump's own time (bracketed: before and after it agree, away
  # from a change), not at the time set, which is already past when the screendump is taken.
  local t0 t1 tries=0
  while :; do
    t0=$(now); vm-screendump "$out/screen.ppm"; t1=$(now)   # bracket the screendump alone
    got=$(/usr/bin/python3 "$repo/tests/vm/touch_screen_colour.py" "$out/screen.ppm"); want=$(expected "$t0")
    [ "$want" != edge ] && [ "$want" = "$(expected "$t1")" ] && break
    tries=$((tries + 1)); [ $tries -lt 5 ] || { want="(always at a change)"; break; }
  done
  echo "  clock set to $t: screen $got at $t0, clock $want"
  check "$name: the screen shows the clock's slide right after the step" [ "$got" = "$want" ]
}

CAROUSELD_DEBUG=1 "$bin" run --config $conf > "$out/daemon.log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do grep -q "first frame on screen" "$out/daemon.log" && break; sleep 0.1; done
on_clock "synced: the screen shows the slide the wall clock says" 3
step "clock stepped 12 s forward" 12
step "clock stepped 12 s back" -12
on_clock "still synced after the steps" 2
check "the synced screen's auto-advance follows the clock, not its own countdown" \
  sh -c "! grep -q 'sync = \"wallclock\" needs' '$out/daemon.log'"
kill -TERM $pid; wait $pid
