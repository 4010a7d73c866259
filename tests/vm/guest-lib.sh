# Shell helpers for the VM guest scripts (sourced): checks that print PASS/FAIL lines, waiting
# for a daemon's log, and the kernel's own word on whether the screen is lit.
# check NAME COMMAND...: PASS or FAIL by the command's status
check() { local name=$1; shift; if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi; }
# checked NAME COMMAND...: as check, with what the command printed (run once) after the name
checked() { local name=$1 output; shift; if output=$("$@" 2>&1); then echo "PASS $name ($output)"; else echo "FAIL $name ($output)"; fi; }
# waitfor PATTERN FILE SECONDS: until the file has a line matching the extended regex
waitfor() {
  local end=$((SECONDS + $3))
  until grep -qE "$1" "$2" 2>/dev/null; do
    [ $SECONDS -lt $end ] || { echo "  (timed out waiting for '$1' in $2)"; return 1; }
    sleep 0.1
  done
}
# waitfor_count PATTERN FILE N SECONDS: until FILE has N lines matching PATTERN
waitfor_count() {
  local end=$((SECONDS + $4))
  until [ "$(grep -c "$1" "$2")" -ge "$3" ]; do
    [ $SECONDS -lt $end ] || { echo "  (timed out waiting for $3 lines '$1' in $2)"; return 1; }
    sleep 0.1
  done
}
# crtc_active: the "active=" of the first CRTC, from the kernel's atomic state
crtc_active() { awk '/^crtc\[/ { c = 1 } c && /active=/ { sub(/.*active=/, ""); print; exit }' /sys/kernel/debug/dri/0/state; }
# crtc_becomes VALUE SECONDS: waits until the CRTC's active= is VALUE (polled, bounded)
crtc_becomes() {
  local end=$((SECONDS + $2))
  until [ "$(crtc_active)" = "$1" ]; do [ $SECONDS -lt $end ] || return 1; sleep 0.1; done
}
# uptime_now: seconds since boot (a clock `date -s` does not move)
uptime_now() { cut -d' ' -f1 /proc/uptime; }
# bin_on_tmpfs: $bin becomes a copy of itself in the guest's tmpfs, or the script fails. The
# guest's root is the host's over 9p without a cache, where each exec reads the binary's pages
# again from the host (`carouseld --version`: 2.7-3.0 s from 9p, 0.5-0.8 s from tmpfs under TCG);
# a box runs it from its own disk.
bin_on_tmpfs() {
  local dir=/run/carouseld-under-test
  mkdir -p "$dir" && cp "$bin" "$dir/" && bin=$dir/$(basename "$bin") ||
    { echo "FAIL the binary could not be copied to tmpfs"; exit 1; }
}
# The daemon the guest scripts run, by the names they share: $bin the binary, $control its
# socket, $pid its process, $out the script's results, $repo the checkout.
ctl() { "$bin" ctl --socket $control "$@"; }
stop() { kill -TERM "$pid" 2>/dev/null; wait "$pid"; }
# slide: which example picture fills the centre card of the screen now (slide1..slide5)
slide() { vm-screendump "$out/screen.ppm" && /usr/bin/python3 "$repo/tests/vm/touch_screen_colour.py" "$out/screen.ppm"; }
