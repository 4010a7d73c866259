#!/usr/bin/env bash
# Guest side of the optional vkms boot (scripts/vm-tests --vkms): vkms completes page flips on
# its 60 Hz vblank timer, unlike bochs, so this shows frames paced by the display. QEMU cannot
# see vkms's picture; the checks use the daemon's debug log (flip timestamps).
#
# usage (in the guest): tests/vm/vkms-guest.sh BINARY OUT
set -u
bin=$1 out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"   # check, checked, waitfor, crtc_active
bin_on_tmpfs

"$bin" outputs > "$out/vkms-outputs.txt" 2>&1; head -3 "$out/vkms-outputs.txt"
check "outputs lists the vkms connector" grep -q "driver vkms" "$out/vkms-outputs.txt"

conf=/tmp/vkms-conf; mkdir -p $conf
printf 'interval = 2\nmedia = "%s"\n' "$repo/config/example/images" > $conf/carouseld.conf
CAROUSELD_DEBUG=1 "$bin" --config $conf > "$out/vkms.log" 2>&1 & pid=$!
sleep 9
kill -TERM $pid; wait $pid; rc=$?
grep -v "^<7>" "$out/vkms.log" | grep -v "input" | sed 's/^/  /'
check "SIGTERM exits with status 0 on vkms" [ "$rc" -eq 0 ]
check "two auto-advances on vkms" grep -q "showing 3/5" "$out/vkms.log"
check "nothing is drawn after SIGTERM" sh -c "! sed -n '/SIGTERM/,\$p' '$out/vkms.log' | grep -qE 'visible at|showing [0-9]'"
# Gaps between completed flips during the animations: whole vblank periods of 1/60 s.
gaps=$(awk '/visible at/ { t = $NF; if (p && t - p < 0.5) printf "%.1f ", (t - p) * 1000; p = t }' "$out/vkms.log")
echo "  flip-to-flip gaps while moving (ms): $gaps"
check "flips complete on vblank: every gap is a whole number of 16.7 ms periods" \
  awk -v g="$gaps" 'BEGIN { n = split(g, a, " "); if (n < 10) exit 1
    for (i = 1; i <= n; i++) { k = a[i] / 16.667; if (k < 0.95 || (k - int(k + 0.5)) ^ 2 > 0.01) exit 1 } }'
