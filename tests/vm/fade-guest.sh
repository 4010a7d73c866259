#!/usr/bin/env bash
# Guest side of the crossfade check (issue 24), in the bochs-drm boot of scripts/vm-tests: the
# daemon on OUT/conf-fade (interval 6, transition "fade", fade_duration 2: the first fade runs
# from 6 s to 8 s of the daemon's time line; at interval 3 a slow start left too little of it
# for the screendumps) composed on the CPU, as bochs has no overlay planes;
# 100 screendumps 0.1 s apart, taken by the host from the first frame on, are left in
# OUT/fade/ for scripts/vm-tests to match against `carouseld render` (tests/vm/transition_frames.py).
# usage (in the guest): tests/vm/fade-guest.sh BINARY OUT
set -u
bin=$1 out=$2/fade
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"
mkdir -p "$out"; rm -f "$out"/*
CAROUSELD_DEBUG=1 "$bin" run --config "$2/conf-fade" > "$out/daemon.log" 2>&1 &
pid=$!
check "the daemon with transition = \"fade\" shows its first frame" waitfor "first frame on screen" "$out/daemon.log" 60
checked "100 screendumps 0.1 s apart through the first fade" vm-screendumps "$out/shot" 100 0.1
kill -TERM $pid; wait $pid
