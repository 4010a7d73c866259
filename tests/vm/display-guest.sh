#!/usr/bin/env bash
# Guest side of the display end-to-end tests, in the bochs-drm boot (1280x800) of
# scripts/vm-tests. Prints one PASS/FAIL line per check. Pictures are compared in the guest
# (tests/vm/imgcmp.py; the guest shares the host's root, Pillow included) against references
# the host rendered with `carouseld render` before the boot; a comparison retries for a while,
# so a slow emulated start only makes it wait.
#
# usage (in the guest): tests/vm/display-guest.sh BINARY OUT
#   OUT holds conf-example (config/example with a 20 s interval), conf-long (interval 3600),
#   render/example (conf-example at 1.5 s and 24 s) and render/long (conf-long at 1 s);
#   screendumps and daemon logs are written there.
set -u
bin=$1 out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
example=$out/conf-example long=$out/conf-long
first_ref=$out/render/example/frame-0001.500.png second_ref=$out/render/example/frame-0024.000.png
long_ref=$out/render/long/frame-0001.000.png

. "$repo/tests/vm/guest-lib.sh"   # check, checked, waitfor, crtc_active
# waitfor PATTERN FILE SECONDS: until a line of FILE matches
waitfor() {
  local end=$((SECONDS + $3))
  until grep -q "$1" "$2" 2>/dev/null; do
    [ $SECONDS -lt $end ] || { echo "  (timed out waiting for '$1' in $2)"; return 1; }
    sleep 0.05
  done
}
# matches NAME SHOT REF SECONDS [imgcmp options]: screendumps into SHOT until it matches REF
matches() {
  local name=$1 shot=$2 ref=$3 end=$((SECONDS + $4)) detail; shift 4
  while :; do
    vm-screendump "$shot"
    if detail=$(/usr/bin/python3 "$repo/tests/vm/imgcmp.py" compare "$shot" "$ref" "$@"); then
      echo "PASS $name ($detail)"; return 0
    fi
    [ $SECONDS -lt $end ] || { echo "FAIL $name ($detail)"; return 1; }
    sleep 0.3
  done
}
# matches_one NAME REF SHOT...: one of the screendumps matches REF (decoding may lag the first)
matches_one() {
  local name=$1 ref=$2 shot detail; shift 2
  for shot in "$@"; do
    if detail=$(/usr/bin/python3 "$repo/tests/vm/imgcmp.py" compare "$shot" "$ref"); then
      echo "PASS $name ($(basename "$shot"): $detail)"; return 0
    fi
  done
  echo "FAIL $name (last: $detail)"; return 1
}
# start NAME ARGS...: runs the daemon in the background (log OUT/NAME.log), waits for its first frame
start() {
  local name=$1; shift
  CAROUSELD_DEBUG=1 "$bin" "$@" > "$out/$name.log" 2>&1 &
  pid=$!
  waitfor "first frame on screen" "$out/$name.log" 60
}
switches() { cat /proc/"$pid"/task/*/status | awk '/^voluntary_ctxt_switches/ { s += $2 } END { print s }'; }
frames() { grep -c "frame .* visible" "$out/$1.log"; }
# fails NAME LOG EXPECTED COMMAND...: COMMAND must exit 1 and log EXPECTED
fails() {
  local name=$1 log=$2 expected=$3 rc; shift 3
  "$@" > "$log" 2>&1; rc=$?
  grep -v "^<6>" "$log" | sed 's/^/  /'
  check "$name" sh -c "[ $rc -eq 1 ] && grep -qF -- '$expected' '$log'"
}

# The console as it is before carouseld: text, no blinking cursor (it would differ between dumps).
echo 0 > /sys/class/graphics/fbcon/cursor_blink 2>/dev/null
printf '\033[2J\033[1;1Hcarouseld display test: this is the console\n' > /dev/tty1
sleep 0.3
vm-screendump "$out/console.ppm"

echo "## carouseld outputs"
"$bin" outputs > "$out/outputs.txt" 2>&1; head -4 "$out/outputs.txt"
check "outputs lists the bochs connector as connected" grep -q "^  Virtual-1: connected" "$out/outputs.txt"
check "outputs marks the preferred mode" grep -q "1280x800@75 preferred" "$out/outputs.txt"

echo "## config/example (interval 20 s): the first picture, then the second after one interval"
# The daemon advances by its own clock whatever the test does, so the screen is dumped first and
# compared afterwards (a comparison can take seconds in the emulated guest). The interval counts
# from the daemon's start: at 8 s, a loaded host's 7 s to the first frame and its slow
# screendumps left the second picture's dumps showing the third; 20 s leaves room for both.
start example --config "$example"
grep "first frame on screen" "$out/example.log" | sed 's/^<.>/  /'
for i in 1 2 3; do sleep 0.8; vm-screendump "$out/example-first-$i.ppm"; done
check "auto-advance settles on the second picture" waitfor "showing 2/5 slide2.png" "$out/example.log" 60
for i in 1 2 3; do sleep 0.5; vm-screendump "$out/example-second-$i.ppm"; done
stop
matches_one "first picture on screen matches carouseld render" "$first_ref" "$out"/example-first-?.ppm
matches_one "after one interval the second picture matches render" "$second_ref" "$out"/example-second-?.ppm

echo "## settled with a long interval: idle, DRM master, hotplug re-probe, SIGTERM"
start long --config "$long"
matches "long interval: the first picture matches render" "$out/long-first.ppm" "$long_ref" 10
sleep 1
flips0=$(frames long) switches0=$(switches)
sleep 5
flips1=$(frames long) switches1=$(switches)
echo "  idle 5 s: $((flips1 - flips0)) page flips, $((switches1 - switches0)) voluntary context switches"
check "no page flips while settled" [ $((flips1 - flips0)) -eq 0 ]
check "at most 5 wakeups in 5 s while settled" [ $((switches1 - switches0)) -le 5 ]
fails "a second daemon fails: another process holds DRM master" "$out/second.log" \
  "another process holds DRM master on /dev/dri/card0" "$bin" --config "$long"
udevadm trigger --action=change --subsystem-match=drm
check "a drm change event makes it re-probe" waitfor "re-probing" "$out/long.log" 10
# A VT put back in text mode gives fbcon the screen, DRM master or not (plymouthd's crash handler
# does it): the daemon reads another framebuffer on its CRTC and draws its frame again.
/usr/bin/python3 -c 'import fcntl, os
fd = os.open("/dev/tty1", os.O_RDWR)
for mode in (1, 0):  # KDSETMODE KD_GRAPHICS, then KD_TEXT: only a change of mode gives fbcon the screen
    fcntl.ioctl(fd, 0x4B3A, mode)'
vm-screendump "$out/long-covered.ppm"
echo "  just after KD_TEXT: $(/usr/bin/python3 "$repo/tests/vm/imgcmp.py" console "$out/long-covered.ppm")"
check "a VT back in text mode: the daemon finds another framebuffer on its CRTC (checked every 5 s; 15 s of room)" \
  waitfor "another frame is on screen" "$out/long.log" 15
matches "the picture is drawn again over the console" "$out/long-redrawn.ppm" "$long_ref" 10
# bash's own clock and kill: no process starts inside the measured time.
t0=${EPOCHREALTIME/./}; kill -TERM "$pid"; wait "$pid"; rc=$?; t1=${EPOCHREALTIME/./}
echo "  SIGTERM to exit: $(( (t1 - t0) / 1000 )) ms, status $rc"
check "SIGTERM exits with status 0" [ "$rc" -eq 0 ]
check "SIGTERM exits within 5 s (a hang detector: 0.1-0.3 s seen)" [ $(( (t1 - t0) / 1000 )) -le 5000 ]
check "the CRTC restore is logged" grep -q "restored CRTC" "$out/long.log"
matches "SIGTERM restores the console picture" "$out/long-restored.ppm" "$out/console.ppm" 2 --tolerance 0 --max-bad 0

echo "## legacy commit path, software rotation, fbdev"
start legacy --config "$long" --force-legacy
check "--force-legacy uses the legacy path" grep -q "Virtual-1 1280x800@75 legacy" "$out/legacy.log"
matches "legacy path shows the rendered picture" "$out/legacy.ppm" "$long_ref" 10
stop
matches "legacy path restores the console picture" "$out/legacy-restored.ppm" "$out/console.ppm" 2 --tolerance 0 --max-bad 0
start rotated --config "$long" --rotation 180
check "bochs has no plane rotation: rotated in software" grep -q "rotation 180° in software" "$out/rotated.log"
matches "rotation 180 shows the render turned" "$out/rotated.ppm" "$long_ref" 10 --rotate 180
stop
start fbdev --config "$long" --backend fbdev
check "--backend fbdev draws on /dev/fb0" grep -q "/dev/fb0 (fbdev) 1280x800" "$out/fbdev.log"
matches "fbdev shows the rendered picture" "$out/fbdev.ppm" "$long_ref" 10
stop

echo "## the display driver goes away and comes back under the running daemon"
# As when a GPU driver is reloaded or a card is unplugged: the daemon must wait, not exit,
# and show the carousel again on the new card by itself.
start rebind --config "$long"
pci=$(basename "$(readlink -f /sys/class/drm/card0/device)")
echo "$pci" > /sys/bus/pci/drivers/bochs-drm/unbind
check "driver unbound: the daemon notices and waits" waitfor "was removed; waiting for a display device" "$out/rebind.log" 20
echo "$pci" > /sys/bus/pci/drivers/bochs-drm/bind
matches "driver bound again: the same process shows the carousel" "$out/rebind.ppm" "$long_ref" 60
check "the daemon did not exit meanwhile" kill -0 "$pid"
stop
ls /dev/dri | sed 's/^/  now: /'

echo "## clear failures"
bad=/tmp/badmode; mkdir -p $bad; printf 'mode = "1234x567"\nmedia = "%s"\n' "$repo/config/example/images" > $bad/carouseld.conf
# bochs offers the modes that fit its video memory: with the harness's 64 MB up to 3840x2160.
fails "config mode 1234x567: fails, listing the modes on offer" "$out/badmode.log" \
  "mode 1234x567 not offered by connector Virtual-1; available: 1280x800@75 (preferred), 3840x2160@60" \
  "$bin" --config "$bad"
check "config mode 1234x567: the list goes on to 1920x1080@60 and 640x480@60" \
  grep -q "available: .*, 1920x1080@60, .*640x480@60" "$out/badmode.log"
fails "--output HDMI-A-9: fails, listing the connectors" "$out/badoutput.log" \
  "connector HDMI-A-9 not found; connectors: Virtual-1" "$bin" --config "$long" --output HDMI-A-9
# Not root and not in group video: /dev/dri/card0 is crw-rw---- root:video.
fails "without group video: says to add the user to it" "$out/nobody.log" \
  "permission denied on /dev/dri/card0 (add the user to group video)" \
  setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" --config "$long"
exit 0
