#!/usr/bin/env bash
# Several outputs of one compositor: sway, headless with two outputs side by side (HEADLESS-1
# at 0,0 and HEADLESS-2 at 1280,0, 1280x720 each), run as a non-root user.
#   - independent: a fullscreen window on each output, each with its own playlist; each output's
#     screenshot (grim -o NAME) equals `carouseld render --output NAME`;
#   - a key on HEADLESS-2 (focused, through wtype's virtual keyboard on the seat) pages only its
#     carousel: HEADLESS-1 still shows its first picture;
#   - span: the outputs show the left and right halves of render at 2560x720;
#   - an output named in a table that the compositor does not have yet (HEADLESS-3) is waited
#     for, naming the ones it has, while HEADLESS-1 shows; once sway creates it (create_output),
#     a window is fullscreen on it and it shows its carousel. (An output going away is not
#     tested: sway 1.7 cannot disable a headless output.)
#   - the panned strip (issue 34; the flat look without dots, interval 2): both outputs pan, and
#     after the first page change each shows render's picture at rest; every commit of the next
#     page change on each output is panned (SIGUSR1's counters before and after).
#     sway 1.7's pixman renderer is why the strip pans by buffers that view a window from a
#     column, not by wp_viewport's source rectangle, whose offset it ignores.
# usage: tests/wayland/outputs.sh CAROUSELD OUTDIR
# Closes with "wayland-outputs: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
source "$here/wayland/common.sh"; as_test_user "$@"
bin=$(realpath "$1"); out=$(realpath -m "$2")
rm -rf "$out"; mkdir -p "$out"
# shows OUTPUT REF [SECONDS]: screenshots of OUTPUT until one equals REF (an animation only
# makes it wait), at most SECONDS (default 10)
shows() {
  local end=$((SECONDS + ${3:-10})) shot="$run/$1-$RANDOM.png" result
  while :; do
    grim -o "$1" "$shot" 2>/dev/null && result=$(imgcmp mad "$shot" "$2") && { echo "$result"; return 0; }
    [ $SECONDS -lt $end ] || { echo "${result:-no screenshot}"; return 1; }
    sleep 0.2
  done
}

wait_for() {  # wait_for SECONDS PATTERN: until carouseld's log has PATTERN
  local end=$((SECONDS + $1))
  until grep -q -- "$2" "$run/carouseld.log"; do [ $SECONDS -lt $end ] || { echo "not in the log"; return 1; }; sleep 0.1; done
  grep -m1 -- "$2" "$run/carouseld.log"
}

# conf NAME LAYOUT [LINES for HEADLESS-2's table]
conf() {
  mkdir -p "$out/$1"
  { printf 'interval = 3600\nmedia = "%s"\nlayout = "%s"\n' "$here/../config/example/images" "$2"
    printf '[[output]]\nname = "HEADLESS-1"\n[[output]]\nname = "HEADLESS-2"\n'
    [ -z "${3:-}" ] || printf '%s\n' "$3"; } > "$out/$1/carouseld.conf"
}
conf independent independent 'playlist = "lobby.m3u"'
printf 'slide3.png\nslide4.png\nslide5.png\n' > "$out/independent/lobby.m3u"
conf span span
# HEADLESS-2 one page on: its carousel auto-advanced once (2 s interval), at rest at 3.5 s.
conf paged independent 'playlist = "lobby.m3u"'; cp "$out/independent/lobby.m3u" "$out/paged/"
sed -i 's/^interval = 3600/interval = 2/' "$out/paged/carouseld.conf"
conf later independent; sed -i 's/HEADLESS-2/HEADLESS-3/' "$out/later/carouseld.conf"
conf panned independent; sed -i 's/^interval = 3600/interval = 2/' "$out/panned/carouseld.conf"
sed -i '1i center_scale = 1\nside_scale = 1\nside_opacity = 1\ndots = false' "$out/panned/carouseld.conf"
r="$out/render"
"$bin" render --config "$out/independent" --output HEADLESS-1 --size 1280x720 --out "$r/independent-1" >/dev/null
"$bin" render --config "$out/independent" --output HEADLESS-2 --size 1280x720 --out "$r/independent-2" >/dev/null
"$bin" render --config "$out/paged" --output HEADLESS-2 --size 1280x720 --at 3.5 --out "$r/paged-2" >/dev/null
"$bin" render --config "$out/span" --size 2560x720 --out "$r/span" >/dev/null
"$bin" render --config "$out/later" --output HEADLESS-3 --size 1280x720 --out "$r/later-3" >/dev/null
for o in 1 2; do
  "$bin" render --config "$out/panned" --output HEADLESS-$o --size 1280x720 --at 3.5 --out "$r/panned-$o" >/dev/null
done
/usr/bin/python3 -c "
from PIL import Image; import sys
full = Image.open(sys.argv[1]); full.crop((0, 0, 1280, 720)).save(sys.argv[2]); full.crop((1280, 0, 2560, 720)).save(sys.argv[3])
" "$r/span/frame-0000.000.png" "$r/span-left.png" "$r/span-right.png"

# with_sway NAME COMMAND...: sway with its two outputs, COMMAND run beside it with carouseld
# started on config NAME ($daemon), then both stopped.
with_sway() {
  local name=$1; shift
  run="$out/run-$name"; mkdir -p "$run"
  export XDG_RUNTIME_DIR="$run/xdg"; mkdir -m 700 "$XDG_RUNTIME_DIR"
  unset WAYLAND_DISPLAY SWAYSOCK   # sway would take the last run's
  printf 'xwayland disable\noutput HEADLESS-1 resolution 1280x720 position 0 0\noutput HEADLESS-2 resolution 1280x720 position 1280 0\n' > "$run/sway.conf"
  printf 'output HEADLESS-3 resolution 1280x720 position 2560 0\n' >> "$run/sway.conf"
  WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 WLR_HEADLESS_OUTPUTS=2 \
    sway -c "$run/sway.conf" > "$run/sway.log" 2>&1 & local sway=$!
  local end=$((SECONDS + 10))
  until compgen -G "$XDG_RUNTIME_DIR/wayland-?" >/dev/null && compgen -G "$XDG_RUNTIME_DIR/sway-ipc.*" >/dev/null; do
    [ $SECONDS -lt $end ] && kill -0 $sway 2>/dev/null || { echo "FAIL sway did not start: $(tail -3 "$run/sway.log")"; failed=$((failed + 1)); return; }
    sleep 0.05
  done
  export WAYLAND_DISPLAY; WAYLAND_DISPLAY=$(cd "$XDG_RUNTIME_DIR" && ls wayland-? | head -1)
  export SWAYSOCK; SWAYSOCK=$(ls "$XDG_RUNTIME_DIR"/sway-ipc.* | head -1)
  "$bin" --config "$out/$name" > "$run/carouseld.log" 2>&1 & daemon=$!
  "$@"
  kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null
  kill "$sway"; wait "$sway" 2>/dev/null
}

# every_commit_panned BEFORE AFTER: with both outputs' "COMMITS PANNED" (commits_and_panned),
# each output panned more than 20 frames between the two, and every commit between was panned
every_commit_panned() {
  awk -v a="$1" -v b="$2" 'BEGIN { n = split(a, x); split(b, y); if (n != 4) exit 1
    for (i = 1; i <= 3; i += 2) if (y[i + 1] - x[i + 1] <= 20 || y[i] - x[i] != y[i + 1] - x[i + 1]) exit 1 }'
}

independent() {
  check "independent: HEADLESS-1 shows its carousel" shows HEADLESS-1 "$r/independent-1/frame-0000.000.png"
  check "independent: HEADLESS-2 shows its own playlist" shows HEADLESS-2 "$r/independent-2/frame-0000.000.png"
  # wtype's keyboard joins the seat, waits for carouseld to bind it (0.5 s), then types.
  swaymsg focus output HEADLESS-2 >/dev/null && wtype -s 500 -k Right
  check "independent: Right on HEADLESS-2 pages its carousel" shows HEADLESS-2 "$r/paged-2/frame-0003.500.png"
  check "independent: HEADLESS-1 did not page" shows HEADLESS-1 "$r/independent-1/frame-0000.000.png" 0
  grep -E "screens, layout|first frame on screen" "$run/carouseld.log" | sed 's/^/  /'
}
span() {
  check "span: HEADLESS-1 shows the left half of render at 2560x720" shows HEADLESS-1 "$r/span-left.png"
  check "span: HEADLESS-2 shows the right half" shows HEADLESS-2 "$r/span-right.png"
}
later() {
  check "a named output the compositor lacks is waited for, naming those it has" \
    wait_for 10 "no output HEADLESS-3 yet (it has HEADLESS-1, HEADLESS-2)"
  check "later: HEADLESS-1 shows its carousel meanwhile" shows HEADLESS-1 "$r/independent-1/frame-0000.000.png"
  swaymsg create_output >/dev/null
  check "later: HEADLESS-3 created, a window goes fullscreen on it" wait_for 10 "HEADLESS-3 is there: fullscreen on it"
  check "later: HEADLESS-3 shows its carousel" shows HEADLESS-3 "$r/later-3/frame-0000.000.png"
}
panned() {
  check "panned: both outputs pan" bash -c 'for _ in $(seq 100); do [ "$(grep -c "the strip pans" "$1")" = 2 ] && exit; sleep 0.1; done; exit 1' _ "$run/carouseld.log"
  check "panned: HEADLESS-1 shows render's picture after its first page change" shows HEADLESS-1 "$r/panned-1/frame-0003.500.png"
  check "panned: HEADLESS-2 too" shows HEADLESS-2 "$r/panned-2/frame-0003.500.png"
  # Every commit from here through the next page change on each output is panned: the stats
  # (SIGUSR1) before it, then again until each output has panned more than 20 frames since.
  # (The frames before the first page change, the first frame and a configure's redraw, are
  # composed: the window is drawn once the first frame is on screen.)
  local before after
  before=$(commits_and_panned "$run/carouseld.log" "$daemon")
  for _ in $(seq 40); do
    after=$(commits_and_panned "$run/carouseld.log" "$daemon")
    every_commit_panned "$before" "$after" && break
    sleep 0.25
  done
  check "panned: every commit of the next page change on each output was panned (SIGUSR1): commits and panned frames $before, then $after" \
    every_commit_panned "$before" "$after"
}
with_sway independent independent
with_sway span span
with_sway later later
with_sway panned panned
echo "wayland-outputs: $passed passed, $failed failed"
exit $((failed > 0))
