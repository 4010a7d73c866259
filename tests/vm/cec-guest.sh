#!/usr/bin/env bash
# Guest side of the HDMI-CEC checks (issue 23), in the bochs-drm boot of scripts/vm-tests. vivid
# with one HDMI input and one HDMI output gives two CEC adapters on one emulated bus: the
# input's (vid-cap) plays the TV with cec-follower, carouseld uses the output's (cec =
# "/dev/cecN": vivid names no DRM connector). What the TV received is read with
# `cec-ctl --monitor` on its adapter; the CRTC's state from the kernel's atomic state in debugfs.
# Prints one PASS/FAIL line per check.
# usage (in the guest): tests/vm/cec-guest.sh BINARY OUT
set -u
bin=$1 out=$2/cec
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"; rm -f "$out"/*
conf=/tmp/cec-conf; mkdir -p $conf
control=/tmp/cec/control; mkdir -p /tmp/cec

. "$repo/tests/vm/guest-lib.sh"   # check, waitfor, crtc_active
says() { ctl status | grep -qx "$1"; }   # says LINE: ctl status has LINE
now() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.1f", e - s }'; }
# tv_becomes STATE SECONDS: ctl status says "tv: STATE" within SECONDS; prints how long it took
tv_becomes() {
  local end=$((SECONDS + $2)) t0; t0=$(now)
  until ctl status | grep -qx "tv: $1"; do
    [ $SECONDS -lt $end ] || { echo "ctl status says '$(ctl status | grep '^tv:')' after $2 s"; return 1; }
    sleep 0.2
  done
  echo "tv: $1 after $(since "$t0") s"
}
# received COUNT PATTERN: the TV's monitor shows PATTERN at least COUNT times (3 s to arrive)
received() {  # received COUNT PATTERN [SECONDS]: the monitor has COUNT such lines (3 s to arrive)
  local end=$((SECONDS + ${3:-3}))
  until [ "$(grep -cE "$2" "$out/monitor.log")" -ge "$1" ]; do [ $SECONDS -lt $end ] || return 1; sleep 0.1; done
}
followed() {  # followed COUNT: the follower's TV has gone to standby COUNT times
  local end=$((SECONDS + 3))
  until [ "$(grep -c 'Changing state to standby' "$out/follower.log")" -ge "$1" ]; do [ $SECONDS -lt $end ] || return 1; sleep 0.1; done
}
active_sources() {  # active_sources COUNT: the monitor shows COUNT <Active Source> 1.0.0.0 (3 s to arrive)
  local end=$((SECONDS + 3))
  until [ "$(grep -A1 ACTIVE_SOURCE "$out/monitor.log" | grep -c 'phys-addr: 1.0.0.0')" -ge "$1" ]; do
    [ $SECONDS -lt $end ] || return 1; sleep 0.1
  done
}
# woken COUNT: the TV has received COUNT <Image View On> and COUNT <Active Source> 1.0.0.0
woken() { received "$1" "to TV \(4 to 0\): IMAGE_VIEW_ON" "${2:-3}" && active_sources "$1"; }

start() {  # start NAME: the daemon on $conf
  rm -f $control
  CAROUSELD_DEBUG=1 "$bin" run --config $conf --control $control > "$out/$1.log" 2>&1 &
  pid=$!
  waitfor "control socket" "$out/$1.log" 60
}
conf() {  # conf OFF_DELAY ON_DELAY [EXTRA]
  printf 'interval = 3600\nmedia = "%s"\ncec = "%s"\ncec_off_delay = %s\ncec_on_delay = %s\n%b' \
    "$repo/config/example/images" "$pb" "$1" "$2" "${3:-}" > $conf/carouseld.conf
}

mount -t debugfs none /sys/kernel/debug 2>/dev/null
modprobe vivid n_devs=1 num_inputs=1 input_types=0x3 num_outputs=1 output_types=0x1 || { echo "FAIL modprobe vivid"; exit 1; }
tv= pb=
for dev in /dev/cec*; do
  case "$(cec-ctl -d "$dev" | awk -F': ' '/Adapter Name/ { print $2 }')" in
    *vid-cap*) tv=$dev ;; *vid-out*) pb=$dev ;;
  esac
done
check "vivid gives a TV-side (vid-cap) and a source-side (vid-out) CEC adapter: TV $tv, carouseld $pb" [ -n "$tv" ] && [ -n "$pb" ]
cec-ctl -d "$tv" --tv > /dev/null
stdbuf -oL cec-follower -v -d "$tv" > "$out/follower.log" 2>&1 & follower=$!
cec-ctl -d "$tv" --monitor > "$out/monitor.log" 2>&1 & monitor=$!
sleep 1

echo "## a TV that answers (cec-follower)"
conf 4 3
start tv
waitfor "CEC: using $pb" "$out/tv.log" 10
grep -m1 "CEC: using" "$out/tv.log" | sed 's/^/  /'
check "at start the TV is woken: <Image View On> and <Active Source> 1.0.0.0" woken 1
result=$(tv_becomes on 20)
check "ctl status reports the TV's power at start ($result)" says "tv: on"
# Times count from ctl's return: the daemon has taken the command by then (ctl waits for its
# answer), while ctl's own start under TCG takes seconds that are not the daemon's.
ctl screen off > /dev/null; t0=$(now)
active=$(crtc_active) answered=$(since "$t0")
check "the CRTC stays active for cec_off_delay (4 s) after <Standby> (active=$active ${answered} s after ctl screen off)" [ "$active" = 1 ]
check "ctl screen off sends <Standby> to the TV" received 1 "to TV \(4 to 0\): STANDBY"
check "the follower's TV goes to standby" followed 1
result=$(tv_becomes standby 20)
check "ctl status reports the TV in standby ($result after ctl screen off)" says "tv: standby"
# Waited for (the delay counts from the command, whatever the polls above took), then timed: the
# CRTC must not go off before cec_off_delay.
crtc_becomes 0 20; off_at=$(since "$t0")
# ctl returns a moment after the daemon took the command: half a second of slack.
check "the CRTC is inactive after the delay (${off_at} s after ctl screen off returned; cec_off_delay 4 s)" \
  awk -v t="$off_at" -v a="$(crtc_active)" 'BEGIN { exit !(a == 0 && t >= 3.5) }'
grep -q '"tv":"standby"' /tmp/cec/state.json && echo "PASS state.json says tv standby" || echo "FAIL state.json says tv standby ($(cat /tmp/cec/state.json))"
ctl screen on > /dev/null; t0=$(now)
check "ctl screen on sends <Image View On> to the TV and <Active Source> 1.0.0.0 to all" woken 2
check "the CRTC is active again" crtc_becomes 1 10
result=$(tv_becomes on 20)
check "ctl status reports the TV on ($result after ctl screen on)" says "tv: on"
woken 3 20; again_at=$(since "$t0")
check "both are repeated once after cec_on_delay (3 s; the third came ${again_at} s after ctl screen on returned)" \
  sh -c "[ \$(grep -cE 'to TV \(4 to 0\): IMAGE_VIEW_ON' '$out/monitor.log') -ge 3 ] && awk -v t=$again_at 'BEGIN { exit !(t >= 2.5) }'"
stop
check "stopping the daemon sends <Standby> to the TV" received 2 "to TV \(4 to 0\): STANDBY"
check "the follower's TV went to standby at ctl screen off and again at stop" followed 2

echo "## a scheduled off"
from=$(date -d '+1 hour' +%H:%M) to=$(date -d '+2 hours' +%H:%M)
conf 0 0 "[[screen]]\non = \"$from\"\noff = \"$to\"\n"
ctl_before=$(grep -cE "to TV \(4 to 0\): STANDBY" "$out/monitor.log")
cec-ctl -d "$pb" --to 0 --image-view-on > /dev/null    # the TV on again before the scheduled off
start scheduled
waitfor "started with the screen off" "$out/scheduled.log" 30
check "a scheduled off (dark at start) sends <Standby>" received $((ctl_before + 1)) "to TV \(4 to 0\): STANDBY"
result=$(tv_becomes standby 20)
check "ctl status reports the TV in standby after the scheduled off ($result)" says "tv: standby"
check "the CRTC is inactive" [ "$(crtc_active)" = 0 ]
stop

echo "## a TV that does not answer"
kill $follower 2>/dev/null; wait $follower 2>/dev/null
cec-ctl -d "$tv" --clear > /dev/null    # nobody at logical address 0: every message to the TV is NACKed
conf 5 3
start notv
waitfor "does not answer" "$out/notv.log" 10    # the wake at start was not acknowledged
ctl screen off > /dev/null; t0=$(now); crtc_becomes 0 10; off_at=$(since "$t0")
check "the CRTC goes off without cec_off_delay (5 s) when the TV did not answer (${off_at} s after ctl returned; at most 3)" \
  awk -v t="$off_at" -v a="$(crtc_active)" 'BEGIN { exit !(a == 0 && t < 3) }'
ctl screen on > /dev/null; crtc_becomes 1 10; ctl screen off > /dev/null
check "the CRTC goes off again" crtc_becomes 0 10
warnings=$(grep -c "does not answer" "$out/notv.log")
grep -m1 "does not answer" "$out/notv.log" | sed 's/^/  /'
check "one warning for a TV that does not answer ($warnings)" [ "$warnings" = 1 ]
check "ctl status reports the TV unknown" says "tv: unknown"
check "carouseld keeps running" kill -0 $pid
ctl screen on > /dev/null
stop
kill $monitor 2>/dev/null; wait $monitor 2>/dev/null
rmmod vivid 2>/dev/null
true
