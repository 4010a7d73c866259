#!/usr/bin/env bash
# Guest side of the "no display at all" test: the daemon sees no /dev/dri and no /dev/fb0. It
# must not exit (a GPU driver may load later): it says what it waits for and keeps running until
# SIGTERM. `outputs` fails with a message that says what is missing.
#
# It runs first in the two-screen boot, in a mount namespace of its own whose /dev holds only
# null, zero, random and urandom: the daemon finds cards by /dev/dri (libdrm's drmGetDevices2)
# and the framebuffer by /dev/fb0, so this is what it meets on a box whose GPU driver has not
# loaded. (A boot of its own with no display device cost 70 s of CI.)
#
# usage (in the guest): tests/vm/no-display-guest.sh BINARY OUT
set -u
if [ -z "${NO_DISPLAY_NAMESPACE:-}" ]; then
  NO_DISPLAY_NAMESPACE=1 exec unshare --mount --propagation private "$0" "$@"
fi
bin=$1 out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"   # check, checked, waitfor, crtc_active
bin_on_tmpfs
mkdir -p "$out"

mount -t tmpfs -o mode=0755 no-display /dev &&
  for node in null:1:3 zero:1:5 random:1:8 urandom:1:9; do
    IFS=: read -r name major minor <<< "$node"; mknod -m 666 "/dev/$name" c "$major" "$minor" || break
  done
if [ ! -e /dev/dri ] && [ ! -e /dev/fb0 ] && [ -c /dev/urandom ]; then
  echo "PASS no /dev/dri: the daemon's /dev holds no card and no framebuffer"
else
  # Reported here; the checks below would test a /dev with a display in it.
  echo "FAIL no /dev/dri: the mount namespace's /dev could not be made ($(ls /dev | head -5 | tr '\n' ' '))"; exit 0
fi
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
