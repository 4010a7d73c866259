#!/usr/bin/env bash
# Guest side of the "no display at all" test: a boot with --display none (no /dev/dri, no
# /dev/fb0). The daemon and `outputs` must fail with a message that says what is missing.
#
# usage (in the guest): tests/vm/no-display-guest.sh BINARY OUT
set -u
bin=$1 out=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
check() { local name=$1; shift; if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi; }

ls /dev/dri > /dev/null 2>&1 && echo "  (unexpected: /dev/dri exists)"
"$bin" --config "$repo/config/example" > "$out/nodri.log" 2>&1; rc=$?
sed 's/^/  /' "$out/nodri.log"
check "no /dev/dri: the daemon fails with status 1" [ "$rc" -eq 1 ]
check "no /dev/dri: the message names the missing device" grep -q "no DRM device (no /dev/dri/card\*)" "$out/nodri.log"
"$bin" outputs > "$out/nodri-outputs.log" 2>&1; rc=$?
check "no /dev/dri: outputs fails with the same message" \
  sh -c "[ $rc -eq 1 ] && grep -q 'no DRM device' '$out/nodri-outputs.log'"
exit 0
