#!/usr/bin/env bash
# Guest side of the overlay-plane checks (issue 24), run at the end of the bochs-drm boot of
# scripts/vm-tests: vkms is loaded with overlay planes and a writeback connector, and bochs is
# unbound, so vkms's card is the only one. Runs, one after another, on OUT/conf-planes* and
# OUT/conf-cpu-* (made by scripts/vm-tests, the example's pictures; "-still" ones never advance
# by themselves, so `ctl writeback` is armed at rest and `ctl next` makes the page change it
# reads back, each left in OUT/planes/wb-NAME/ for the host to match against `render`):
#   0. on bochs (before vkms; bochs has no overlay planes): the daemon's CPU time over 5 page
#      changes, the flat look panned and the look with emphasis composed, and fbi's over 5
#      pictures on bochs's fbdev, all at bochs's own mode, three times each; then the panned
#      path's flip gaps beside `stress-ng --cpu 2`;
#   1. planes (640x480): the log says the plane path is in use, frames of a page change are
#      read back, the kernel's atomic state has the cards on overlay planes at rest and none
#      after exit;
#   2. the daemon's CPU time over one loop of 5 page changes (its second), interval 2, at
#      1920x1080, on planes and composed (planes = "off"), three times each, in turn;
#   3. side_scale 0.8: one log line says why frames are composed; composed frames read back;
#   4. planes beside `stress-ng --cpu 2`: frames of a page change read back, then the gaps
#      between the flips of the next, each with the daemon's part (OUT/planes/stress-gaps.txt);
#   5. fbi cutting through the same pictures on vkms's fbdev: its CPU time over 5 pages.
# CPU figures (all, user, kernel seconds by ticks; the daemon's also as the scheduler ran it)
# go to OUT/planes/cpu.txt, taken on one emulated CPU
# (see `cpus`). Waits are on the daemon's own log lines.
# usage (in the guest): tests/vm/planes-guest.sh BINARY OUT
set -u
bin=$1 base=$2 out=$2/planes
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"
mkdir -p "$out"; rm -rf "${out:?}"/*
. "$repo/tests/vm/cpu-runs.sh"

# state: the kernel's atomic state (bounded: it waits for the modeset locks a stuck commit holds)
state() { timeout 10 cat "$card/state" || echo "  (the atomic state could not be read in 10 s)" >&2; }
# section NAME: says when a section starts (seconds into this script), for the boot's time budget
section() { echo "  planes guest: $1 at $SECONDS s"; }
# lit_overlays: planes the kernel's atomic state shows on a CRTC, less the primary (vkms makes
# it first, plane-0; the dump does not print plane types)
lit_overlays() { state | awk '/^plane\[/ { p++; in_plane = 1; next } /^[a-z]+\[/ { in_plane = 0 }
                                in_plane && p > 1 && /crtc=crtc/ { n++ } END { print n + 0 }'; }
# capture NAME N: arms `ctl writeback` for N frames into OUT/planes/wb-NAME/ at rest, pages once
# with `ctl next`, waits for the capture to end (N frames, or fewer once the strip rests: one
# frame in two or three is read back) and the strip to rest. vkms under TCG lost the first job
# of a capture under stress-ng once in four runs (Linux 6.1 keeps one job per CRTC), and the
# retry's too in one CI-like run; the daemon then ends the capture with no frame ("did not write
# frame 1 back"). The strip then goes back to the page it started from and the same page change
# is read back again, up to twice, said here.
capture() {
  local finished lost attempt
  finished=$(grep -c "writeback finished" "$log"); lost=$(grep -c "did not write frame 1 back" "$log")
  capture_once "$@" $((finished + 1)) || return 1
  for attempt in 2 3; do
    # Each attempt before this one lost its job: one more loss each.
    [ "$(grep -c "did not write frame 1 back" "$log")" -gt $((lost + attempt - 2)) ] || return 0
    echo "  vkms lost the first writeback job of '$1' (the daemon ended the capture with no frame): again, from the same page (attempt $attempt)"
    ctl prev >/dev/null && rests $((rests_seen + 1)) && rm -rf "$out/wb-$1" && capture_once "$@" $((finished + attempt)) || return 1
  done
}
capture_once() {  # capture_once NAME N FINISHED: FINISHED "writeback finished" lines end it
  rests 0 || return 1   # counts the rests so far (a new log: from its start)
  local rested=$((rests_seen + 1))
  mkdir -p "$out/wb-$1"; ctl writeback "$out/wb-$1" "$2" >/dev/null && ctl next >/dev/null \
    && { waitfor_count "writeback finished" "$log" "$3" 90 || { grep -i "writeback\|plane" "$log" | tail -5 | sed 's/^/    /'
                                                             dmesg | tail -5 | sed 's/^/    dmesg: /'; false; }; } && rests $rested
}
# frames_shown: after a CPU run, the daemon's frames with cards on planes and composed since its
# start (the SIGUSR1 stats line): a page change on planes that fell back to composing shows
frames_shown() {
  local before; before=$(grep -c "stats:" "$log")
  kill -USR1 "$pid"; waitfor_count "stats:" "$log" $((before + 1)) 20 >/dev/null
  grep "stats:" "$log" | tail -1 | sed -nE 's/.*frames with cards on planes ([0-9]+), composed frames ([0-9]+).*/\1 \2/p'
}

# 0. bochs, which has no overlay planes (when the boot has bochs: this runs in the bochs-drm
#    boot): the flat look pans (`PanWindow`), the look with emphasis is composed; beside them
#    fbi, all at bochs's own mode, three times each in turn, on one CPU. Then the panned path
#    beside `stress-ng --cpu 2`: the gaps between the flips of a page change, each with the
#    daemon's part (OUT/planes/bochs-stress-gaps.txt).
if [ -d /sys/bus/pci/drivers/bochs-drm ] && ls /sys/bus/pci/drivers/bochs-drm/ | grep -q '^0000:'; then
  section "0. bochs panned, composed and fbi"
  cpus 1
  for round in $(runs_of_each); do
    run bochs-flat conf-cpu-flat -5
    # From the first rest: the window is drawn there, and again at each rest after.
    cpu_figure bochs-flat 1 6
    [ $round != 1 ] || check "bochs, the flat look: the strip pans in the display engine" grep -q "the strip pans in the display engine" "$log"
    finish
    run bochs-emphasis conf-cpu-emphasis -5
    cpu_figure bochs-emphasis 1 6
    [ $round != 1 ] || check "bochs, the look with emphasis: composed (no planes, no panning)" \
      sh -c "! grep -q 'cards on overlay planes\|the strip pans' $log"
    finish
    [ "$rounds" = 0 ] || fbi_cpu bochs-fbi /dev/fb0
  done
  cpus 2
  stress-ng --cpu 2 --timeout 300 >/dev/null 2>&1 &
  stress=$!
  run bochs-stress conf-bochs-pan-still -5 debug   # as the unit runs it (Nice=-5)
  # The window is drawn at the rest after the start (or, if its cards were still decoding, after
  # the first page change); the second page change pans.
  ctl next >/dev/null; rests 1
  check "bochs under stress: the strip pans after the first page change" grep -q "the strip pans in the display engine" "$log"
  # The frames of CPU_ROUNDS page changes, one after another (scripts/bench counts the late ones
  # of each; CI, that they were shown): from the command to the flip of the frame that came to
  # rest (the first after the log's word that the strip rests). Per flip: the gap, when the
  # daemon committed (from the flip before), and for a frame held to the refresh how late the
  # kernel woke the daemon after the hold ended (0 for a frame drawn at the flip itself). A line
  # "round N" before each page change's.
  for round in $(runs_of_each); do
    from=$(wc -l < "$log")
    ctl next >/dev/null; rests $((round + 1)) || { echo "round $round timeout"; continue; }
    echo "round $round"
    tail -n +"$from" "$log" | awk '/control: next/ { on = 1; p = 0; next } !on { next } /showing [0-9]/ { resting = 1 }
      /hold until .* woke at/ { h = $3; w = $NF } /committed at/ { c = $NF }
      /visible at/ { t = $NF; if (p && c) print t - p, c - p, (h ? w - h : 0); p = t; c = 0; h = 0; if (resting) exit }'
  done > "$out/bochs-stress-gaps.txt"
  finish
  kill $stress 2>/dev/null; wait $stress 2>/dev/null
fi

# vkms with planes, the only card: bochs (if loaded) is unbound first, so vkms takes card0 and
# fb0 as on a box with one display engine (loaded beside bochs, its fbdev was fb1, and fbi
# exited at once there).
for dev in /sys/bus/pci/drivers/bochs-drm/0000:*; do [ -e "$dev" ] && echo "${dev##*/}" > /sys/bus/pci/drivers/bochs-drm/unbind; done
if [ ! -d /sys/module/vkms ]; then
  modprobe -q drm_kms_helper; modprobe -q drm_shmem_helper
  insmod "$VM_VKMS_KO" enable_overlay=1 enable_writeback=1 || echo "FAIL planes: insmod vkms"
fi
udevadm settle -t 30
card=; for c in /sys/kernel/debug/dri/*/name; do grep -q vkms "$c" && card=$(dirname "$c"); done
check "vkms is loaded with overlay planes (its debugfs: ${card:-none})" test -n "$card" -a "$(cat /sys/module/vkms/parameters/enable_overlay 2>/dev/null)" = Y

# 1. planes, read back
section "1. planes read back"
run planes conf-planes-still 0 debug
capture planes 16
check "the log says the cards are on overlay planes" grep -q "cards on overlay planes" "$log"
n=$(lit_overlays)
check "at rest, the kernel's atomic state has $n overlay planes lit with cards" test "$n" -ge 1
finish
state > "$out/state-after-exit.txt"
n=$(lit_overlays)
check "no overlay plane is left over the console after exit ($n lit)" test "$n" -eq 0

# 2. CPU per page change, planes and composed, five times each, in turn, on one CPU and at the
#    unit's Nice=-5: runs of one binary still differ by up to a third (the emulated CPU loses
#    time to whatever else the host runs), so the host compares each path's lowest figure; with
#    five runs a path, one run in three slow leaves the lowest slow less than once in 200 boots.
section "2. CPU, planes and composed"
cpus 1
for round in $(runs_of_each); do
  run cpu-planes conf-cpu-planes -5
  [ $round != 1 ] || check "the plane path is in use while paging by itself" waitfor "cards on overlay planes" "$log" 30
  if [ "$rounds" -gt 0 ]; then cpu_figure planes 5 10 frames_shown
  else
    # Paging by itself after the first page change, every frame has its cards on planes: none
    # falls back to composing (the frames before, lighting the screen while cards decode, may).
    rests 1; read -r planes0 composed0 <<< "$(frames_shown)"
    rests 3; read -r planes1 composed1 <<< "$(frames_shown)"
    check "planes: the frames of two page changes all had their cards on planes ($((${planes1:-0} - ${planes0:-0})) on planes, $((${composed1:-0} - ${composed0:-0})) composed)" \
      test "${planes1:-0}" -gt "${planes0:-0}" -a "${composed1:-x}" = "${composed0:-y}"
  fi
  finish
  run cpu-composed conf-cpu-composed -5
  cpu_figure composed 5 10 frames_shown
  [ $round != 1 ] || check "planes = \"off\" never uses the plane path" sh -c "! grep -q 'cards on overlay planes' $log"
  finish
done
cpus 2

# 3. scaled side cards
section "3. side_scale 0.8"
run scaled conf-planes-scaled-still
check "side_scale 0.8: composed frames of a page change read back" capture scaled 16
checked "side_scale 0.8: one log line says why frames are composed" \
  sh -c "grep -c 'composing frames on the CPU' $log | grep -qx 1 && grep -o 'composing frames on the CPU: [^(]*' $log"
finish

# 4. under stress
section "4. under stress-ng"
stress-ng --cpu 2 --timeout 600 >/dev/null 2>&1 &
stress=$!
run stress conf-planes-still -5 debug   # as the unit runs it (Nice=-5)
# First a page change read back (the first, as render's references): no blank or torn frame.
# Then one alone: its flip times (debug "frame N visible at T"), as gaps between one frame and
# the next. (Read back, vkms would compose every frame on the CPU as well, which a display
# engine does not.)
readied=$(grep -c "copied in ahead" "$log")
check "under stress: frames of a page change read back" capture stress 16
# At rest after it, the next page change's new picture (the first round) is copied into a plane
# buffer before that page change, not in its frames (a whole card's copy took 28 ms here).
check "under stress: the next page change's new card readied at rest" \
  waitfor_count "copied in ahead, at rest" "$log" $((readied + 1)) 60
first=$(wc -l < "$log")
# Each gap between two flips, and the daemon's part of it: from the first flip to the commit of
# the frame the second shows (debug "frame committed at T"); the rest is the driver's. Only flips
# after the daemon took `ctl next`: a flip at rest (a redraw when a card came) logged after
# `from` would otherwise count the rest until the command as a gap (1.2 s in one run).
# CPU_ROUNDS page changes, each after "round N" (as on bochs above).
for round in $(runs_of_each); do
  from=$(wc -l < "$log")
  rests 0; want=$((rests_seen + 1)); ctl next >/dev/null; rests $want || { echo "round $round timeout"; continue; }
  echo "round $round"
  tail -n +"$from" "$log" | awk '/control: next/ { on = 1; p = 0; next } !on { next }
    /committed at/ { c = $NF } /visible at/ { t = $NF; if (p && c) print t - p, c - p; p = t; c = 0 }'
done > "$out/stress-gaps.txt"
check "under stress: no card copied in the frames of the page changes" sh -c "! tail -n +$first $log | grep 'copied in for a frame'"
finish
kill $stress 2>/dev/null; wait $stress 2>/dev/null

# 5. fbi, cutting through the same pictures on vkms's fbdev, found by its name
section "5. fbi on vkms"
cpus 1
# CPU_ROUNDS runs, as many as the daemon's above (scripts/bench compares the medians)
vkms_fb=$(for f in /sys/class/graphics/fb*; do grep -qi vkms "$f/name" 2>/dev/null && echo "/dev/${f##*/}"; done)
for round in $(seq "$rounds"); do fbi_cpu fbi "$vkms_fb"; done
[ "$rounds" = 0 ] || cat "$out/cpu.txt"
cpus 2
section "end"
