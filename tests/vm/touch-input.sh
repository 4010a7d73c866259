#!/bin/bash
# Runs INSIDE the guest (scripts/vm-run): the daemon on a real DRM device, touched by a uinput
# touchscreen that the kernel, udev and libinput treat like a real one.
#   1. `libinput replay` plays a fast left swipe: the screen then shows the next picture, the
#      daemon logs the release velocity, and `carouseld replay` of the same file pages the same way.
#   2. `evemu-play` drags past half a page and holds; the uinput device is destroyed before the
#      finger lifts: the strip returns to the page the drag started on (no release, no paging).
# usage: tests/vm/touch-input.sh OUTDIR   (OUTDIR writable by the guest: a --rw dir or $VM_XCHG)
# env:   CAROUSELD (binary, default .build/debug/carouseld)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: touch-input.sh OUTDIR}/touch
BIN=${CAROUSELD:-$ROOT/.build/debug/carouseld}
mkdir -p "$OUT"; rm -f "$OUT"/*
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
pass() { echo "ok: $*"; }
waitfor() {  # waitfor PATTERN FILE [TENTHS]: grep -E until found
  for _ in $(seq 1 "${3:-300}"); do grep -qE "$1" "$2" && return 0; sleep 0.1; done
  echo "timeout waiting for /$1/ in $2:"; tail -20 "$2"; return 1
}
shot() { vm-screendump "$OUT/$1.ppm" && python3 "$ROOT/tests/vm/touch_screen_colour.py" "$OUT/$1.ppm"; }

python3 "$ROOT/tests/vm/touch_recordings.py" "$OUT"
CONF=/tmp/touch-conf; mkdir -p $CONF        # guest /tmp: a throw-away tmpfs
printf 'interval = 0\nmedia = "%s"\n' "$ROOT/config/example/images" > $CONF/carouseld.conf

"$BIN" run --config $CONF > "$OUT/daemon.log" 2>&1 & DAEMON=$!
trap 'kill $DAEMON 2>/dev/null; wait $DAEMON 2>/dev/null' EXIT
waitfor 'no touch device; running as a slideshow' "$OUT/daemon.log" || exit 1
sleep 1; before=$(shot 0-start); echo "start: $before"
[ "$before" = slide1 ] || fail "the carousel does not start on slide1 ($before)"

echo "== 1. libinput replay: left swipe"
FIFO=/tmp/replay-enter; rm -f $FIFO; mkfifo $FIFO    # 9p dirs cannot hold fifos
libinput replay "$OUT/swipe-left.yml" < $FIFO > "$OUT/libinput-replay.txt" 2>&1 & REPLAY=$!
exec 9> $FIFO
waitfor '"carousel test touchscreen.*added \(touch\)' "$OUT/daemon.log" || fail "the daemon did not see the touchscreen"
echo >&9                                            # "Hit enter to start replaying"
waitfor 'release velocity_x=' "$OUT/daemon.log" || fail "no release logged"
grep -E 'release velocity_x=' "$OUT/daemon.log" | head -1
wait $REPLAY; exec 9>&-
sleep 2; after=$(shot 1-after-swipe); echo "after swipe: $after"
[ "$after" = slide2 ] && pass "the swipe paged to the next picture" || fail "expected slide2 after the swipe, got $after"
vx=$(grep -oE 'release velocity_x=-?[0-9.]+' "$OUT/daemon.log" | head -1 | cut -d= -f2)
awk -v v="$vx" 'BEGIN { exit !(v < -400) }' && pass "logged release velocity $vx px/s (a left fling)" \
  || fail "release velocity '$vx' is not a left fling"
"$BIN" replay "$OUT/swipe-left.yml" --size 1280x800 > "$OUT/offline.jsonl" 2>"$OUT/offline.err"
grep -q '"event":"release".*"to":1' "$OUT/offline.jsonl" && pass "carouseld replay of the same file pages to 1 too: $(head -1 "$OUT/offline.jsonl")" \
  || fail "carouseld replay disagrees: $(cat "$OUT/offline.jsonl" "$OUT/offline.err")"
sleep 1   # libinput replay removed its device when it exited

echo "== 2. device destroyed mid-drag"
evemu-device "$OUT/touchscreen.evemu" > "$OUT/evemu-device.txt" 2>&1 & EVEMU=$!
waitfor '/dev/input/event' "$OUT/evemu-device.txt" || exit 1
NODE=$(grep -oE '/dev/input/event[0-9]+' "$OUT/evemu-device.txt" | head -1)
waitfor "\"carousel test touchscreen \\(${NODE#/dev/input/}\\)\" added" "$OUT/daemon.log" || fail "the daemon did not see $NODE"
releases_before=$(grep -c 'release velocity_x=' "$OUT/daemon.log")
evemu-play "$NODE" < "$OUT/drag-hold.events"
sleep 0.5; held=$(shot 2-held); echo "while held: $held"
[ "$held" != slide2 ] && pass "the strip follows the held finger ($held)" || fail "the drag did not move the strip"
kill $EVEMU; wait $EVEMU 2>/dev/null                 # destroys the uinput device, finger still down
waitfor 'removed during a drag; the strip springs back' "$OUT/daemon.log" || fail "removal mid-drag not noticed"
sleep 2; back=$(shot 3-after-unplug); echo "after unplug: $back"
[ "$back" = slide2 ] && pass "the strip returned to the page the drag started on" || fail "expected slide2 after the unplug, got $back"
[ "$(grep -c 'release velocity_x=' "$OUT/daemon.log")" = "$releases_before" ] && pass "the unplug was not a release" \
  || fail "the unplug was taken as a release"

echo "== daemon log"; grep -vE '^<7>' "$OUT/daemon.log" | tail -25
exit $FAILED
