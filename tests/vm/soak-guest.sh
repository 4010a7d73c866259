#!/usr/bin/env bash
# Guest side of the soak test (scripts/vm-tests --soak, or SOAK_SECONDS): the daemon runs for
# SECONDS (default 600) at interval 0.2 while
#   - every 2 s the config changes: valid (by rename), invalid (written in place), half-written
#     then completed (in place), the playlist reordered (by rename), or a SIGHUP;
#   - a uinput touchscreen plays a seeded random stream of flings, drags, taps and holds;
#   - WATCHDOG_USEC makes it ping its watchdog every second (no systemd here: the pings are
#     counted by the daemon itself).
# RSS (its floor over 5 s) and open descriptors are read from /proc at start (after 20 s) and at the end; SIGUSR1
# makes the daemon log its longest loop gap while animating and its longest watchdog gap since
# the previous SIGUSR1 (so the end figures cover the soak itself, not the start-up).
# Flat means: RSS within 4 MB, descriptors equal, longest gap <= 300 ms (TCG; see the check),
# no late watchdog ping.
#
# usage (in the guest): tests/vm/soak-guest.sh BINARY OUT [SECONDS]
set -u
bin=$1 out=$2 seconds=${3:-600}
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"   # check, checked, waitfor, crtc_active
bin_on_tmpfs
waitfor() {
  local end=$((SECONDS + $3))
  until grep -q "$1" "$2" 2>/dev/null; do [ $SECONDS -lt $end ] || return 1; sleep 0.1; done
}
# The config directory lives on the guest's own /tmp: inotify sees no changes on a 9p share.
conf=/tmp/soak-conf media=$out/soak-media
rm -rf "$conf" "$media"; mkdir -p "$conf" "$media"
cp "$repo"/config/example/images/* "$media/"
pictures=$(cd "$media" && ls)
# Cards of 40 % of the screen: composing a frame under TCG (no host SIMD) takes 30-50 ms at full
# size, which would measure the emulator, not the loop; the soak is about the shell.
write_conf() {  # write_conf FILE SPACING
  printf 'interval = 0.2\ncard_width = "40%%"\ncard_height = "40%%"\nspacing = %s\nmedia = "%s"\n' "$2" "$media" > "$1"
}
write_conf "$conf/carouseld.conf" 40
printf '%s\n' $pictures > "$conf/playlist.m3u"

python3 "$repo/tests/vm/soak_touches.py" "$out" "$seconds" 7
WATCHDOG_USEC=2000000 "$bin" --config "$conf" > "$out/soak.log" 2>&1 &
pid=$!
waitfor "first frame on screen" "$out/soak.log" 60 || { echo "FAIL soak: no first frame"; kill "$pid"; exit 0; }
evemu-device "$out/touchscreen.evemu" > "$out/soak-evemu.txt" 2>&1 & evemu=$!
waitfor '/dev/input/event' "$out/soak-evemu.txt" 20
node=$(grep -oE '/dev/input/event[0-9]+' "$out/soak-evemu.txt" | head -1)

rss() { awk '/^VmRSS:/ { print $2 }' /proc/"$pid"/status; }
# fewest N PAUSE COMMAND...: the lowest of N readings of COMMAND, PAUSE seconds apart: what a
# decode or a config load in flight holds for a moment does not count, a leak raises it.
fewest() {
  local n=$1 pause=$2 low r; shift 2
  for _ in $(seq "$n"); do r=$("$@"); [ -n "${low:-}" ] && [ "$r" -ge "$low" ] || low=$r; sleep "$pause"; done
  echo "$low"
}
# rss_floor: RSS's floor over 5 s. At interval 0.2 the pictures of the next pages are decoded all
# the time and their buffers come and go (one soak's readings: 42.7, 43.7, 41.7, 50.9, 41.8, then
# 56.1 MB mid-decode at the end).
rss_floor() { fewest 10 0.5 rss; }
# The fewest open descriptors over 2 s.
fd_count() { ls /proc/"$pid"/fd | wc -l; }
fds() { fewest 10 0.2 fd_count; }
stats() {  # the daemon's own figures, logged on SIGUSR1
  local before; before=$(grep -c "stats:" "$out/soak.log")
  kill -USR1 "$pid"
  waitfor_count "stats:" "$out/soak.log" $((before + 1)) 5 > /dev/null
  grep "stats:" "$out/soak.log" | tail -1 | sed 's/^<.>//'
}

# The config churn, one change every 2 s, in the background.
churn() {
  local i=0
  while :; do
    case $((i % 5)) in
      0) write_conf "$conf/.carouseld.conf.tmp" $((20 + i % 40)); mv "$conf/.carouseld.conf.tmp" "$conf/carouseld.conf" ;;
      1) printf 'interval = 0.2\ncard_width = "40%%"\nfit = "fill"\nmedia = "%s"\n' "$media" > "$conf/carouseld.conf" ;;
      2) printf 'interval = 0.2\nspac' > "$conf/carouseld.conf"; sleep 0.3; write_conf "$conf/carouseld.conf" 30 ;;
      3) printf '%s\n' $pictures | shuf > "$conf/.playlist.tmp"; mv "$conf/.playlist.tmp" "$conf/playlist.m3u" ;;
      4) kill -HUP "$pid" ;;
    esac
    i=$((i + 1))
    sleep 2
  done
}

sleep 20   # warm-up: every picture decoded once, the caches at their size
rss0=$(rss_floor) fds0=$(fds)
stats0=$(stats)
echo "  start: RSS $rss0 kB, $fds0 fds; $stats0"
churn & churner=$!
evemu-play "$node" < "$out/soak.events" > /dev/null 2>&1 & player=$!
t0=$SECONDS
while [ $((SECONDS - t0)) -lt "$seconds" ] && kill -0 "$pid" 2>/dev/null; do
  sleep 30
  echo "  $((SECONDS - t0)) s: RSS $(rss) kB, $(fds) fds, $(grep -c 'release velocity' "$out/soak.log") releases, $(grep -c 'config reloaded' "$out/soak.log") reloads"
done
kill "$churner" "$player" 2>/dev/null; wait "$churner" "$player" 2>/dev/null
# End on a valid config, and wait for its reload (the caches settle after it).
reloads=$(grep -c 'config reloaded' "$out/soak.log")
write_conf "$conf/carouseld.conf" 40
waitfor_count 'config reloaded' "$out/soak.log" $((reloads + 1)) 30
alive=0; kill -0 "$pid" 2>/dev/null || alive=1
rss1=$(rss_floor) fds1=$(fds)
stats1=$(stats)
echo "  end:   RSS $rss1 kB, $fds1 fds; $stats1"
gap=$(sed -nE 's/.*longest loop gap while animating ([0-9.]+) ms.*/\1/p' <<<"$stats1")
every=$(sed -nE 's/.*every ([0-9.]+) s.*/\1/p' <<<"$stats1")
wgap=$(sed -nE 's/.*longest gap ([0-9.]+) s.*/\1/p' <<<"$stats1")
echo "  soak figures: RSS $rss0 -> $rss1 kB ($(( (rss1 - rss0) ))), fds $fds0 -> $fds1, longest loop gap while animating ${gap:-?} ms, watchdog every ${every:-?} s with longest gap ${wgap:-?} s; $(grep -c 'config reloaded' "$out/soak.log") reloads, $(grep -c 'config invalid' "$out/soak.log") invalid, $(grep -c 'release velocity' "$out/soak.log") releases, $(grep -c 'SIGHUP' "$out/soak.log") SIGHUPs"
kill -TERM "$pid"; wait "$pid"; rc=$?
kill "$evemu" 2>/dev/null
check "soak: the daemon ran all $seconds s" [ "$alive" = 0 ]
check "soak: RSS within 4 MB (its floor over 5 s: start $rss0 kB, end $rss1 kB)" [ $((rss1 - rss0)) -le 4096 ]
check "soak: open descriptors unchanged ($fds0 -> $fds1)" [ "$fds0" = "$fds1" ]
# A hang detector, 3x over the worst gap seen under TCG: 904 ms in a 120 s soak of 2026-11-29
# (two composed screens; 300 ms the day before, 182 ms after a reload on an idle host). What
# blocks the loop for less (the decode wait at a reload once took 1134 ms here) is caught on the
# host, natively: the wayland stage's `carouseld bench --loop-gap` (config churn and flings,
# 250 ms bound) and scripts/bench (the issue's 50 ms, and its 600 s soak).
check "soak: longest loop gap while animating <= 3000 ms under TCG (${gap:-?} ms; 50 ms judged by scripts/bench)" \
  awk -v g="${gap:-9999}" 'BEGIN { exit !(g <= 3000) }'
# The pings came, and the loop never stopped long enough to miss a unit's watchdog (the unit's
# WatchdogSec; pings here every ${every} s). Measured: 1.34-1.49 s gaps for 1.00 s pings, so
# 5 s is a hang detector with 3x room, not a timing figure.
check "soak: the watchdog was pinged throughout (longest gap ${wgap:-?} s, pings every ${every:-?} s, at most 5 s)" \
  awk -v g="${wgap:-999}" -v e="${every:-0}" 'BEGIN { exit !(e > 0 && g < 5) }'
check "soak: reloads and touches really happened" \
  sh -c "[ $(grep -c 'config reloaded' "$out/soak.log") -gt 10 ] && [ $(grep -c 'release velocity\|tap' "$out/soak.log") -gt 10 ]"
check "soak: SIGTERM exits 0" [ "$rc" = 0 ]
exit 0
