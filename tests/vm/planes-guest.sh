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
hz=$(getconf CLK_TCK)

# state: the kernel's atomic state (bounded: it waits for the modeset locks a stuck commit holds)
state() { timeout 10 cat "$card/state" || echo "  (the atomic state could not be read in 10 s)" >&2; }
# section NAME: says when a section starts (seconds into this script), for the boot's time budget
section() { echo "  planes guest: $1 at $SECONDS s"; }
# lit_overlays: planes the kernel's atomic state shows on a CRTC, less the primary (vkms makes
# it first, plane-0; the dump does not print plane types)
lit_overlays() { state | awk '/^plane\[/ { p++; in_plane = 1; next } /^[a-z]+\[/ { in_plane = 0 }
                                in_plane && p > 1 && /crtc=crtc/ { n++ } END { print n + 0 }'; }
# cpu_ticks: a process's utime and stime, and the nanoseconds its threads ran (schedstat)
cpu_ticks() { echo "$(awk '{ print $14, $15 }' "/proc/$1/stat") $(cat /proc/$1/task/*/schedstat | awk '{ s += $1 } END { printf "%.0f", s }')"; }
# cpu_between "U0 S0 N0" "U1 S1 N1": seconds of CPU in all, in user space and in the kernel (the
# kernel's tick accounting: the task running at each tick is charged the tick), then the
# seconds the scheduler ran the threads (measured at each switch). Ticks sample: a path that
# runs a couple of ms a frame is charged about 90 ticks of 4 ms over a loop, give or take ten;
# fbi's time is ticks too, so the two are compared in ticks.
cpu_between() { echo "$1 $2" | awk -v hz="$hz" '{ printf "%.3f %.3f %.3f %.3f", ($4 + $5 - $1 - $2) / hz, ($4 - $1) / hz, ($5 - $2) / hz, ($6 - $3) / 1e9 }'; }

control=/run/carouseld-planes.sock
# Logs and the card cache on tmpfs, copied to OUT/planes/ after each run: writing the log or
# reading cards over the 9p share costs the daemon CPU a box's disk would not.
logs=/run/carouseld-planes; mkdir -p "$logs"
# The pictures too (for the daemon and fbi alike): a stat or read over 9p is dear under TCG.
media=$logs/media; rm -rf "$media"; cp -r "$repo/config/example/images" "$media"
# nap: a tenth of a second without starting a process (a read that times out on a FIFO no one
# writes to)
mkfifo "$logs/nap" 2>/dev/null; exec {nap_fd}<>"$logs/nap"
nap() { read -r -t 0.1 -u "$nap_fd" _ || true; }
# rests N: waits until the log has said "showing" N times (the strip came to rest after N page
# changes; the first picture is not said). Bash reads on from where it stopped and counts,
# starting no process: a wait beside a CPU measurement would take the host's cores from the
# daemon's emulated CPU (a grep and a sleep ten times a second did).
rests() {
  if [ "${rests_log:-}" != "$log" ]; then
    [ -z "${rests_fd:-}" ] || exec {rests_fd}<&-
    exec {rests_fd}<"$log" || return 1
    rests_log=$log; rests_seen=0; rests_part=
  fi
  local end=$((SECONDS + 90)) line
  while :; do
    # A line the daemon is still writing is kept and finished by the next look.
    while IFS= read -r -u "$rests_fd" line; do
      line=$rests_part$line; rests_part=
      [[ $line != *"showing "[0-9]* ]] || rests_seen=$((rests_seen + 1))
    done
    rests_part+=$line
    [ "$rests_seen" -lt "$1" ] || return 0
    # To stderr: a caller's $(...) takes stdout as a figure.
    [ $SECONDS -lt $end ] || { echo "  (timed out waiting for rest $1 in $log)" >&2; return 1; }
    nap
  done
}
# run NAME CONF [NICE] [debug]: starts the daemon on OUT/CONF, logging to NAME.log (debug lines
# only when asked: one per frame), with a card cache directory as the unit gives it
# (CacheDirectory=): cards read back, not decoded again; OUT/CONF's media is the tmpfs copy
run() {
  log=$logs/$1.log
  local conf=$logs/conf-$1
  rm -rf "$conf"; cp -r "$base/$2" "$conf"; sed -i "s|^media = .*|media = \"$media\"|" "$conf/carouseld.conf"
  if [ "${4:-}" = debug ]; then export CAROUSELD_DEBUG=1; else unset CAROUSELD_DEBUG; fi
  nice -n "${3:-0}" "$bin" run --config "$conf" --cache-dir "$logs/cache" --control $control > "$log" 2>&1 &
  pid=$!
  rests_log=  # a new log: rests reads it from its start
  waitfor "first frame on screen" "$log" 60
}
# finish: stops the daemon (killed, and said, if it does not exit within 20 s) and keeps its log
# exits_within SECONDS: true once the daemon has exited, false if it is still there after SECONDS
exits_within() { local end=$((SECONDS + $1)); while kill -0 "$pid" 2>/dev/null; do [ $SECONDS -lt $end ] || return 1; sleep 0.1; done; }
finish() {
  kill -TERM "$pid" 2>/dev/null
  if ! exits_within 20; then
    echo "FAIL the daemon exits on SIGTERM (${log##*/}: killed after 20 s; in the kernel at $(cat /proc/$pid/wchan))"
    sed 's/^/    /' /proc/$pid/stack; tail -5 "$log" | sed 's/^/    log: /'; kill -KILL "$pid"
    exits_within 10 || { echo "FAIL the daemon is stuck in the kernel"; dmesg | tail -20 | sed 's/^/    dmesg: /'; }
  fi
  kill -0 "$pid" 2>/dev/null || wait "$pid" 2>/dev/null
  cp "$log" "$out/"
}
# ctl with a bound: a daemon that stops answering fails the check instead of the boot
ctl() { timeout 30 "$bin" ctl --socket $control "$@"; }
# capture NAME N: arms `ctl writeback` for N frames into OUT/planes/wb-NAME/ at rest, pages once
# with `ctl next`, waits for the capture to end (N frames, or fewer once the strip rests: one
# frame in two or three is read back) and the strip to rest
capture() { mkdir -p "$out/wb-$1"; ctl writeback "$out/wb-$1" "$2" >/dev/null && ctl next >/dev/null \
  && { waitfor "writeback finished" "$log" 90 || { grep -i "writeback\|plane" "$log" | tail -5 | sed 's/^/    /'
                                                   dmesg | tail -5 | sed 's/^/    dmesg: /'; false; }; } && rests 1; }
# frames_shown: after a CPU run, the daemon's frames with cards on planes and composed since its
# start (the SIGUSR1 stats line): a page change on planes that fell back to composing shows
frames_shown() {
  local before; before=$(grep -c "stats:" "$log")
  kill -USR1 "$pid"; waitfor_count "stats:" "$log" $((before + 1)) 20 >/dev/null
  grep "stats:" "$log" | tail -1 | sed -nE 's/.*frames with cards on planes ([0-9]+), composed frames ([0-9]+).*/\1 \2/p'
}
# cpus 1|2: takes the second emulated CPU offline for the CPU figures, and back. With two,
# runs of one binary in one boot differed by half: the host runs both emulated CPUs on its two
# cores beside QEMU's own thread, so a run's time depends on what the other CPU does (the
# harness's waits, vkms's commit worker), and each wake-up across CPUs is an emulated
# interrupt. On one, alone, runs of one binary agreed within a tenth.
cpus() { [ -w /sys/devices/system/cpu/cpu1/online ] && echo $(($1 - 1)) > /sys/devices/system/cpu/cpu1/online; true; }
# loop_cpu [FROM TO]: CPU seconds over 5 page changes, by default the second loop (from the
# 5th rest after the first picture to the 10th); the word "timeout" when the daemon did not come
# to those rests in time, which the host and scripts/bench count as a failed run, never as 0 s
loop_cpu() {
  local a
  if rests "${1:-5}" && a=$(cpu_ticks $pid) && rests "${2:-10}"; then cpu_between "$a" "$(cpu_ticks $pid)"; else echo timeout; fi
}
# CPU_ROUNDS: how many runs of each path, in turn, for the CPU figures (scripts/bench: 5 or
# more, to judge them). 0 (scripts/test): each path runs once for its behaviour only, through two
# page changes, with no figure and no fbi (CI judges behaviour; the figures took 110 s of it).
rounds=${CPU_ROUNDS:-0}
# runs_of_each: the runs of each path: CPU_ROUNDS, or the one behaviour run
runs_of_each() { seq "$((rounds > 0 ? rounds : 1))"; }
# cpu_figure NAME [FROM TO]: with CPU_ROUNDS, the run's CPU over its loop (loop_cpu) into
# cpu.txt as NAME, then the output of a 4th argument (a function) on that line; without, waits
# for the strip to rest after its first two page changes
cpu_figure() {
  if [ "$rounds" -gt 0 ]; then echo "$1 $(loop_cpu "${2:-5}" "${3:-10}")${4:+ $($4)}" >> "$out/cpu.txt"
  else rests 2 || echo "  ($1: the strip did not come to rest after two page changes)"; fi
}

# fbi_cpu NAME FB: fbi showing the example's 5 pictures once on FB, one each 2 s (-t 2 like
# interval 2; each its own decode): its CPU seconds from start to the last picture, into
# cpu.txt as NAME (5 pages; fbi says nothing per page). fbi leaves a child process holding the
# framebuffer after its list: that is stopped.
fbi_cpu() {
  if [ -z "$2" ] || ! command -v fbi >/dev/null; then
    echo "FAIL fbi on $1's fbdev (${2:-no fbdev}, fbi $(command -v fbi || echo missing))"; return
  fi
  local TIMEFORMAT='%U %S' u s
  local rc
  { time timeout 60 fbi -d "$2" -T 1 --noverbose -a -t 2 "$media"/* > "$out/fbi-$1.log" 2>&1 </dev/null; } \
    2> "$out/fbi-$1.time"
  rc=$?
  pkill -x fbi; while pgrep -x fbi >/dev/null; do sleep 0.1; done
  read -r u s < "$out/fbi-$1.time"
  # fbi exits by itself after its list (status 0); 124 is timeout's: it did not get through the
  # list in 60 s, and its time is no figure. No time read is no figure either.
  if [ "$rc" = 124 ] || [ -z "${s:-}" ]; then echo "  fbi on $2 ($1): exit status $rc, no figure"; echo "$1 timeout" >> "$out/cpu.txt"; return; fi
  echo "$1 $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f %.3f %.3f", u + s, u, s }')" >> "$out/cpu.txt"
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
    run bochs-flat conf-cpu-bochs-flat -5
    # From the first rest: the window is drawn there, and again at each rest after.
    cpu_figure bochs-flat 1 6
    [ $round != 1 ] || check "bochs, the flat look: the strip pans in the display engine" grep -q "the strip pans in the display engine" "$log"
    finish
    run bochs-emphasis conf-cpu-bochs-emphasis -5
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
  # daemon committed (from the flip before), for a frame held to the refresh how late the kernel
  # woke the daemon after the hold ended (0 for a frame drawn at the flip itself), and how long
  # the kernel took over the commit. A line "round N" before each page change's.
  for round in $(runs_of_each); do
    from=$(wc -l < "$log")
    ctl next >/dev/null; rests $((round + 1)) || { echo "round $round timeout"; continue; }
    echo "round $round"
    tail -n +"$from" "$log" | awk '/control: next/ { on = 1; p = 0; next } !on { next } /showing [0-9]/ { resting = 1 }
      /hold until .* woke at/ { h = $3; w = $NF } /atomic commit:/ { k = $3 } /committed at/ { c = $NF }
      /visible at/ { t = $NF; if (p && c) print t - p, c - p, (h ? w - h : 0), k + 0; p = t; c = 0; h = 0; k = 0; if (resting) exit }'
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
  ctl next >/dev/null; rests $((round + 1)) || { echo "round $round timeout"; continue; }
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
