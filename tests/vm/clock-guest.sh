#!/usr/bin/env bash
# Guest side of the clock checks (issue 23), in the bochs-drm boot of scripts/vm-tests:
#  - a clock not yet synchronised (a box without an RTC before NTP): a [[screen]] schedule that
#    says "off" leaves the screen on, and `ctl status` says why; the moment the clock is marked
#    synchronised (adjtimex, as timesyncd does: tests/vm/clock_mark.py) the screen goes off;
#  - dayparting: `date -s` across a [[playlist]] boundary pages to the new playlist with an
#    animation; screendumps every 0.1 s (taken by the host) through the switch show no blank or
#    background-only frame (tests/vm/switch_frames.py).
# Prints one PASS/FAIL line per check.
# usage (in the guest): tests/vm/clock-guest.sh BINARY OUT
set -u
bin=$1 out=$2/clock
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"
mkdir -p "$out"; rm -f "$out"/*
conf=/tmp/clock-conf; mkdir -p $conf
control=/tmp/clock/control; mkdir -p /tmp/clock
images=$repo/config/example/images
mount -t debugfs none /sys/kernel/debug 2>/dev/null
mark() { /usr/bin/python3 "$repo/tests/vm/clock_mark.py" "$1"; }
start() {  # start NAME: the daemon on $conf with the control socket, until its first frame
  rm -f $control
  CAROUSELD_DEBUG=1 "$bin" run --config $conf --control $control > "$out/$1.log" 2>&1 &
  pid=$!
  waitfor "first frame on screen" "$out/$1.log" 60
}
crtc_is() { [ "$(crtc_active)" = "$1" ]; }
until_crtc() {  # until_crtc 0|1 SECONDS: waits for the CRTC's state; prints how long it took
  local t0 end=$((SECONDS + $2)); t0=$(uptime_now)
  until crtc_is "$1"; do [ $SECONDS -lt $end ] || return 1; sleep 0.05; done
  awk -v a="$t0" -v b="$(uptime_now)" 'BEGIN { printf "%.2f s", b - a }'
}

echo "## a clock not yet synchronised keeps a scheduled-off screen on"
mark unsynchronised > /dev/null
from=$(date -d '+1 hour' +%H:%M) to=$(date -d '+2 hours' +%H:%M)
printf 'interval = 3600\nmedia = "%s"\n[[screen]]\non = "%s"\noff = "%s"\n' "$images" "$from" "$to" > $conf/carouseld.conf
start unsynced   # its screen power is settled before the first frame (a scheduled off shows none)
check "clock unsynchronised ($(mark show)): the schedule's off leaves the CRTC active" crtc_is 1
ctl status > "$out/status-unsynced.txt"
check "ctl status says why: screen: on (clock not synchronised)" grep -qx 'screen: on (clock not synchronised)' "$out/status-unsynced.txt"
check "ctl status: clock: not synchronised" grep -q '^clock: not synchronised' "$out/status-unsynced.txt"
mark synchronised > /dev/null
checked "marked synchronised: the schedule turns the CRTC off" until_crtc 0 10
ctl status > "$out/status-synced.txt"
check "ctl status: screen: off (scheduled), no clock line" \
  sh -c "grep -qx 'screen: off (scheduled)' '$out/status-synced.txt' && ! grep -q '^clock:' '$out/status-synced.txt'"
stop

echo "## date -s across a [[playlist]] boundary"
now=$(date +%s)
boundary=$(( (now + 600) / 60 * 60 + 60 ))   # a whole minute about ten minutes on
# spring_response = 1.5 (3x the default): the page change lasts long enough that several of
# the screendumps 0.1 s apart fall inside it. At the default 0.5 s the two sample points
# differ for only ~0.1 s, so a run could sample no moving frame by chance (CI of 8340a35).
printf 'interval = 3600\nspring_response = 1.5\nmedia = "%s"\n[[playlist]]\nfile = "day.m3u"\nfrom = "%s"\nto = "%s"\n' \
  "$images" "$(date -d "@$boundary" +%H:%M)" "$(date -d "@$((boundary + 3600))" +%H:%M)" > $conf/carouseld.conf
printf 'slide4.png\nslide5.png\n' > $conf/day.m3u
start daypart
check "before the boundary: the main playlist (slide1)" [ "$(slide)" = slide1 ]
# Screendumps every 0.1 s, taken by the host, from just before the step to well after it.
vm-screendumps "$out/switch" 40 0.1 > "$out/switch-times.json" &
shots=$!
until [ -e "$out/switch-001.ppm" ]; do sleep 0.02; done
date -s "@$((boundary + 2))" > /dev/null
mark synchronised > /dev/null   # as NTP would again; the daemon believed the clock already
wait $shots
waitfor "daypart: day.m3u from now" "$out/daypart.log" 10
check "the daemon switched to day.m3u at the step" grep -q "daypart: day.m3u from now" "$out/daypart.log"
checked "the switch, screendump by screendump: no blank frame, animated from slide1 to slide4" \
  /usr/bin/python3 "$repo/tests/vm/switch_frames.py" slide1 slide4 "$out"/switch-*.ppm
echo "  screendump times (s): $(cat "$out/switch-times.json")"
ctl status > "$out/status-daypart.txt"
check "ctl status: the playlist is day.m3u" grep -qx "playlist: $conf/day.m3u" "$out/status-daypart.txt"
stop
mark synchronised > /dev/null
