#!/usr/bin/env bash
# Guest side of the operations checks (issue 15), in the bochs-drm boot of scripts/vm-tests:
# the control socket (ctl next pages, ctl status matches the screendump, state.json), a flood
# of malformed requests and 100 clients at once (the daemon keeps drawing, its RSS flat), and
# the screen's power (ctl screen off/on, a scheduled off at start, a touch waking it), read
# back from the kernel's atomic state in debugfs. Prints one PASS/FAIL line per check.
# usage (in the guest): tests/vm/operations-guest.sh BINARY OUT
set -u
bin=$1 out=$2/operations
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"; rm -f "$out"/*
conf=/tmp/ops-conf; mkdir -p $conf
control=/tmp/ops/control; mkdir -p /tmp/ops    # sockets cannot live on the 9p share
TOUCH="carousel test touchscreen"

. "$repo/tests/vm/guest-lib.sh"   # check, checked, waitfor, crtc_active
rss() { awk '/^VmRSS/ { print $2 }' /proc/"$pid"/status; }
# The card cache where systemd would put it, but unwritable (under a regular file, as under a
# read-only root): the daemon falls back to its runtime directory.
: > /tmp/ops/readonly; mkdir -p /tmp/ops/run
start() {  # start NAME: the daemon on $conf with the control socket
  rm -f $control
  CACHE_DIRECTORY=/tmp/ops/readonly/cache RUNTIME_DIRECTORY=/tmp/ops/run \
    CAROUSELD_DEBUG=1 "$bin" run --config $conf --control $control > "$out/$1.log" 2>&1 &
  pid=$!
  waitfor "control socket" "$out/$1.log" 60
}
# becomes NAME EXPECTED SECONDS: the screen shows EXPECTED
becomes() {
  local end=$((SECONDS + $3)) got
  while :; do got=$(slide); [ "$got" = "$2" ] && { echo "PASS $1 ($got)"; return 0; }
    [ $SECONDS -lt $end ] || { echo "FAIL $1 (screen shows $got, expected $2)"; return 1; }; sleep 0.3; done
}
swipe() {  # swipe LOG: a fast left swipe on a uinput touchscreen (libinput replay)
  local fifo=/tmp/ops-replay
  rm -f $fifo; mkfifo $fifo
  libinput replay "$out/touch/swipe-left.yml" < $fifo > "$out/replay.txt" 2>&1 & local replay=$!
  exec 9> $fifo
  waitfor "\"$TOUCH \(event[0-9]+\)\" added \(touch\)" "$1" 30; sleep 1
  echo >&9; sleep 2; exec 9>&-
  for _ in $(seq 1 50); do kill -0 $replay 2>/dev/null || break; sleep 0.1; done
  kill -9 $replay 2>/dev/null; wait $replay 2>/dev/null
}

mount -t debugfs none /sys/kernel/debug 2>/dev/null
mkdir -p "$out/touch"; /usr/bin/python3 "$repo/tests/vm/touch_recordings.py" "$out/touch"
# metrics_file into a directory Debian's prometheus-node-exporter serves (textfile collector),
# scraped over loopback with curl: the figures must say what ctl status says.
metrics=/tmp/ops/metrics; mkdir -p $metrics
printf 'interval = 3600\nmedia = "%s"\nmetrics_file = "%s"\n' "$repo/config/example/images" "$metrics/carouseld.prom" > $conf/carouseld.conf
prometheus-node-exporter --web.listen-address=127.0.0.1:9100 --collector.disable-defaults --collector.textfile \
  --collector.textfile.directory=$metrics > "$out/node-exporter.log" 2>&1 & exporter=$!
# scraped METRIC VALUE [SECONDS]: the exporter serves METRIC (name and labels) with VALUE
scraped() {
  local end=$((SECONDS + ${3:-5})) got
  while :; do
    got=$(curl -s http://127.0.0.1:9100/metrics | awk -v m="$1" '$1 == m { print $2 }')
    [ "$got" = "$2" ] && { echo "$1 $got"; return 0; }
    [ $SECONDS -lt $end ] || { echo "$1 is ${got:-absent}, expected $2"; return 1; }
    sleep 0.2
  done
}

echo "## control socket"
start ctl
waitfor "first frame on screen" "$out/ctl.log" 60
check "ctl status says what the screen shows" sh -c "[ \"\$($bin ctl --socket $control status | head -1)\" = 'showing 1/5 slide1.png' ] && [ \"\$(vm-screendump $out/s.ppm && /usr/bin/python3 $repo/tests/vm/touch_screen_colour.py $out/s.ppm)\" = slide1 ]"
check "ctl next answers with the picture it pages to" sh -c "[ \"\$($bin ctl --socket $control next)\" = 'showing 2/5 slide2.png' ]"
becomes "ctl next pages the screen" slide2 10
ctl status > "$out/status.txt"; head -1 "$out/status.txt"
check "ctl status matches the screendump after paging" grep -qx "showing 2/5 slide2.png" "$out/status.txt"
check "state.json says the same" grep -q '"index":2,' /tmp/ops/state.json
ctl goto slide4.png > /dev/null
becomes "ctl goto NAME" slide4 10
# ctl screenshot: the daemon's own last frame equals what the CRTC scans out, once at rest
# (two screendumps 0.3 s apart the same).
for i in $(seq 30); do
  vm-screendump $out/rest1.ppm; sleep 0.3; vm-screendump $out/rest2.ppm; cmp -s $out/rest1.ppm $out/rest2.ppm && break
done
ctl screenshot /tmp/ops-shot.png > $out/shot.txt 2>&1; cat $out/shot.txt
checked "ctl screenshot equals the screendump on bochs" /usr/bin/python3 $repo/tests/vm/imgcmp.py mad --max 2 /tmp/ops-shot.png $out/rest2.ppm
check "ctl --json gives the daemon's JSON line" sh -c "$bin ctl --socket $control --json status | /usr/bin/python3 -c 'import json,sys; s=json.load(sys.stdin)[\"status\"]; sys.exit(s[\"index\"] != 4)'"
index=$(ctl --json status | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["status"]["index"])')
checked "metrics: node-exporter serves the index ctl status gives" scraped 'carouseld_item_index{output="default"}' "$index"
check "metrics: promtool check metrics passes on the file" promtool check metrics < $metrics/carouseld.prom
cp $conf/carouseld.conf /tmp/ops/good.conf; echo 'interval = "soon"' >> $conf/carouseld.conf
checked "metrics: an invalid edit sets carouseld_config_error" scraped carouseld_config_error 1 10
cp /tmp/ops/good.conf $conf/carouseld.conf
checked "metrics: the edit undone clears it" scraped carouseld_config_error 0 10
checked "metrics: the schedule's word (none: always on)" scraped carouseld_screen_scheduled_on 1
checked "metrics: the paging interval" scraped 'carouseld_page_interval_seconds{output="default"}' 3600
line=$(grep -m1 'card cache: /tmp/ops/readonly/cache' "$out/ctl.log")
check "an unwritable cache directory falls back to the runtime directory, said once (${line:-no line})" \
  sh -c "[ \$(grep -c 'readonly/cache' '$out/ctl.log') = 1 ] && grep -q 'using /tmp/ops/run/cache instead' '$out/ctl.log'"
checked "metrics: carouseld_cache_fallback 1" scraped carouseld_cache_fallback 1

echo "## the box's health"
# A real ext4 file system (a loop device; the guest's root is 9p), and a real error in it: the
# kernel's own test hook (trigger_fs_error) counts it. What this kernel's mountinfo then says is
# printed (6.18 adds "emergency_ro" to the superblock's options; 6.1 showed it still "rw"). The
# read-only series is checked on a second ext4 mounted read-only. The series come with the next
# metrics write: a page change writes the file within a second (poke), where the 15 s heartbeat
# would come later; the page is put back after.
poke() { ctl next > /dev/null; }
modprobe loop 2>/dev/null
fs=/tmp/ops/fs; mkdir -p $fs; truncate -s 8M /tmp/ops/fs.img; mkfs.ext4 -q -F /tmp/ops/fs.img
if mount -o loop,errors=remount-ro /tmp/ops/fs.img $fs; then
  dev=$(basename "$(findmnt -no SOURCE $fs)")
  labels="{device=\"$dev\",mountpoint=\"$fs\"}"
  poke; checked "health: the ext4 file system's error count is served (0)" scraped "carouseld_filesystem_errors$labels" 0 20
  checked "health: it is read-write" scraped "carouseld_filesystem_read_only$labels" 0
  echo "carouseld test error" > /sys/fs/ext4/$dev/trigger_fs_error
  poke; checked "health: an ext4 error is counted" scraped "carouseld_filesystem_errors$labels" 1 20
  echo "  after the error, this kernel's mountinfo: $(grep " $fs " /proc/self/mountinfo)"
  ro=/tmp/ops/fs-ro; mkdir -p $ro; truncate -s 8M /tmp/ops/fs-ro.img; mkfs.ext4 -q -F /tmp/ops/fs-ro.img
  if mount -o loop,ro /tmp/ops/fs-ro.img $ro; then
    rolabels="{device=\"$(basename "$(findmnt -no SOURCE $ro)")\",mountpoint=\"$ro\"}"
    poke; checked "health: a read-only superblock is seen" scraped "carouseld_filesystem_read_only$rolabels" 1 20
    umount $ro
  else
    echo "FAIL health: could not mount an ext4 loop file system read-only"
  fi
  check "metrics: promtool check metrics passes with the health series" promtool check metrics < $metrics/carouseld.prom
  grep -E '^carouseld_(filesystem|under_voltage|mmc|cache)' $metrics/carouseld.prom | sed 's/^/  /'
  umount $fs
else
  echo "FAIL health: could not mount an ext4 loop file system"
fi
ctl goto slide4.png > /dev/null
becomes "back on the page before the health checks" slide4 10

echo "## 1000 malformed requests and 100 clients at once"
before=$(rss)
/usr/bin/python3 "$repo/tests/vm/flood_control.py" $control > "$out/flood.txt" 2>&1; rc=$?
sed 's/^/  /' "$out/flood.txt"
check "every malformed request got an error, the connection stayed usable, 16 clients were served at once" [ $rc = 0 ]
/usr/bin/python3 "$repo/tests/vm/flood_control.py" $control > /dev/null 2>&1
after=$(rss)
echo "  RSS before ${before} kB, after two floods ${after} kB"
check "RSS flat across the floods (within 2 MB)" [ $((after - before)) -lt 2048 ]
ctl next > /dev/null
becomes "still drawing after the floods" slide5 10

echo "## screen power"
check "the CRTC is active while the screen is on" [ "$(crtc_active)" = 1 ]
ctl screen off
check "ctl screen off: the CRTC is inactive (no signal)" crtc_becomes 0 10
check "ctl status says off (ctl)" sh -c "$bin ctl --socket $control status | grep -qx 'screen: off (ctl)'"
checked "metrics: the screen off is carouseld_screen_on 0" scraped carouseld_screen_on 0
ctl screen on
becomes "ctl screen on: the last picture again" slide5 10
check "the CRTC is active again" crtc_becomes 1 10
stop

# A schedule whose window starts an hour from now: the daemon starts with the screen dark.
from=$(date -d '+1 hour' +%H:%M) to=$(date -d '+2 hours' +%H:%M)
printf 'interval = 3600\nmedia = "%s"\nwake_minutes = 1\n[[screen]]\non = "%s"\noff = "%s"\n' \
  "$repo/config/example/images" "$from" "$to" > $conf/carouseld.conf
start dark
waitfor "started with the screen off" "$out/dark.log" 30
sleep 1
check "a scheduled off at start: the CRTC is inactive" [ "$(crtc_active)" = 0 ]
swipe "$out/dark.log"
waitfor "screen on \(touch\)" "$out/dark.log" 20
check "a touch wakes the screen" sh -c "[ \"\$(awk '/^crtc\[/ { c = 1 } c && /active=/ { sub(/.*active=/, \"\"); print; exit }' /sys/kernel/debug/dri/0/state)\" = 1 ]"
becomes "the waking touch does nothing else" slide1 10
stop
kill $exporter 2>/dev/null; wait $exporter 2>/dev/null || true   # its SIGTERM status is not ours
