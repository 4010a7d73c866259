#!/usr/bin/env bash
# Guest side of the "no display at all" test: a boot with --display none (no /dev/dri, no
# /dev/fb0). The daemon must not exit (a GPU driver may load later): it says what it waits
# for and keeps running until SIGTERM. `outputs` fails with a message that says what is missing.
#
# usage (in the guest): tests/vm/no-display-guest.sh BINARY OUT
set -u
bin=$1 out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"   # check, checked, waitfor, crtc_active
bin_on_tmpfs

ls /dev/dri > /dev/null 2>&1 && echo "  (unexpected: /dev/dri exists)"
"$bin" --config "$repo/config/example" > "$out/nodri.log" 2>&1 &
pid=$!
# Waited for: its word that it waits (a fixed 5 s once ended before a slow start had logged it
# or set its SIGTERM handler). Then it must still be there, waiting.
waitfor "no display yet" "$out/nodri.log" 60
kill -0 "$pid" 2>/dev/null; alive=$?
kill -TERM "$pid" 2>/dev/null; wait "$pid"; rc=$?
sed 's/^/  /' "$out/nodri.log"
check "no /dev/dri: the daemon keeps running, waiting for a display" [ "$alive" -eq 0 ]
check "no /dev/dri: the log says what it waits for" \
  grep -q "no display yet: no DRM device (no /dev/dri/card\*).*waiting for one" "$out/nodri.log"
check "no /dev/dri: SIGTERM while waiting exits 0" [ "$rc" -eq 0 ]
"$bin" outputs > "$out/nodri-outputs.log" 2>&1; rc=$?
check "no /dev/dri: outputs fails with the same message" \
  sh -c "[ $rc -eq 1 ] && grep -q 'no DRM device' '$out/nodri-outputs.log'"
exit 0
