# Proof of play in the booted image, sourced by boot-guest.sh (main boot; its helpers check,
# waituntil, prop). Real journald and the packaged unit: 32 s of interval = 4 with one
# `ctl next` in the middle, then `carouseld plays --format csv` is held against what the
# daemon logged and what the clock says, and the same report is read again from a collector
# directory that systemd-journal-remote filled from the box's `journalctl -o export`.
# Times are microseconds since 1970 (EPOCHREALTIME); FRAME is one refresh of bochs' 60 Hz mode.
FRAME=16667
now_us() { echo "${EPOCHREALTIME/./}"; }
# settles SINCE-US: the daemon's "showing i/N NAME" lines since then (one per rest), as "US NAME".
settles() {
  journalctl -u carouseld --since "@$(awk -v u="$1" 'BEGIN { printf "%.6f", u / 1e6 }')" -o short-unix --no-pager |
    sed -nE 's/^([0-9]+)\.([0-9]{6}) .*\]: showing [0-9]+\/[0-9]+ (.*)$/\1\2 \3/p'
}

echo "## proof of play (interval = 4, 32 s, one ctl next)"
sed -i -E 's/^interval *=.*/interval = 4/' /etc/carouseld/carouseld.conf
systemctl reload carouseld
sleep 2; t0=$(now_us)
# Half-way, right after a rest (a page change under way would be taken over, not ended), ctl next.
waituntil 45 sh -c "[ \$(journalctl -u carouseld --since @${t0:0:10} -o cat --no-pager | grep -c '^showing ') -ge 3 ]"
sleep 1
ctl_before=$(now_us); carouseld ctl next > /dev/null; ctl_after=$(now_us)
sleep $(( (t0 + 32000000 - $(now_us)) / 1000000 ))
# Held, so the report is not a moving target: the showing on screen now has no record yet.
carouseld ctl pause > /dev/null; sleep 2; t1=$(now_us)
since="@${t0:0:10}.${t0:10}" until="@${t1:0:10}.${t1:10}"
carouseld plays --since "$since" --until "$until" --format csv > /tmp/plays.csv 2> /tmp/plays.err
rc=$?; tr -d '\r' < /tmp/plays.csv > /tmp/plays.txt
echo "  carouseld plays --since $since --until $until --format csv (status $rc):"
sed 's/^/    /' /tmp/plays.txt; sed 's/^/    stderr: /' /tmp/plays.err
settles "$t0" > /tmp/settles.txt
rows=$(($(wc -l < /tmp/plays.txt) - 1)) rests=$(wc -l < /tmp/settles.txt)
# Every rest began a showing; all but the one on screen now have ended and have their row.
tail -n +2 /tmp/plays.txt | awk -F, '{ n = split($8, p, "/"); print $2, p[n] }' > /tmp/rows.txt
check "plays lists every showing: $rows rows, $rests rests logged since the start (the last still on screen)" \
  sh -c "[ $rc = 0 ] && [ $rows -ge 5 ] && [ $rests = $((rows + 1)) ] &&
         [ \"\$(cut -d' ' -f2 /tmp/rows.txt)\" = \"\$(head -n $rows /tmp/settles.txt | cut -d' ' -f2)\" ]"
# The shown time is the rest's own: not after journald received the line the daemon logged at that
# rest, and after it received the line of the rest before. Both clocks are the VM's wall clock;
# the gap between them is the journal's delivery, printed (under TCG it passed 100 ms at times).
paste -d' ' /tmp/rows.txt <(head -n "$rows" /tmp/settles.txt) > /tmp/rows-vs-log.txt
check "each row's shown time is its rest's: after the rest before was logged, not after its own was (largest gap to its log line: $(awk '{ d = $3 - $1; if (d > m) m = d } END { printf "%.1f ms", m / 1000 }' /tmp/rows-vs-log.txt))" \
  awk 'NR > 1 && $1 <= received { bad = 1 } $1 > $3 { bad = 1 } { received = $3 } END { exit bad || NR == 0 }' /tmp/rows-vs-log.txt
# Time shown: interval = 4 s for a picture the countdown took away; for the one ctl next took,
# from its rest to the request. The sum of the rows' durations against it, one frame per row.
sums=$(tail -n +2 /tmp/plays.txt | awk -F, -v b="$ctl_before" -v a="$ctl_after" -v f=$FRAME '
  { sum += $4; n++
    if ($5 == "auto") { shown += 4000000; if ($4 < 4000000 - f || $4 > 4000000 + f) bad++ }
    else if ($5 == "ctl") { ctl++; end = $2 + $4; shown += ($4 + 0 < b - $2 ? b - $2 : ($4 > a - $2 ? a - $2 : $4))
                            if (end < b - f || end > a + f) bad++ }
    else bad++
    if (n > 1 && ($2 < prev_end || $2 - prev_end > 1500000)) bad++
    prev_end = $2 + $4 }
  END { d = sum - shown; if (d < 0) d = -d; printf "%d %d %d %.3f %.3f %d", n, ctl, bad, sum / 1e6, shown / 1e6, d <= n * f ? 0 : 1 }')
read -r n ctl bad sum shown off <<< "$sums"
echo "  $n rows: durations sum to $sum s; time shown $shown s (4 s per auto row, ctl next at $(( (ctl_before - t0) / 1000 ))-$(( (ctl_after - t0) / 1000 )) ms)"
check "the durations add up to the time shown within one frame per row ($sum s vs $shown s, $n rows)" [ "${off:-1}" = 0 ]
check "every row is 4 s of auto within a frame or ends at the ctl next, rows never overlap and are a page change apart ($bad wrong)" \
  [ "${bad:-1}" = 0 -a "${n:-0}" -gt 0 ]
check "exactly one showing ended by ctl next, with cause ctl ($ctl)" [ "${ctl:-0}" = 1 ]

# The collector: the box's journal, exported and fed to systemd-journal-remote, read from its directory.
rm -rf /tmp/collector; mkdir -p /tmp/collector
journalctl -b -o export --no-pager | /lib/systemd/systemd-journal-remote -o /tmp/collector/remote.journal - \
  > /tmp/collector.log 2>&1; jr=$?
echo "  systemd-journal-remote: status $jr, $(tail -1 /tmp/collector.log); $(du -h /tmp/collector/remote.journal | cut -f1)"
carouseld plays --directory /tmp/collector --since "$since" --until "$until" --format csv > /tmp/plays-collector.csv 2>&1
check "the collector's directory gives the same report ($(($(wc -l < /tmp/plays-collector.csv) - 1)) rows)" \
  cmp -s /tmp/plays.csv /tmp/plays-collector.csv
carouseld plays --directory /tmp/collector --since "$since" --until "$until" | tail -n 4 | sed 's/^/    /'
carouseld plays --directory /nonexistent/collector > /dev/null 2> /tmp/plays-bad.err; bad_rc=$?
check "an unreadable --directory is an error naming it ($(cat /tmp/plays-bad.err))" \
  sh -c "[ $bad_rc = 1 ] && grep -q '/nonexistent/collector: No such file' /tmp/plays-bad.err"
carouseld ctl resume > /dev/null
