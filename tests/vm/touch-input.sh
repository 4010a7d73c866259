#!/bin/bash
# Runs INSIDE the guest (scripts/vm-run): the daemon on a real DRM device, touched by a uinput
# touchscreen that the kernel, udev and libinput treat like a real one.
#   1. `libinput replay` plays a fast left swipe: the screen then shows the next picture and the
#      daemon logs the release velocity. `libinput record` captures what the kernel delivered,
#      and `carouseld replay` of that capture must report the very same release (same events,
#      same code path; the velocity depends on the guest's timing, so it is compared, not fixed).
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
waitnew() {  # waitnew LINES PATTERN FILE: like waitfor, but only on lines after the first LINES
  for _ in $(seq 1 300); do tail -n +"$(($1 + 1))" "$3" | grep -qE "$2" && return 0; sleep 0.1; done
  echo "timeout waiting for /$2/ after line $1 of $3:"; tail -20 "$3"; return 1
}
finish() {  # finish PID: up to 5 s to exit on its own, then killed; never hangs the boot
  for _ in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$1" 2>/dev/null; wait "$1" 2>/dev/null
}
shot() { vm-screendump "$OUT/$1.ppm" && python3 "$ROOT/tests/vm/touch_screen_colour.py" "$OUT/$1.ppm"; }
# shot_until NAME is|not SLIDE: screendumps until the centre shows (or no longer shows) SLIDE, 15 s
# at most; prints the last one's slide (a wait for the screen, not a fixed sleep)
shot_until() {
  local end=$((SECONDS + 15)) seen
  while :; do
    seen=$(shot "$1")
    if [ "$2" = is ]; then [ "$seen" = "$3" ] && break; else [ -n "$seen" ] && [ "$seen" != "$3" ] && break; fi
    [ $SECONDS -lt $end ] || break
    sleep 0.1
  done
  echo "$seen"
}

python3 "$ROOT/tests/vm/touch_recordings.py" "$OUT"
CONF=/tmp/touch-conf; mkdir -p $CONF        # guest /tmp: a throw-away tmpfs
printf 'interval = 0\nmedia = "%s"\n' "$ROOT/config/example/images" > $CONF/carouseld.conf

"$BIN" run --config $CONF > "$OUT/daemon.log" 2>&1 & DAEMON=$!
trap 'kill $DAEMON 2>/dev/null; wait $DAEMON 2>/dev/null' EXIT
waitfor 'no touch device; running as a slideshow' "$OUT/daemon.log" || exit 1
before=$(shot_until 0-start is slide1); echo "start: $before"
[ "$before" = slide1 ] || fail "the carousel does not start on slide1 ($before)"

echo "== 1. libinput replay: left swipe"
FIFO=/tmp/replay-enter; rm -f $FIFO; mkfifo $FIFO    # 9p dirs cannot hold fifos
libinput replay "$OUT/swipe-left.yml" < $FIFO > "$OUT/libinput-replay.txt" 2>&1 & REPLAY=$!
exec 9> $FIFO
waitfor '"carousel test touchscreen \(event[0-9]+\)" added \(touch\)' "$OUT/daemon.log" || fail "the daemon did not see the touchscreen"
NODE=/dev/input/$(grep -oE 'carousel test touchscreen \(event[0-9]+\)' "$OUT/daemon.log" | tail -1 | grep -oE 'event[0-9]+')
libinput record --output-file "$OUT/seen.yml" "$NODE" > "$OUT/record.txt" 2>&1 & RECORD=$!
# The recorder has the device open (its descriptors show the node) before the replay starts.
end=$((SECONDS + 10)); until ls -l /proc/$RECORD/fd 2>/dev/null | grep -q "$NODE\$" || [ $SECONDS -ge $end ]; do sleep 0.05; done
echo >&9                                            # "Hit enter to start replaying"
waitfor 'release velocity_x=' "$OUT/daemon.log" || fail "no release logged"
line=$(grep -E 'release velocity_x=' "$OUT/daemon.log" | head -1); echo "daemon: $line"
sleep 0.5; kill -INT $RECORD; finish $RECORD
exec 9>&-; finish $REPLAY                            # EOF on its stdin ends libinput replay (and its device)
after=$(shot_until 1-after-swipe is slide2); echo "after swipe: $after"
[ "$after" = slide2 ] && pass "the swipe paged to the next picture" || fail "expected slide2 after the swipe, got $after"
vx=$(echo "$line" | grep -oE 'velocity_x=-?[0-9.]+' | cut -d= -f2)
echo "$line" | grep -q 'from 0 to 1' && awk -v v="$vx" 'BEGIN { exit !(v <= 0) }' \
  && pass "the daemon logged the release: velocity_x $vx px/s, from 0 to 1" || fail "unexpected release: $line"
"$BIN" replay "$OUT/seen.yml" --size 1280x800 --config $CONF > "$OUT/offline.jsonl" 2>"$OUT/offline.err"
offline=$(grep -m1 '"event":"release"' "$OUT/offline.jsonl")
python3 - "$line" "$offline" <<'PY' && pass "carouseld replay of the captured events reports the same release: $offline" \
  || fail "carouseld replay of the captured events disagrees: ${offline:-$(cat "$OUT/offline.err")}"
import json, re, sys
live = dict(re.findall(r"(velocity_[xy])=(-?[0-9.]+)", sys.argv[1]))
rep = json.loads(sys.argv[2])
same = all(abs(float(live[k]) - rep[k]) <= 0.1 for k in ("velocity_x", "velocity_y"))
sys.exit(0 if same and rep["from"] == 0 and rep["to"] == 1 else 1)
PY
sleep 1

echo "== 2. device destroyed mid-drag"
seen=$(wc -l < "$OUT/daemon.log")      # the replayed device of part 1 had the same name and node
evemu-device "$OUT/touchscreen.evemu" > "$OUT/evemu-device.txt" 2>&1 & EVEMU=$!
waitfor '/dev/input/event' "$OUT/evemu-device.txt" || exit 1
NODE=$(grep -oE '/dev/input/event[0-9]+' "$OUT/evemu-device.txt" | head -1)
waitnew "$seen" "\"carousel test touchscreen \\(${NODE#/dev/input/}\\)\" added" "$OUT/daemon.log" || fail "the daemon did not see $NODE"
releases_before=$(grep -c 'release velocity_x=' "$OUT/daemon.log")
evemu-play "$NODE" < "$OUT/drag-hold.events"
held=$(shot_until 2-held not slide2); echo "while held: $held"
# What the screen showed (a slide or a mix of two) other than slide2: an empty output (the
# screendump or its reading failed) is no pass.
[ -n "$held" ] && [ "$held" != slide2 ] && pass "the strip follows the held finger ($held)" || fail "the drag did not move the strip"
kill $EVEMU; finish $EVEMU             # destroys the uinput device, finger still down
waitfor 'removed during a drag; the strip springs back' "$OUT/daemon.log" || fail "removal mid-drag not noticed"
back=$(shot_until 3-after-unplug is slide2); echo "after unplug: $back"
[ "$back" = slide2 ] && pass "the strip returned to the page the drag started on" || fail "expected slide2 after the unplug, got $back"
[ "$(grep -c 'release velocity_x=' "$OUT/daemon.log")" = "$releases_before" ] && pass "the unplug was not a release" \
  || fail "the unplug was taken as a release"

echo "== daemon log"; grep -vE '^<7>' "$OUT/daemon.log" | tail -25
exit $FAILED
