#!/bin/bash
# Runs INSIDE the guest (scripts/vm-run): a finger that rests on a uinput touchscreen, under
# systemd's watchdog as the packaged unit runs it (NOTIFY_SOCKET, WATCHDOG_USEC=2 s).
#   1. The finger drags and then rests, sending nothing, for 15 s: WATCHDOG=1 must keep coming
#      about every second (a resting finger once froze the clock the pings were run by).
#   2. It still never lifts: after touch_timeout (20 s, the default) the contact counts as
#      lifted, one warning names the device and the slot, and auto-advance resumes.
# usage: tests/vm/touch-rest.sh BINARY OUTDIR
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${1:?usage: touch-rest.sh BINARY OUTDIR}
OUT=${2:?usage: touch-rest.sh BINARY OUTDIR}/touch-rest
mkdir -p "$OUT"; rm -f "$OUT"/*
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
pass() { echo "ok: $*"; }
waitfor() {  # waitfor PATTERN FILE [TENTHS]: grep -E until found
  for _ in $(seq 1 "${3:-300}"); do grep -qE "$1" "$2" 2>/dev/null && return 0; sleep 0.1; done
  echo "timeout waiting for /$1/ in $2:"; tail -20 "$2"; return 1
}

python3 "$ROOT/tests/vm/touch_recordings.py" "$OUT"
CONF=/tmp/touch-rest-conf; mkdir -p $CONF
printf 'interval = 2\nmedia = "%s"\n' "$ROOT/config/example/images" > $CONF/carouseld.conf
SOCK=/tmp/touch-rest-notify
python3 "$ROOT/tests/vm/notify_listener.py" $SOCK "$OUT/notify.log" & LISTENER=$!
waitfor LISTENING "$OUT/notify.log" || exit 1
# WATCHDOG_PID must be the daemon's own: the shell execs it, keeping its pid.
NOTIFY_SOCKET=$SOCK WATCHDOG_USEC=2000000 sh -c 'WATCHDOG_PID=$$ exec "$0" run --config "$1"' "$BIN" $CONF \
  > "$OUT/daemon.log" 2>&1 & DAEMON=$!
trap 'kill $DAEMON $LISTENER ${EVEMU:-} 2>/dev/null; wait 2>/dev/null' EXIT
waitfor 'READY=1' "$OUT/notify.log" || exit 1
evemu-device "$OUT/touchscreen.evemu" > "$OUT/evemu-device.txt" 2>&1 & EVEMU=$!
waitfor '/dev/input/event' "$OUT/evemu-device.txt" || exit 1
NODE=$(grep -oE '/dev/input/event[0-9]+' "$OUT/evemu-device.txt" | head -1)
waitfor "\"carousel test touchscreen \\(${NODE#/dev/input/}\\)\" added" "$OUT/daemon.log" || exit 1
# A drag past half a page that stops, the finger down (no lift in the events).
evemu-play "$NODE" < "$OUT/drag-hold.events"
rest_start=$(python3 -c 'import time; print(f"{time.monotonic():.3f}")')
sleep 15
rest_end=$(python3 -c 'import time; print(f"{time.monotonic():.3f}")')

echo "== 1. watchdog pings while the finger rests (${rest_start}..${rest_end})"
python3 - "$OUT/notify.log" "$rest_start" "$rest_end" <<'PY' && pass "watchdog pings kept coming while the finger rested" \
  || fail "the watchdog starved while the finger rested"
import sys
log, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
pings = [float(l.split()[0]) for l in open(log) if l.split()[1:2] == ["WATCHDOG=1"]]
inside = [t for t in pings if start <= t <= end]
edges = [start] + inside + [end]
gap = max(b - a for a, b in zip(edges, edges[1:]))
print(f"   {len(inside)} pings in {end - start:.1f} s of rest, longest gap {gap:.2f} s (WATCHDOG_USEC 2 s: a ping a second)")
sys.exit(0 if len(inside) >= 12 and gap <= 2.0 else 1)
PY

echo "== 2. the contact that never lifts times out"
if waitfor 'slot [0-9]+: no event for 20 s; treating the contact as lifted' "$OUT/daemon.log" 100; then
  grep -E 'treating the contact as lifted' "$OUT/daemon.log" | head -1
  [ "$(grep -c 'treating the contact as lifted' "$OUT/daemon.log")" = 1 ] && pass "one warning names the device and slot" \
    || fail "more than one time-out warning"
  at=$(grep -n 'treating the contact as lifted' "$OUT/daemon.log" | head -1 | cut -d: -f1)
  for _ in $(seq 1 100); do
    [ "$(tail -n +"$at" "$OUT/daemon.log" | grep -cE '^<6>showing [0-9]+/')" -ge 2 ] && break; sleep 0.1
  done
  shown=$(tail -n +"$at" "$OUT/daemon.log" | grep -E '^<6>showing [0-9]+/' | head -2 | tr '\n' ' ')
  [ "$(tail -n +"$at" "$OUT/daemon.log" | grep -cE '^<6>showing [0-9]+/')" -ge 2 ] \
    && pass "the strip settled and auto-advance resumed: $shown" || fail "no auto-advance after the time-out ($shown)"
else
  fail "the stuck contact did not time out"
fi
kill $DAEMON; wait $DAEMON 2>/dev/null
echo "== daemon log"; grep -vE '^<7>' "$OUT/daemon.log" | tail -12
exit $FAILED
