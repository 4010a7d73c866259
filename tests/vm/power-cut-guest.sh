# Guest side of the power cuts (issue 44), sourced by boot-guest.sh (its check, host, matches,
# prop, waituntil and is_active) on the Debian 13 root with the package, which keeps its disk
# from boot to boot (scripts/vm-boot-tests). The host put in /xchg/cut:
#   A/, B/      two configs (carouseld.conf and playlist.m3u; interval 3600, so the screen
#               rests on the first picture), big.jpg at the fourth place of both playlists
#   big.jpg     a 2-3 MB picture an operator copies in place
# carouseld_test=cut, each boot:
#   1. after a cut (all but the first boot): carouseld came up by itself (active, NRestarts=0),
#      and the screen equals `carouseld render` (on the host) of the config on disk, or of the
#      last good copy when the one on disk does not load; the torn entries it found and
#      dropped are counted. One line "cut-figures ..." per boot goes to /xchg/cuts.txt.
#   2. the host is asked to cut the power at a random instant (QMP quit, 0.5-8.5 s) of a workload that
#      never ends by itself: the daemon restarted on an empty cache (decoding, filling the card
#      cache, keeping its start frame), carouseld.conf copied in place in two halves (the first
#      synced, as a slow scp leaves it), the playlist by rename (rsync), big.jpg in place in
#      64 KiB pieces, and a reload.
# carouseld_test=ro, the boot after the last cut: its checks (1.), with the root mounted
# read-only: the log naming the cache's fallback directory in /run; then a clean poweroff.
# The root has plymouth, booted with `quiet splash` (issue 46): the first boot (a cold start) and
# the read-only one (a warm start, from the kept frame) end the host's watch of the screen and
# check the handover (splash_handover).
C=$X/cut

# splash_handover LABEL REF...: the host's verdict on the screendumps since QEMU's start (REFs:
# the pictures the daemon may show first), then the first frame before getty.target, with no
# modeset, and plymouth gone.
splash_handover() {
  local label=$1 ff ff_s getty_us expect=splash; shift
  # plymouthd's own crash (an assertion in libply's event loop, seen in 2 of 5 watched cold starts
  # on 2026-11-30, before carouseld starts) puts its report on the console: then what plymouth left on the
  # screen is not carouseld's to answer for, and only a change of mode is judged (docs/boot-splash.md).
  if grep -q '/usr/sbin/plymouthd(' /dev/vcs1; then
    expect=crashed
    echo "  $label: plymouthd crashed (its backtrace is on tty1): plymouth's splash and the console it left are not judged"
  fi
  watch_end "$label" $expect "$@" | tee /tmp/watch.txt
  # Text the console showed (tty1's text buffer, cut into its rows): plymouthd's crash report
  # names it and ends with its backtrace.
  if grep -qE 'console [1-9]' /tmp/watch.txt && tr -s ' ' < /dev/vcs1 | grep -q '[^ ]'; then
    echo "    tty1's text, its last 30 rows with text:"
    fold -w "$(stty -F /dev/tty1 size | cut -d' ' -f2)" /dev/vcs1 | sed 's/ *$//' | grep . | tail -30 | sed 's/^/      /'
  fi
  for f in /var/log/plymouth-debug.log /run/plymouth-debug.log; do
    [ -s "$f" ] && cp "$f" "$X/plymouth-debug-${label// /-}-${f##*/}" 2>/dev/null
  done
  # The handover's steps with the boot's times (the screen's times above count from QEMU's start).
  journalctl -b -o short-monotonic --no-pager -u carouseld -u 'plymouth*' -u systemd-vconsole-setup -u getty.target |
    sed -n '1,/first frame on screen/p' | grep -vE 'card cache|decod' | tail -14 | sed 's/^/    /'
  check "$label: plymouth showed its splash (plymouth-start.service: $(prop plymouth-start Result))" [ "$(prop plymouth-start Result)" = success ]
  ff=$(journalctl -b -u carouseld -o short-monotonic --no-pager | grep -m1 'first frame on screen')
  ff_s=$(echo "$ff" | sed -nE 's/^\[ *([0-9.]+)\].*/\1/p')
  getty_us=$(prop getty.target ActiveEnterTimestampMonotonic)
  # Which comes first under TCG depends on the host's load: CI asks that the frame was logged and
  # prints the margin (as the main boot does); it is a figure, not a bound.
  check "$label: carouseld's first frame logged (${ff_s:-not logged} s from kernel start)" \
    awk -v f="${ff_s:-x}" 'BEGIN { exit !(f ~ /^[0-9.]+$/) }'
  echo "  $label: first frame ahead of getty.target: $(awk -v f="${ff_s:-0}" -v g="$getty_us" 'BEGIN { printf "%.2f", g / 1e6 - f }') s (figure)"
  check "$label: the first frame made no modeset ($(journalctl -b -u carouseld -o cat --no-pager | grep -m1 -E ': no modeset: |: modeset to ' || echo 'neither logged'))" \
    sh -c '! journalctl -b -u carouseld -o cat --no-pager | grep -q ": modeset to " && journalctl -b -u carouseld -o cat --no-pager | grep -q ": no modeset: the first frame replaces"'
  check "$label: plymouth is not running after the handover" sh -c '! pidof plymouthd >/dev/null'
}

# expect_screen LABEL: the screen against the render of what is on disk (or its last good copy)
expect_screen() {
  local label=$1 which n=$2
  rm -rf "$C/disk"; mkdir -p "$C/disk"
  cp -a /etc/carouseld/. "$C/disk/"
  cp /var/lib/carouseld/last-good-config "$C/disk/" 2>/dev/null
  if which=$(host expected cut/disk "cut/expected-$n"); then
    matches "$label: the screen equals render of $which" "cut-$n" 60 "cut/expected-$n/frame-0000.000.png" && return 0
    # What it showed instead, for the next run to go on from (CI once saw this fail, once).
    echo "    the screen against config A and B at rest, and black: $(host resembles "shots/cut-$n.ppm" cut/rest-A.png cut/rest-B.png cut/black.png)"
    journalctl -b -o short-monotonic --no-pager -u carouseld -u 'plymouth*' | grep -vE 'card cache: .*decod' | tail -25 | sed 's/^/    /'
    return 1
  else
    echo "FAIL $label: no reference for the screen ($which)"; return 1
  fi
}

# dropped: what the daemon found torn or stale and dropped in this boot, one count
dropped() {
  journalctl -b -u carouseld -o cat --no-pager |
    grep -cE 'card cache: .*; decoding .* again|kept frame .*: .*removed, not shown|last good config .* is not used'
}

n=$(( $(cat "$C/boots" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$C/boots"
echo "## power cuts: boot $n$([ $mode = ro ] && echo ', the root read-only')"
if [ "$n" -gt 1 ]; then
  label="after cut $((n - 1))"
  waituntil 90 sh -c '[ "$(systemctl is-active carouseld)" = active ] || systemctl is-failed -q carouseld'
  restarts=$(prop carouseld NRestarts)
  check "$label: carouseld active with no restart (NRestarts=$restarts)" [ "$(systemctl is-active carouseld)" = active -a "$restarts" = 0 ]
  up=0; expect_screen "$label" "$n" && up=1
  # The operator's splash (`carouseld splash install` of the installed config): the first lit
  # screen is that picture, then the daemon's first frame of the config now on disk.
  [ $mode = cut ] && [ "$n" = 2 ] && watch_end "operator's splash, after cut 1" picture $rest_refs "cut/expected-$n/frame-0000.000.png"
  [ $mode = ro ] && splash_handover "warm start with plymouth" "cut/expected-$n/frame-0000.000.png"
  torn=$(dropped)
  echo "  $label: $torn torn or stale entries dropped; $(journalctl -b -u carouseld -o cat --no-pager | grep -m1 -E 'showing the last good config|config .* is invalid' || echo 'the config on disk loaded')"
  journalctl -b -u carouseld -o cat --no-pager | grep -E 'card cache: .*decoding|kept frame|last good|skipping|invalid' | head -8 | sed 's/^/    /'
  echo "cut-figures boot=$n up=$up torn=$torn" >> $X/cuts.txt
fi
# The boot after the last cut has the root read-only; then a clean poweroff, and e2fsck on the host.
if [ $mode = ro ]; then
  check "read-only root: / is mounted read-only ($(findmnt -no OPTIONS /))" sh -c 'findmnt -no OPTIONS / | tr , "\n" | grep -qx ro'
  line=$(journalctl -b -u carouseld -o cat --no-pager | grep -m1 'card cache: .*using /run/carouseld/cache instead')
  check "read-only root: the log names the cache's fallback directory (${line:-no such line})" [ -n "$line" ]
  echo "  $(journalctl -b -u carouseld -o cat --no-pager | grep -m1 'cannot save the last good config' || echo 'no line about saving the last good config')"
  echo "DONE"; systemctl poweroff
  exit 0
fi

if [ "$n" = 1 ]; then
  waituntil 90 is_active
  matches "cold start with plymouth: the screen equals carouseld render of the installed config" cut-1 60 $rest_refs
  splash_handover "cold start with plymouth" $rest_refs
  # The starting point: config A whole, big.jpg in place, the daemon on it.
  cp "$C/A/carouseld.conf" "$C/A/playlist.m3u" /etc/carouseld/
  cp "$C/big.jpg" /etc/carouseld/images/big.jpg
  sync
  systemctl restart carouseld
fi
# The cut's instant: 0.5-8.5 s into the workload, the host's pick (seeded by the boot; it says
# which in its log: a cut that comes early takes this line with it).
echo "  $(host cut "$n") (into the workload below)"
i=0
while :; do
  i=$((i + 1)); v=A; [ $((i % 2)) = 1 ] && v=B
  echo "  workload $i: config $v"
  if [ $((i % 3)) = 1 ]; then
    systemctl stop carouseld; rm -rf /var/cache/carouseld/*; systemctl start carouseld
  fi
  size=$(stat -c %s "$C/$v/carouseld.conf")
  head -c $((size / 2)) "$C/$v/carouseld.conf" > /etc/carouseld/carouseld.conf; sync
  tail -c +$((size / 2 + 1)) "$C/$v/carouseld.conf" >> /etc/carouseld/carouseld.conf
  cp "$C/$v/playlist.m3u" /etc/carouseld/.playlist.m3u.tmp && mv /etc/carouseld/.playlist.m3u.tmp /etc/carouseld/playlist.m3u
  dd if="$C/big.jpg" of=/etc/carouseld/images/big.jpg bs=64k status=none
  systemctl reload carouseld
done
