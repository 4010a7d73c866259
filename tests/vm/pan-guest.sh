#!/usr/bin/env bash
# Guest side of the panned strip's screendump check (issue 34), in the bochs-drm boot of
# scripts/vm-tests: the daemon on OUT/conf-pan (interval 2, a flat look without dots, a 1.5 s
# spring damped critically, so that a page change spans many screendumps and never turns back).
# Its first page change is composed; at the rest after it the window around the new page is
# drawn and the strip pans from then on.
# From the log's word of that, 50 screendumps 0.1 s apart, taken by the host, through the next
# page change, are left in OUT/pan/ for scripts/vm-tests to match against `carouseld render`
# (tests/vm/transition_frames.py).
# usage (in the guest): tests/vm/pan-guest.sh BINARY OUT
set -u
bin=$1 out=$2/pan
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"
mkdir -p "$out"; rm -f "$out"/*
"$bin" run --config "$2/conf-pan" > "$out/daemon.log" 2>&1 &
pid=$!
check "panned strip: the log says the strip pans, at the rest after the first page change" \
  waitfor "the strip pans in the display engine" "$out/daemon.log" 90
checked "panned strip: 50 screendumps 0.1 s apart through the next page change" vm-screendumps "$out/shot" 50 0.1
kill -TERM $pid; wait $pid
check "panned strip: the driver took every panned frame (none composed instead)" \
  sh -c "! grep -q 'refused a panned frame' '$out/daemon.log'"
