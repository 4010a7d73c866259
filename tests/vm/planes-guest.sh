#!/usr/bin/env bash
# Guest side of the overlay-plane checks (issue 24), run at the end of the bochs-drm boot of
# scripts/vm-tests: vkms is loaded with overlay planes and a writeback connector, and bochs is
# unbound, so vkms's card is the only one. Runs, one after another, on OUT/conf-planes* (made by
# scripts/vm-tests, 640x480, the example's pictures; "-still" ones never advance by themselves,
# so `ctl writeback` is armed at rest and `ctl next` makes the page change it reads back):
#   1. planes: the log says the plane path is in use, 10 frames of a page change are read back
#      (left in OUT/planes/wb-planes/ for the host to match against `render`), the kernel's
#      atomic state has the cards on overlay planes at rest and none after exit;
#   2. the daemon's CPU time over one loop of 5 page changes (its second, every card decoded),
#      interval 2, on planes and composed (planes = "off");
#   3. side_scale 0.8: one log line says why frames are composed;
#   4. planes beside `stress-ng --cpu 2`: the flip times of a page change, measured;
#   5. fbi cutting through the same pictures on vkms's fbdev: its CPU time over 5 pages.
# CPU figures (all, user, kernel seconds) go to OUT/planes/cpu.txt. Waits are on the daemon's own log lines.
# usage (in the guest): tests/vm/planes-guest.sh BINARY OUT
set -u
bin=$1 base=$2 out=$2/planes
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"
mkdir -p "$out"; rm -rf "${out:?}"/*
hz=$(getconf CLK_TCK)

# vkms with planes, the only card: bochs (if loaded) is unbound.
if [ ! -d /sys/module/vkms ]; then
  modprobe -q drm_kms_helper; modprobe -q drm_shmem_helper
  insmod "$VM_VKMS_KO" enable_overlay=1 enable_writeback=1 || echo "FAIL planes: insmod vkms"
fi
for dev in /sys/bus/pci/drivers/bochs-drm/0000:*; do [ -e "$dev" ] && echo "${dev##*/}" > /sys/bus/pci/drivers/bochs-drm/unbind; done
udevadm settle -t 30
card=; for c in /sys/kernel/debug/dri/*/name; do grep -q vkms "$c" && card=$(dirname "$c"); done
check "vkms is loaded with overlay planes (its debugfs: ${card:-none})" test -n "$card" -a "$(cat /sys/module/vkms/parameters/enable_overlay 2>/dev/null)" = Y
state() { cat "$card/state"; }
# lit_overlays: planes the kernel's atomic state shows on a CRTC, less the primary (vkms makes
# it first, plane-0; the dump does not print plane types)
lit_overlays() { state | awk '/^plane\[/ { p++; in_plane = 1; next } /^[a-z]+\[/ { in_plane = 0 }
                                in_plane && p > 1 && /crtc=crtc/ { n++ } END { print n + 0 }'; }
# cpu_ticks: a process's utime and stime
cpu_ticks() { awk '{ print $14, $15 }' "/proc/$1/stat"; }
# cpu_between "U0 S0" "U1 S1": seconds of CPU in all, in user space and in the kernel
cpu_between() { echo "$1 $2" | awk -v hz="$hz" '{ printf "%.3f %.3f %.3f", ($3 + $4 - $1 - $2) / hz, ($3 - $1) / hz, ($4 - $2) / hz }'; }
# rests N: waits until the log has said "showing" N times (the strip came to rest after N page
# changes; the first picture is not said)
rests() { local end=$((SECONDS + 90)); until [ "$(grep -c 'showing [0-9]' "$log")" -ge "$1" ]; do
  [ $SECONDS -lt $end ] || { echo "  (timed out waiting for rest $1 in $log)"; return 1; }; sleep 0.1; done; }

control=/run/carouseld-planes.sock
# run NAME CONF [NICE]: starts the daemon on OUT/CONF, logging to OUT/planes/NAME.log, with a
# card cache directory as the unit gives it (CacheDirectory=): cards read back, not decoded again
run() {
  log=$out/$1.log
  CAROUSELD_DEBUG=1 nice -n "${3:-0}" "$bin" run --config "$base/$2" --cache-dir "$out/cache" --control $control > "$log" 2>&1 &
  pid=$!
  waitfor "first frame on screen" "$log" 60
}
# capture NAME N: arms `ctl writeback` for N frames into OUT/planes/wb-NAME/ at rest, pages once
# with `ctl next`, waits for the capture to end and the strip to rest
capture() { mkdir -p "$out/wb-$1"; ctl writeback "$out/wb-$1" "$2" >/dev/null && ctl next >/dev/null \
  && waitfor "writeback finished" "$log" 90 && rests 1; }
# loop_cpu: CPU seconds over the second loop of 5 page changes (from the 5th rest after the
# first picture to the 10th)
loop_cpu() { rests 5 && local a=$(cpu_ticks $pid) && rests 10 && cpu_between "$a" "$(cpu_ticks $pid)"; }

# 1. planes, read back
run planes conf-planes-still
capture planes 10
check "the log says the cards are on overlay planes" grep -q "cards on overlay planes" "$log"
n=$(lit_overlays)
check "at rest, the kernel's atomic state has $n overlay planes lit with cards" test "$n" -ge 1
stop
state > "$out/state-after-exit.txt"
n=$(lit_overlays)
check "no overlay plane is left over the console after exit ($n lit)" test "$n" -eq 0

# 2. CPU per page change, planes and composed
run cpu-planes conf-planes
check "the plane path is in use while paging by itself" waitfor "cards on overlay planes" "$log" 30
echo "planes $(loop_cpu)" >> "$out/cpu.txt"
stop
run cpu-composed conf-planes-off
echo "composed $(loop_cpu)" >> "$out/cpu.txt"
check "planes = \"off\" never uses the plane path" sh -c "! grep -q 'cards on overlay planes' $log"
stop

# 3. scaled side cards
run scaled conf-planes-scaled-still
# (Not read back yet: composed frames' writeback lags on vkms under TCG, see docs/rendering.md.)
ctl next >/dev/null; rests 1
checked "side_scale 0.8: one log line says why frames are composed" \
  sh -c "grep -c 'composing frames on the CPU' $log | grep -qx 1 && grep -o 'composing frames on the CPU: [^(]*' $log"
stop

# 4. under stress
stress-ng --cpu 2 --timeout 120 >/dev/null 2>&1 &
stress=$!
run stress conf-planes-still -5   # as the unit runs it (Nice=-5)
ctl next >/dev/null; rests 1
stop
kill $stress 2>/dev/null; wait $stress 2>/dev/null
# The flip times of frames while the strip moved (debug "frame N visible at T"), as gaps.
awk '/visible at/ { t = $NF; if (p && t - p < 0.5) print t - p; p = t }' "$log" > "$out/stress-gaps.txt"

# 5. fbi, cutting (its own decode each time; -t 2 like interval 2)
if [ -e /dev/fb0 ] && command -v fbi >/dev/null; then
  fbi -d /dev/fb0 -T 1 --noverbose -a -t 2 "$repo"/config/example/images/* > "$out/fbi.log" 2>&1 </dev/null &
  fpid=$(pgrep -n -x fbi)
  # fbi says nothing per page: the window is 5 of its -t 2 pages, measured from its second.
  sleep 2; a=$(cpu_ticks "$fpid"); sleep 10; b=$(cpu_ticks "$fpid")
  kill "$fpid"
  echo "fbi $(cpu_between "$a" "$b")" >> "$out/cpu.txt"
else
  echo "FAIL fbi on vkms's fbdev (/dev/fb0 or fbi missing)"
fi
cat "$out/cpu.txt"
