#!/usr/bin/env bash
# Guest side of the display end-to-end tests: one bochs-drm boot (1280x800), started by
# scripts/vm-tests. Prints PASS/FAIL lines for what can be judged in the guest and leaves
# screendumps in OUT for the host to compare with `carouseld render` (tests/vm/imgcmp.py).
#
# usage (in the guest): tests/vm/display-guest.sh BINARY OUT
set -u
bin=$1 out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
example=$repo/config/example

check() { local name=$1; shift; if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi; }
# waitfor PATTERN FILE SECONDS: until a line of FILE matches
waitfor() {
  local end=$((SECONDS + $3))
  until grep -q "$1" "$2" 2>/dev/null; do
    [ $SECONDS -lt $end ] || { echo "  (timed out waiting for '$1' in $2)"; return 1; }
    sleep 0.05
  done
}
# config NAME TEXT: a config directory on the guest's tmpfs with the example pictures
config() { mkdir -p "/tmp/$1"; cp -r "$example/images" "/tmp/$1/"; printf "$2" > "/tmp/$1/carouseld.conf"; echo "/tmp/$1"; }
# start NAME ARGS...: runs the daemon in the background (log OUT/NAME.log), waits for its first frame
start() {
  local name=$1; shift
  CAROUSELD_DEBUG=1 "$bin" "$@" > "$out/$name.log" 2>&1 &
  pid=$!
  waitfor "first frame on screen" "$out/$name.log" 60
}
stop() { kill -TERM "$pid" 2>/dev/null; wait "$pid"; }
switches() { cat /proc/"$pid"/task/*/status | awk '/^voluntary_ctxt_switches/ { s += $2 } END { print s }'; }
frames() { grep -c "frame .* visible" "$out/$1.log"; }

# The console as it is before carouseld: text, no blinking cursor (it would differ between dumps).
echo 0 > /sys/class/graphics/fbcon/cursor_blink 2>/dev/null
printf '\033[2J\033[1;1Hcarouseld display test: this is the console\n' > /dev/tty1
sleep 0.3
vm-screendump "$out/console.ppm"

echo "## carouseld outputs"
"$bin" outputs > "$out/outputs.txt" 2>&1; cat "$out/outputs.txt" | head -4
check "outputs lists the bochs connector as connected" grep -q "^  Virtual-1: connected" "$out/outputs.txt"
check "outputs marks the preferred mode" grep -q "1280x800@75 preferred" "$out/outputs.txt"

echo "## example config: first picture, then auto-advance (interval 4 s)"
start example --config "$example"
sleep 1.5
vm-screendump "$out/example-first.ppm"
# The strip settles on the second picture about 5 s after start; the third advance starts at 8 s.
check "auto-advance settles on the second picture" waitfor "showing 2/5 slide2.png" "$out/example.log" 10
sleep 0.3
vm-screendump "$out/example-second.ppm"
stop
grep "first frame on screen" "$out/example.log" | sed 's/^<.>/  /'

echo "## settled with a long interval: idle, hotplug re-probe, SIGTERM"
long=$(config long 'interval = 3600\n')
start long --config "$long"
sleep 2
flips0=$(frames long) switches0=$(switches)
sleep 5
flips1=$(frames long) switches1=$(switches)
echo "  idle 5 s: $((flips1 - flips0)) page flips, $((switches1 - switches0)) voluntary context switches"
check "no page flips while settled" [ $((flips1 - flips0)) -eq 0 ]
check "at most 5 wakeups in 5 s while settled" [ $((switches1 - switches0)) -le 5 ]
"$bin" --config "$long" > "$out/second.log" 2>&1; rc=$?
sed 's/^/  /' "$out/second.log" | grep -v "^  <6>"
check "a second daemon fails: another process holds DRM master" \
  sh -c "[ $rc -eq 1 ] && grep -q 'another process holds DRM master on /dev/dri/card0' '$out/second.log'"
udevadm trigger --action=change --subsystem-match=drm
check "a drm change event makes it re-probe" waitfor "re-probing" "$out/long.log" 10
vm-screendump "$out/long-settled.ppm"
t0=$(date +%s%N); kill -TERM "$pid"; wait "$pid"; rc=$?; t1=$(date +%s%N)
echo "  SIGTERM to exit: $(( (t1 - t0) / 1000000 )) ms, status $rc"
check "SIGTERM exits with status 0" [ "$rc" -eq 0 ]
check "SIGTERM exits within 1 s" [ $(( (t1 - t0) / 1000000 )) -le 1000 ]
check "the CRTC restore is logged" grep -q "restored CRTC" "$out/long.log"
vm-screendump "$out/long-restored.ppm"

echo "## legacy commit path, software rotation, fbdev"
start legacy --config "$long" --force-legacy
sleep 1.5; vm-screendump "$out/legacy.ppm"; stop
check "--force-legacy uses the legacy path" grep -q "Virtual-1 1280x800@75 legacy" "$out/legacy.log"
vm-screendump "$out/legacy-restored.ppm"
start rotated --config "$example" --rotation 180
sleep 1.5; vm-screendump "$out/rotated.ppm"; stop
check "bochs has no plane rotation: rotated in software" grep -q "rotation 180° in software" "$out/rotated.log"
start fbdev --config "$long" --backend fbdev
sleep 1.5; vm-screendump "$out/fbdev.ppm"; stop
check "--backend fbdev draws on /dev/fb0" grep -q "/dev/fb0 (fbdev) 1280x800" "$out/fbdev.log"

echo "## clear failures"
bad=$(config badmode 'mode = "1234x567"\n')
"$bin" --config "$bad" > "$out/badmode.log" 2>&1; rc=$?
sed 's/^/  /' "$out/badmode.log" | grep -v "^  <6>"
check "an unknown mode fails with status 1" [ "$rc" -eq 1 ]
check "an unknown mode lists the modes on offer" \
  grep -q "mode 1234x567 not offered by connector Virtual-1; available: 1280x800@75 (preferred), 1920x1080@60" "$out/badmode.log"
"$bin" --config "$long" --output HDMI-A-9 > "$out/badoutput.log" 2>&1; rc=$?
sed 's/^/  /' "$out/badoutput.log" | grep -v "^  <6>"
check "an unknown connector fails with status 1" [ "$rc" -eq 1 ]
check "an unknown connector lists the connectors" \
  grep -q "connector HDMI-A-9 not found; connectors: Virtual-1" "$out/badoutput.log"
# Not root and not in group video: /dev/dri/card0 is crw-rw---- root:video.
setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" --config "$long" > "$out/nobody.log" 2>&1; rc=$?
sed 's/^/  /' "$out/nobody.log" | grep -v "^  <6>"
check "without group video the message says to add the user to it" \
  sh -c "[ $rc -eq 1 ] && grep -q 'permission denied on /dev/dri/card0 (add the user to group video)' '$out/nobody.log'"
exit 0
