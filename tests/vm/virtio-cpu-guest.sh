#!/usr/bin/env bash
# Guest side of scripts/bench's virtio-gpu CPU figures: the daemon's CPU time over 5 page
# changes, the flat look panned by the primary plane's SRC_X and the look with emphasis
# composed, and fbi's over 5 pictures on virtio-gpu's fbdev, at the display's own mode, on one
# CPU, CPU_ROUNDS times each in turn (the bochs boot does the same on bochs: planes-guest.sh,
# section 0). Runs in the soak boot of `scripts/vm-tests` (VM_ONLY=soak with CPU_ROUNDS), before
# the soak. Figures go to OUT/virtio-cpu/cpu.txt; a flat run that did not pan is a FAIL line.
# usage (in the guest): tests/vm/virtio-cpu-guest.sh BINARY OUT
set -u
bin=$1 base=$2 out=$2/virtio-cpu
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"
mkdir -p "$out"; rm -rf "${out:?}"/*
. "$repo/tests/vm/cpu-runs.sh"

[ "$rounds" -gt 0 ] || { echo "FAIL virtio-gpu CPU runs: CPU_ROUNDS is not set"; exit 1; }
cpus 1
for round in $(runs_of_each); do
  run virtio-flat conf-cpu-flat -5
  # From the first rest: the window is drawn there, and again at each rest after.
  cpu_figure virtio-flat 1 6
  [ $round != 1 ] || check "virtio-gpu, the flat look: the strip pans in the display engine" \
    grep -q "the strip pans in the display engine" "$log"
  finish
  run virtio-emphasis conf-cpu-emphasis -5
  cpu_figure virtio-emphasis 1 6
  finish
  fbi_cpu virtio-fbi /dev/fb0
done
cpus 2
