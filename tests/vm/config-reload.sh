#!/usr/bin/env bash
# End-to-end live reload on a real kernel (issue 6): the daemon runs on bochs-drm in a QEMU guest,
# the playlist is changed while it runs, and QEMU's screendumps show the new order without a
# restart; an invalid edit leaves the old one on screen and says "config invalid" in the status.
# Also checks that a private network namespace cuts a process off udev's events, which is why
# the unit does not use PrivateNetwork=.
#
# usage (host): tests/vm/config-reload.sh [BINARY]    (default .build/debug/carouseld)
# Results and screendumps land in .build/vm/config-reload/.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ -z "${CAROUSELD_VM_GUEST:-}" ]; then
  bin=$(realpath "${1:-.build/debug/carouseld}")
  out=.build/vm/config-reload
  rm -rf "$out"; mkdir -p "$out"
  exec scripts/vm-run --rw "$out" -e CAROUSELD_VM_GUEST=1 -- "$0" "$bin" "$(realpath "$out")"
fi

# ---- in the guest ----
bin=$1 out=$2
tools="python3 tests/vm/config-reload-tools.py"
fail=0
check() { if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected '$3', got '$2'"; fail=1; fi; }
# screen_shows SHOT EXPECTED: screendumps until the three points show EXPECTED (20 s at most);
# prints what the last one showed (a wait for the screen, not a fixed sleep)
screen_shows() {
  local end=$((SECONDS + 20)) seen
  while :; do
    vm-screendump "$1"; seen=$($tools colours "$1" $points)
    [ "$seen" != "$2" ] && [ $SECONDS -lt $end ] || break
    sleep 0.2
  done
  echo "$seen"
}
# listening LOG: udevadm monitor has said what it listens to (it is subscribed)
listening() { local end=$((SECONDS + 10)); until grep -q "^UDEV - " "$1" 2>/dev/null; do [ $SECONDS -lt $end ] || return 1; sleep 0.05; done; }

# 1. udev events reach a listener in the host's network namespace but not one in a private one.
timeout 15 udevadm monitor --udev --subsystem-match=input > "$out/udev-host.log" 2>&1 & host_mon=$!
timeout 15 unshare --net udevadm monitor --udev --subsystem-match=input > "$out/udev-netns.log" 2>&1 & netns_mon=$!
# Both monitors subscribed before the events: each says so first. One that never does (unshare
# failed) fails here, so "no events in the namespace" cannot pass on a monitor that never ran.
check "udevadm monitor runs in the host namespace" "$(listening "$out/udev-host.log" && echo yes)" yes
check "udevadm monitor runs in a private network namespace (unshare --net)" "$(listening "$out/udev-netns.log" && echo yes)" yes
udevadm trigger --settle --action=change --subsystem-match=input
# The host's monitor has its events once udev settled; the namespace's had the same chance.
end=$((SECONDS + 10)); until grep -q '^UDEV  \[' "$out/udev-host.log" || [ $SECONDS -ge $end ]; do sleep 0.05; done
kill "$host_mon" "$netns_mon" 2>/dev/null; wait || true
host_events=$(grep -c '^UDEV  \[' "$out/udev-host.log" || true)
netns_events=$(grep -c '^UDEV  \[' "$out/udev-netns.log" || true)
echo "udev events seen: host namespace $host_events, private network namespace $netns_events"
check "udev events reach the host namespace" "$([ "$host_events" -gt 0 ] && echo yes || echo no)" yes
check "no udev events in a private network namespace" "$netns_events" 0

# 2. The daemon with a watched config directory on the guest's tmpfs.
conf=/tmp/carouseld
mkdir -p "$conf/images"
cp config/example/images/slide*.png "$conf/images/"
printf 'interval = 0\ncard_width = "60%%"\ncard_height = "60%%"\n' > "$conf/carouseld.conf"
printf 'slide1.png\nslide2.png\nslide3.png\n' > "$conf/playlist.m3u"

notify=/tmp/notify.sock
$tools listen "$notify" "$out/notify.log" & listener=$!
end=$((SECONDS + 10)); until [ -S "$notify" ] || [ $SECONDS -ge $end ]; do sleep 0.05; done
NOTIFY_SOCKET=$notify "$bin" run --config "$conf" > "$out/daemon.log" 2>&1 & daemon=$!
$tools wait "$out/notify.log" "READY=1" 60 || { cat "$out/daemon.log"; exit 1; }
# Centre card (above its white digit) and the neighbours peeking in at the edges (1280x800).
points="640,200 60,200 1220,200"
check "start: centre, left, right" "$(screen_shows "$out/1-start.ppm" "slide1 slide3 slide2")" "slide1 slide3 slide2"

# A new order, written the way editors do (temp file, then rename): the picture on screen
# stays, its neighbours change.
printf 'slide1.png\nslide4.png\nslide5.png\n' > "$conf/.playlist.m3u.swp"
mv "$conf/.playlist.m3u.swp" "$conf/playlist.m3u"
$tools wait "$out/notify.log" "RELOADING=1" 20 || fail=1
check "new order without restart" "$(screen_shows "$out/2-reordered.ppm" "slide1 slide5 slide4")" "slide1 slide5 slide4"

# An invalid edit: the old config stays on screen, each problem is logged, the status says so.
printf 'interval = 0\nfit = "fill"\n' > "$conf/carouseld.conf"
$tools wait "$out/notify.log" "STATUS=config invalid" 20 || fail=1
# The daemon has judged the edit (its status says so): what is on screen now is what stays.
vm-screendump "$out/3-invalid.ppm"
check "invalid edit keeps the old picture" "$($tools colours "$out/3-invalid.ppm" $points)" "slide1 slide5 slide4"
check "problem logged as file:line: key: message" \
  "$(grep -c "^<3>$conf/carouseld.conf:2: fit: expected \"cover\" or \"contain\", got string \"fill\"" "$out/daemon.log")" 1

# The picture on screen leaves the playlist: the first of the new order shows.
printf 'interval = 0\ncard_width = "60%%"\ncard_height = "60%%"\n' > "$conf/carouseld.conf"
printf 'slide2.png\nslide3.png\nslide4.png\n' > "$conf/playlist.m3u"
check "picture removed: the new first one shows" "$(screen_shows "$out/4-replaced.ppm" "slide2 slide4 slide3")" "slide2 slide4 slide3"

# SIGHUP reloads too (ExecReload).
before=$(grep -c "RELOADING=1" "$out/notify.log")
kill -HUP "$daemon"
end=$((SECONDS + 20)); until [ "$(grep -c "RELOADING=1" "$out/notify.log")" -gt "$before" ] || [ $SECONDS -ge $end ]; do sleep 0.05; done
check "SIGHUP reloads" "$(( $(grep -c "RELOADING=1" "$out/notify.log") > before ))" 1

kill -TERM "$daemon"; wait "$daemon" || true
kill "$listener" 2>/dev/null || true
check "STOPPING=1 on SIGTERM" "$(grep -c "STOPPING=1" "$out/notify.log")" 1
echo "notify messages:"; sed 's/^/  /' "$out/notify.log"
exit $fail
