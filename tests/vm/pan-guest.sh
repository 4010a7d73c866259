#!/usr/bin/env bash
# Guest side of the panned strip's screendump check (issue 34), in the bochs-drm and virtio-gpu boots of
# scripts/vm-tests: the daemon on OUT/conf-pan-still (a flat look without dots, a 1.5 s spring
# damped critically, so that a page change spans many screendumps and never turns back; it
# never advances by itself). At the rest after the start, once the cards around are decoded,
# the window around the page is drawn and the log says the strip pans; then the host starts 50
# screendumps 0.1 s apart, and at the first of them `ctl next` makes the page change they span.
# When the window comes depends on the decodes (before or after an interval's first page
# change), so the change is asked for, not waited for. The screendumps are left in OUT/pan/ for
# scripts/vm-tests to match against `carouseld render` (tests/vm/transition_frames.py).
# usage (in the guest): tests/vm/pan-guest.sh BINARY OUT
set -u
bin=$1 out=$2/pan control=/run/carouseld-pan.sock
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"
mkdir -p "$out"; rm -f "$out"/* $control
"$bin" run --config "$2/conf-pan-still" --control $control > "$out/daemon.log" 2>&1 &
pid=$!
check "panned strip: the log says the strip pans, at the rest after the start" \
  waitfor "the strip pans in the display engine" "$out/daemon.log" 90
vm-screendumps "$out/shot" 50 0.1 > "$out/times.json" &
shots=$!
until [ -e "$out/shot-001.ppm" ] || ! kill -0 $shots 2>/dev/null; do sleep 0.02; done
check "panned strip: ctl next at the first screendump" sh -c "timeout 30 \"$bin\" ctl --socket $control next >/dev/null"
check "panned strip: 50 screendumps 0.1 s apart through the page change" wait $shots
# The frames of the change were panned, not composed: the SIGUSR1 stats line counts each
# screen's panned frames (the change spans 1.5 s: at least 20 frames even at TCG's slowest).
kill -USR1 $pid
waitfor "stats:" "$out/daemon.log" 20
panned=$(grep "stats:" "$out/daemon.log" | tail -1 | grep -oE "[^ ]+ panned frames [0-9]+" | tr '\n' ' ')
check "panned strip: each screen showed the change in panned frames (${panned:-none counted})" \
  sh -c '[ -n "$1" ] && echo "$1" | grep -oE "frames [0-9]+" | awk "{ if (\$2 < 20) bad = 1 } END { exit bad }"' _ "$panned"
kill -TERM $pid; wait $pid
check "panned strip: the driver took every panned frame (none composed instead)" \
  sh -c "! grep -q 'refused a panned frame' '$out/daemon.log'"
