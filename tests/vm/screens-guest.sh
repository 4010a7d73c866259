#!/usr/bin/env bash
# Guest side of the two-screen boot of scripts/vm-tests (scripts/vm-run --display virtio2:
# virtio-gpu with Virtual-1 and Virtual-2, both run at 1024x768). Prints one PASS/FAIL line per
# check. Each head is read with QMP screendump (device gpu0, head 0 or 1) and compared with
# what the host rendered before the boot (`carouseld render --output NAME`), or classified by
# colour (tests/vm/touch_screen_colour.py: which example slide fills the centre).
#   mirror       both heads show the same picture; a swipe on the touchscreen mapped to
#                Virtual-2 pages both
#   independent  two playlists, one per head; the same swipe pages Virtual-2 only
#   span         one carousel across both heads: each head is its half of the 2048x768 render
#   pan          the panned strip (tests/vm/pan-guest.sh), its windows shown by SRC_X
# usage (in the guest): tests/vm/screens-guest.sh BINARY OUT
#   OUT holds conf-{mirror,independent,span,pan-still} and their references under render/ (see scripts/vm-tests).
set -u
bin=$1 out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
TOUCH="carousel test touchscreen"

. "$repo/tests/vm/guest-lib.sh"   # check, checked, waitfor, crtc_active
bin_on_tmpfs
waitfor() {  # waitfor PATTERN FILE SECONDS
  local end=$((SECONDS + $3))
  until grep -qE "$1" "$2" 2>/dev/null; do
    [ $SECONDS -lt $end ] || { echo "  (timed out waiting for '$1' in $2)"; tail -5 "$2" | sed 's/^/  /'; return 1; }
    sleep 0.1
  done
}
# head_matches NAME HEAD REF SECONDS: screendumps HEAD until it matches REF
head_matches() {
  local name=$1 head=$2 ref=$3 end=$((SECONDS + $4)) shot=$out/$1.ppm detail
  while :; do
    vm-screendump "$shot" "$head"
    if detail=$(/usr/bin/python3 "$repo/tests/vm/imgcmp.py" compare "$shot" "$ref"); then
      echo "PASS $name ($detail)"; return 0
    fi
    [ $SECONDS -lt $end ] || { echo "FAIL $name ($detail)"; return 1; }
    sleep 0.3
  done
}
# slide HEAD: which example slide fills the centre of HEAD
slide() { vm-screendump "$out/slide-$1.ppm" "$1" && /usr/bin/python3 "$repo/tests/vm/touch_screen_colour.py" "$out/slide-$1.ppm"; }
# slides_become NAME EXPECTED0 EXPECTED1 SECONDS: both heads show the expected slides
slides_become() {
  local name=$1 want="$2 $3" end=$((SECONDS + $4)) got
  while :; do
    got="$(slide 0) $(slide 1)"
    [ "$got" = "$want" ] && { echo "PASS $name (heads: $got)"; return 0; }
    [ $SECONDS -lt $end ] || { echo "FAIL $name (heads: $got, expected $want)"; return 1; }
    sleep 0.5
  done
}
start() {  # start NAME CONF: the daemon in the background, waited for its first frame on both heads
  CAROUSELD_DEBUG=1 "$bin" run --config "$2" --control "/tmp/control-$1" > "$out/$1.log" 2>&1 &
  pid=$!
  waitfor "first frame on screen" "$out/$1.log" 90
}
# swipe LOG: a fast left swipe on the test touchscreen (libinput replay of a uinput device)
swipe() {
  local fifo=/tmp/replay-enter
  rm -f $fifo; mkfifo $fifo
  libinput replay "$out/touch/swipe-left.yml" < $fifo > "$out/replay.txt" 2>&1 & local replay=$!
  exec 9> $fifo
  waitfor "\"$TOUCH \(event[0-9]+\)\" added \(touch\)" "$1" 30
  sleep 1
  echo >&9
  waitfor 'release velocity_x=' "$1" 30
  exec 9>&-
  for _ in $(seq 1 50); do kill -0 $replay 2>/dev/null || break; sleep 0.1; done
  kill -9 $replay 2>/dev/null; wait $replay 2>/dev/null
}

mkdir -p "$out/touch"
/usr/bin/python3 "$repo/tests/vm/touch_recordings.py" "$out/touch"

echo "## carouseld outputs --config (span)"
"$bin" outputs --config "$out/conf-span" > "$out/outputs.txt" 2>&1; sed 's/^/  /' "$out/outputs.txt" | grep -v '^    [0-9]'
check "outputs: both connectors, each said to be used in the span" \
  sh -c "grep -q 'Virtual-1: connected; used: span 1 of 2, mode 1024x768' '$out/outputs.txt' &&
         grep -q 'Virtual-2: connected; used: span 2 of 2, mode 1024x768' '$out/outputs.txt'"

echo "## mirror"
start mirror "$out/conf-mirror"
check "mirror: the daemon drives both screens" grep -q "2 screens, layout mirror: Virtual-1 (mirror 1 of 2), Virtual-2 (mirror 2 of 2)" "$out/mirror.log"
head_matches mirror-head0 0 "$out/render/mirror/frame-0001.000.png" 60
head_matches mirror-head1 1 "$out/render/mirror/frame-0001.000.png" 60
swipe "$out/mirror.log"
check "mirror: the touchscreen is mapped to Virtual-2 by its [[output]]" \
  grep -q "input: touch \"$TOUCH\" is on Virtual-2 (touch in its \[\[output\]\])" "$out/mirror.log"
slides_become "mirror: a swipe on Virtual-2's touchscreen pages both screens" slide2 slide2 20
stop

echo "## independent"
start independent "$out/conf-independent"
head_matches independent-head0 0 "$out/render/independent-1/frame-0001.000.png" 60
head_matches independent-head1 1 "$out/render/independent-2/frame-0001.000.png" 60
slides_become "independent: two playlists, one per screen" slide1 slide3 5
# ctl screenshot --output NAME: each head's own last frame equals its screendump (at rest).
for head in 0 1; do
  name=Virtual-$((head + 1))
  "$bin" ctl --socket /tmp/control-independent --output $name screenshot /tmp/shot-$name.png > /dev/null 2>&1
  vm-screendump "$out/dump-$name.ppm" $head
  checked "independent: ctl screenshot --output $name equals head $head's screendump" \
    /usr/bin/python3 "$repo/tests/vm/imgcmp.py" mad --max 2 /tmp/shot-$name.png "$out/dump-$name.ppm"
done
swipe "$out/independent.log"
slides_become "independent: the swipe on Virtual-2's touchscreen pages Virtual-2 only" slide1 slide4 20
check "independent: the status names each screen" grep -q "Virtual-2: showing 2/3" "$out/independent.log"
stop

echo "## span"
start span "$out/conf-span"
check "span: the daemon drives both screens" grep -q "2 screens, layout span" "$out/span.log"
head_matches span-head0-is-left-half 0 "$out/render/span-left.png" 60
head_matches span-head1-is-right-half 1 "$out/render/span-right.png" 60
stop
check "span: both CRTCs given back on exit" grep -q "restored CRTC" "$out/span.log"

echo "## a screen unplugged and plugged in again (mirror, 3 s interval)"
# Writing the connector's sysfs status forces it off or on; the kernel sends no event for that
# (6.1), so a "change" uevent on the card then tells userspace, as a cable's hotplug would.
connector=$(ls -d /sys/class/drm/card*-Virtual-2 | head -1)
status=$connector/status card_uevent=$(dirname "$(realpath "$connector")")/uevent
start hotplug "$out/conf-hotplug"
echo off > "$status"; echo change > "$card_uevent"
waitfor "Virtual-2 disconnected" "$out/hotplug.log" 20 && echo "PASS unplugged: the daemon noticed" || echo "FAIL unplugged: not noticed"
first=$(slide 0); changed=
for _ in $(seq 1 40); do sleep 0.5; [ "$(slide 0)" != "$first" ] && { changed=1; break; }; done
check "unplugged: the other screen goes on paging (was $first)" [ -n "$changed" ]
check "unplugged: the daemon kept running" kill -0 "$pid"
lines=$(wc -l < "$out/hotplug.log")
echo on > "$status"; echo change > "$card_uevent"
for _ in $(seq 1 100); do tail -n +"$lines" "$out/hotplug.log" | grep -q "showing .*Virtual-2" && break; sleep 0.2; done
check "plugged in again: Virtual-2 is lit again without a restart" sh -c "tail -n +$lines '$out/hotplug.log' | grep -q 'showing .*Virtual-2'"
# Mirror: both heads agree once the strip rests between pages.
agree=
for _ in $(seq 1 30); do a=$(slide 0); b=$(slide 1); [ "$a" = "$b" ] && [ "${a#slide}" != "$a" ] && { agree=1; break; }; sleep 0.5; done
check "plugged in again: both screens show the same picture ($a, $b)" [ -n "$agree" ]
stop

echo "## the panned strip on virtio-gpu (shown by SRC_X)"
# pan-guest.sh on conf-pan-still (both heads, mirror); the host matches head 0's screendumps.
"$repo/tests/vm/pan-guest.sh" "$bin" "$out"
check "panned strip: virtio-gpu shows its windows by SRC_X" grep -q 'windows, shown by SRC_X' "$out/pan/daemon.log"
