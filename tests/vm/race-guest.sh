#!/usr/bin/env bash
# Guest side of the first-picture race (issue 34), run in the bochs-drm boot of scripts/vm-tests:
# carouseld against fbi, from exec to the first picture on screen, seen by the host's
# screendumps (every 0.1 s, on one QMP connection: vm-screendumps). RACE_ROUNDS rounds, each in turn:
#   cold  carouseld with an empty card cache directory (a box's first boot: no card, no kept frame)
#   fbi   fbi -a on the same first picture, on bochs's fbdev
#   warm  carouseld again: the start frame the cold run kept is shown before anything is decoded
# A run's time: its first screendump that shows its final picture (the last screendump, which
# the rest of the run also equals), from exec. The first screendump that differs from the screen
# before exec must equal `carouseld render` at t = 0 in every carouseld run. Each run's time
# goes to OUT/race/bench.txt; scripts/bench judges them against fbi's (issue 34: cold 0.75x,
# warm 0.5x), over five rounds or more. The daemon's breakdown of exec
# -> first frame (its log: main, config loaded, display open, carousels made, cards decoded,
# committed) is printed for each run; exec -> main is a hang detector here (2 s), and whether the warm
# run showed its kept frame.
# Everything on tmpfs (binary, its libraries, config, pictures, cache, log): a read over 9p is
# dear under TCG and would be the race. That holds for the shared libraries too: this guest's /
# is the host's over 9p, where each library's open is a round of RPCs (37 for carouseld, 22 for
# fbi: 0.25 s against 0.12 s from tmpfs, about half of exec -> `main`), while a box reads them
# from its own disk's page cache. So both programs' libraries (`ldd`) are copied to one tmpfs
# directory and both run with LD_LIBRARY_PATH on it (the loader, PT_INTERP, stays: one file for
# each); /proc/PID/maps of each run shows where they came from. Each program runs once before
# the rounds, so both start from the page cache. The clock: dump 1's host time is 0; the guest
# sees dump 1 appear, then execs, so exec is placed at the guest's time from seeing dump 1 (a
# poll of 10 ms: both programs alike).
# usage (in the guest): tests/vm/race-guest.sh BINARY OUT
set -u
bin=$1 out=$2/race
# RACE_ROUNDS: rounds of cold, fbi, warm (scripts/test: 1, for the behaviour; scripts/bench: 5+)
rounds=${RACE_ROUNDS:-1}
names() { local k r; for k in "$@"; do for r in $(seq "$rounds"); do printf '%s%s ' "$k" "$r"; done; done; }
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/vm/guest-lib.sh"
mkdir -p "$out"; rm -rf "${out:?}"/*
run=/run/carouseld-race; rm -rf "$run"; mkdir -p "$run/conf"
cp "$bin" "$run/carouseld"
mkdir -p "$run/lib"
for lib in $( (ldd "$bin"; ldd "$(command -v fbi)") | awk '$3 ~ /^\// { print $3 }' | sort -u); do cp "$lib" "$run/lib/"; done
cp -r "$repo/config/example/images" "$run/media"
printf 'interval = 60\nmedia = "%s"\n' "$run/media" > "$run/conf/carouseld.conf"
first=$(ls "$run/media" | sort | head -1)
fb=$(for f in /sys/class/graphics/fb*; do grep -qi bochs "$f/name" 2>/dev/null && echo "/dev/${f##*/}"; done | head -1)
size=$(head -1 /sys/class/drm/card0-*/modes 2>/dev/null | head -1)
echo "  bochs at ${size:-?}, fbdev ${fb:-none}, first picture $first; carouseld $bin ($(ldd "$bin" | grep -c swift) Swift libraries linked dynamically)"
"$run/carouseld" render --config "$run/conf" --size "$size" --at 0 --out "$out/render" > /dev/null 2>&1
ref=$out/render/frame-0000.000.png
[ -s "$ref" ] || { echo "FAIL race: no render of the race config at t = 0 ($size)"; exit 0; }
[ -n "$fb" ] && command -v fbi > /dev/null || { echo "FAIL race: fbi on bochs's fbdev (${fb:-no fbdev}, fbi $(command -v fbi || echo missing))"; exit 0; }

now() { cut -d' ' -f1 /proc/uptime; }
# race NAME COMMAND...: screendumps NAME-001.ppm... for 4.5 s while COMMAND runs from just after
# the first; prints the exec offset (s after dump 1) to NAME.exec, the dumps' times to NAME.times
race() {
  local name=$1 seen t; shift
  vm-screendumps "$out/$name" 45 0.1 > "$out/$name.times" 2> "$out/$name.err" & local dumps=$!
  local i=0; until [ -s "$out/$name-001.ppm" ] || [ $i -ge 3000 ]; do sleep 0.01; i=$((i + 1)); done
  seen=$(now)
  LD_LIBRARY_PATH=$run/lib "$@" > "$out/$name.log" 2>&1 < /dev/null & pid=$!
  t=$(now); echo "$t $seen" | awk '{ printf "%.3f\n", $1 - $2 }' > "$out/$name.exec"
  wait "$dumps"
  # The fbi process started exits and another fbi stays: the newest fbi, if any, else the daemon.
  [ -d /proc/$pid ] || echo "  ($name: pid $pid gone, fbi $(pgrep -x fbi | tr "\n" " "))"
  grep -oE '/[^ ]+\.so[^ /]*$' "/proc/$(pgrep -n -x fbi || echo "$pid")/maps" | sort -u > "$out/$name.maps"
}
daemon() { exec "$run/carouseld" run --config "$run/conf" --cache-dir "$run/cache" --control "$run/control"; }
fbi_show() { exec fbi -d "$fb" -T 1 --noverbose -a "$run/media/$first"; }
end() { kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pkill -x fbi; while pgrep -x fbi > /dev/null; do sleep 0.1; done; }

# Once each before the rounds (page cache), not counted; the cold run's kept frame is removed.
rm -rf "$run/cache"; mkdir -p "$run/cache"
race warmup-daemon daemon; waitfor "start frame kept" "$out/warmup-daemon.log" 30; end
race warmup-fbi fbi_show; end
for round in $(seq "$rounds"); do
  rm -rf "$run/cache"; mkdir -p "$run/cache"   # the unit's CacheDirectory=, empty
  race "cold$round" daemon
  waitfor "start frame kept" "$out/cold$round.log" 30 || echo "  cold$round: no start frame kept"
  end
  race "fbi$round" fbi_show; end
  race "warm$round" daemon; end
done
for name in $(names cold warm); do
  echo "  $name: $(grep -m1 -oE 'first frame on screen .* after exec \([^)]*\)' "$out/$name.log" | sed 's/^first frame on screen //')"
done
# exec -> main: issue 34's 0.5 s is judged by scripts/bench (race case); here a hang detector
# with 4x room over the worst seen (528 ms), every run, with each run's figure in bench.txt.
for name in $(names cold warm); do
  ms=$(sed -nE 's/.*first frame on screen .*\(main ([0-9]+) ms.*/\1/p' "$out/$name.log" | head -1)
  echo "exec-main-${name%%[0-9]*} ${ms:-none}" >> "$out/bench.txt"   # one series a kind
  check "race: $name reached main within 2 s of exec (${ms:-not logged} ms)" [ "${ms:-99999}" -le 2000 ]
done
# Every counted run's libraries came from the tmpfs copy (the loader aside).
local_runs=0
for name in $(names cold fbi warm); do
  libs=$(grep -c . "$out/$name.maps" 2>/dev/null) elsewhere=$(grep -v "^$run/lib/" "$out/$name.maps" 2>/dev/null | grep -vc '/ld-linux')
  [ "${libs:-0}" -gt 3 ] && [ "$elsewhere" = 0 ] && local_runs=$((local_runs + 1))
  [ "$name" = cold1 ] && cold_libs=$libs; [ "$name" = fbi1 ] && fbi_libs=$libs
done
check "race: every run read its libraries from tmpfs, as from a box's disk ($local_runs of $((3 * rounds)) runs; carouseld $cold_libs libraries, fbi $fbi_libs)" [ "$local_runs" = $((3 * rounds)) ]
kept=$(cat "$out"/warm[0-9]*.log | grep -c 'kept start frame is on its way')
check "race: each warm start showed the frame the cold one kept ($kept of $rounds)" [ "$kept" = "$rounds" ]
/usr/bin/python3 "$repo/tests/vm/race_frames.py" "$out" "$ref" "$rounds"
