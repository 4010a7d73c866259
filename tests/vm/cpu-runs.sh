# CPU runs of the daemon and of fbi in a VM guest, for scripts/bench's figures (sourced by
# tests/vm/planes-guest.sh and tests/vm/virtio-cpu-guest.sh, after guest-lib.sh). The sourcing
# script sets $bin (the daemon), $base (the directory holding the conf-* directories made by
# scripts/vm-tests) and $out (where cpu.txt and the logs go). Figures go to $out/cpu.txt, one
# line a run: NAME ALL USER KERNEL [SCHEDSTAT], or NAME timeout.
hz=$(getconf CLK_TCK)
# cpu_ticks: a process's utime and stime, and the nanoseconds its threads ran (schedstat)
cpu_ticks() { echo "$(awk '{ print $14, $15 }' "/proc/$1/stat") $(cat /proc/$1/task/*/schedstat | awk '{ s += $1 } END { printf "%.0f", s }')"; }
# cpu_between "U0 S0 N0" "U1 S1 N1": seconds of CPU in all, in user space and in the kernel (the
# kernel's tick accounting: the task running at each tick is charged the tick), then the
# seconds the scheduler ran the threads (measured at each switch). Ticks sample: a path that
# runs a couple of ms a frame is charged about 90 ticks of 4 ms over a loop, give or take ten;
# fbi's time is ticks too, so the two are compared in ticks.
cpu_between() { echo "$1 $2" | awk -v hz="$hz" '{ printf "%.3f %.3f %.3f %.3f", ($4 + $5 - $1 - $2) / hz, ($4 - $1) / hz, ($5 - $2) / hz, ($6 - $3) / 1e9 }'; }

control=/run/carouseld-planes.sock
# Logs and the card cache on tmpfs, copied to OUT/planes/ after each run: writing the log or
# reading cards over the 9p share costs the daemon CPU a box's disk would not.
logs=/run/carouseld-planes; mkdir -p "$logs"
# The pictures too (for the daemon and fbi alike): a stat or read over 9p is dear under TCG.
media=$logs/media; rm -rf "$media"; cp -r "$repo/config/example/images" "$media"
# nap: a tenth of a second without starting a process (a read that times out on a FIFO no one
# writes to)
mkfifo "$logs/nap" 2>/dev/null; exec {nap_fd}<>"$logs/nap"
nap() { read -r -t 0.1 -u "$nap_fd" _ || true; }
# rests N: waits until the log has said "showing" N times (the strip came to rest after N page
# changes; the first picture is not said). Bash reads on from where it stopped and counts,
# starting no process: a wait beside a CPU measurement would take the host's cores from the
# daemon's emulated CPU (a grep and a sleep ten times a second did).
rests() {
  if [ "${rests_log:-}" != "$log" ]; then
    [ -z "${rests_fd:-}" ] || exec {rests_fd}<&-
    exec {rests_fd}<"$log" || return 1
    rests_log=$log; rests_seen=0; rests_part=
  fi
  local end=$((SECONDS + 90)) line
  while :; do
    # A line the daemon is still writing is kept and finished by the next look.
    while IFS= read -r -u "$rests_fd" line; do
      line=$rests_part$line; rests_part=
      [[ $line != *"showing "[0-9]* ]] || rests_seen=$((rests_seen + 1))
    done
    rests_part+=$line
    [ "$rests_seen" -lt "$1" ] || return 0
    # To stderr: a caller's $(...) takes stdout as a figure.
    [ $SECONDS -lt $end ] || { echo "  (timed out waiting for rest $1 in $log)" >&2; return 1; }
    nap
  done
}
# run NAME CONF [NICE] [debug]: starts the daemon on OUT/CONF, logging to NAME.log (debug lines
# only when asked: one per frame), with a card cache directory as the unit gives it
# (CacheDirectory=): cards read back, not decoded again; OUT/CONF's media is the tmpfs copy
run() {
  log=$logs/$1.log
  local conf=$logs/conf-$1
  rm -rf "$conf"; cp -r "$base/$2" "$conf"; sed -i "s|^media = .*|media = \"$media\"|" "$conf/carouseld.conf"
  if [ "${4:-}" = debug ]; then export CAROUSELD_DEBUG=1; else unset CAROUSELD_DEBUG; fi
  nice -n "${3:-0}" "$bin" run --config "$conf" --cache-dir "$logs/cache" --control $control > "$log" 2>&1 &
  pid=$!
  rests_log=  # a new log: rests reads it from its start
  waitfor "first frame on screen" "$log" 60
}
# finish: stops the daemon (killed, and said, if it does not exit within 20 s) and keeps its log
# exits_within SECONDS: true once the daemon has exited, false if it is still there after SECONDS
exits_within() { local end=$((SECONDS + $1)); while kill -0 "$pid" 2>/dev/null; do [ $SECONDS -lt $end ] || return 1; sleep 0.1; done; }
finish() {
  kill -TERM "$pid" 2>/dev/null
  if ! exits_within 20; then
    echo "FAIL the daemon exits on SIGTERM (${log##*/}: killed after 20 s; in the kernel at $(cat /proc/$pid/wchan))"
    sed 's/^/    /' /proc/$pid/stack; tail -5 "$log" | sed 's/^/    log: /'; kill -KILL "$pid"
    exits_within 10 || { echo "FAIL the daemon is stuck in the kernel"; dmesg | tail -20 | sed 's/^/    dmesg: /'; }
  fi
  kill -0 "$pid" 2>/dev/null || wait "$pid" 2>/dev/null
  cp "$log" "$out/"
}
# ctl with a bound: a daemon that stops answering fails the check instead of the boot
ctl() { timeout 30 "$bin" ctl --socket $control "$@"; }
# cpus 1|2: takes the second emulated CPU offline for the CPU figures, and back. With two,
# runs of one binary in one boot differed by half: the host runs both emulated CPUs on its two
# cores beside QEMU's own thread, so a run's time depends on what the other CPU does (the
# harness's waits, vkms's commit worker), and each wake-up across CPUs is an emulated
# interrupt. On one, alone, runs of one binary agreed within a tenth.
cpus() { [ -w /sys/devices/system/cpu/cpu1/online ] && echo $(($1 - 1)) > /sys/devices/system/cpu/cpu1/online; true; }
# loop_cpu [FROM TO]: CPU seconds over 5 page changes, by default the second loop (from the
# 5th rest after the first picture to the 10th); the word "timeout" when the daemon did not come
# to those rests in time, which the host and scripts/bench count as a failed run, never as 0 s
loop_cpu() {
  local a
  if rests "${1:-5}" && a=$(cpu_ticks $pid) && rests "${2:-10}"; then cpu_between "$a" "$(cpu_ticks $pid)"; else echo timeout; fi
}
# CPU_ROUNDS: how many runs of each path, in turn, for the CPU figures (scripts/bench: 5 or
# more, to judge them). 0 (scripts/test): each path runs once for its behaviour only, through two
# page changes, with no figure and no fbi (CI judges behaviour; the figures took 110 s of it).
rounds=${CPU_ROUNDS:-0}
# runs_of_each: the runs of each path: CPU_ROUNDS, or the one behaviour run
runs_of_each() { seq "$((rounds > 0 ? rounds : 1))"; }
# cpu_figure NAME [FROM TO]: with CPU_ROUNDS, the run's CPU over its loop (loop_cpu) into
# cpu.txt as NAME, then the output of a 4th argument (a function) on that line; without, waits
# for the strip to rest after its first two page changes
cpu_figure() {
  if [ "$rounds" -gt 0 ]; then echo "$1 $(loop_cpu "${2:-5}" "${3:-10}")${4:+ $($4)}" >> "$out/cpu.txt"
  else rests 2 || echo "  ($1: the strip did not come to rest after two page changes)"; fi
}

# fbi_cpu NAME FB: fbi showing the example's 5 pictures once on FB, one each 2 s (-t 2 like
# interval 2; each its own decode): its CPU seconds from start to the last picture, into
# cpu.txt as NAME (5 pages; fbi says nothing per page). fbi leaves a child process holding the
# framebuffer after its list: that is stopped.
fbi_cpu() {
  if [ -z "$2" ] || ! command -v fbi >/dev/null; then
    echo "FAIL fbi on $1's fbdev (${2:-no fbdev}, fbi $(command -v fbi || echo missing))"; return
  fi
  local TIMEFORMAT='%U %S' u s
  local rc
  { time timeout 60 fbi -d "$2" -T 1 --noverbose -a -t 2 "$media"/* > "$out/fbi-$1.log" 2>&1 </dev/null; } \
    2> "$out/fbi-$1.time"
  rc=$?
  pkill -x fbi; while pgrep -x fbi >/dev/null; do sleep 0.1; done
  read -r u s < "$out/fbi-$1.time"
  # fbi exits by itself after its list (status 0); 124 is timeout's: it did not get through the
  # list in 60 s, and its time is no figure. No time read is no figure either.
  if [ "$rc" = 124 ] || [ -z "${s:-}" ]; then echo "  fbi on $2 ($1): exit status $rc, no figure"; echo "$1 timeout" >> "$out/cpu.txt"; return; fi
  echo "$1 $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f %.3f %.3f", u + s, u, s }')" >> "$out/cpu.txt"
}
