#!/usr/bin/env bash
# Checks a carouseld .deb without installing it (the host is left as it is; the real install is
# tested in the booted Debian image): its files, conffiles, Depends and maintscripts, that the
# binary needs nothing from a Swift toolchain (readelf, ldd, and a run with the toolchain hidden
# under an empty tmpfs), the version, and lintian. One PASS/FAIL line per check, then
# "package: N passed, N failed"; exit 1 on any failure.
#
#   tests/package/check-package.sh dist/carouseld_<version>_<arch>.deb
set -uo pipefail
deb=${1:?usage: check-package.sh DEB}
[ -f "$deb" ] || { echo "check-package: no such file $deb" >&2; exit 2; }
deb=$(readlink -f "$deb")
repo=$(cd "$(dirname "$0")/../.." && pwd)

passed=0 failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
check() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
dpkg-deb -x "$deb" "$root" || { fail "dpkg-deb -x $deb"; echo "package: $passed passed, $failed failed"; exit 1; }
mkdir "$tmp/control" && dpkg-deb -e "$deb" "$tmp/control"
files=$(dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|')
field() { dpkg-deb -f "$deb" "$1"; }
bin=$root/usr/bin/carouseld

# --- what is in it ------------------------------------------------------------------------------
# The units' directory: /lib/systemd/system from Debian 12, /usr/lib/systemd/system from 13.
unitdir=/lib/systemd/system; grep -qx /usr/lib/systemd/system/carouseld.service <<<"$files" && unitdir=/usr/lib/systemd/system
for path in /usr/bin/carouseld $unitdir/carouseld.service $unitdir/carouseld-kiosk.service $unitdir/carouseld-coldplug.service \
            /usr/lib/sysusers.d/carouseld.conf \
            /etc/carouseld/carouseld.conf /usr/share/doc/carouseld/README.md /usr/share/doc/carouseld/configuration.md.gz \
            /usr/share/doc/carouseld/copyright /usr/share/doc/carouseld/changelog.gz \
            /usr/share/doc/carouseld/examples/carouseld.conf /usr/share/man/man8/carouseld.8.gz \
            /usr/share/carouseld/prometheus/carouseld-rules.yml; do
  check "contains $path" grep -qx "$path" <<<"$files"
done
# The whole of Foundation links ICU's data in statically (17.9 MB became 62 MB once, from one
# `import Foundation` where FoundationEssentials served): the binary stays without it.
size=$(stat -c %s "$bin")
check "the binary does not carry ICU (all of Foundation): $size bytes, at most 30 MB" [ "$size" -le 31457280 ]
images=$(grep -c '^/etc/carouseld/images/.' <<<"$files")
example_images=$(grep -c '^/usr/share/doc/carouseld/examples/images/.' <<<"$files")
check "contains /etc/carouseld/images/* ($images pictures)" [ "$images" -gt 0 ]
check "contains the example pictures in /usr/share/doc/carouseld/examples/images ($example_images)" [ "$example_images" -eq "$images" ]
if [ -e "$repo/config/example/playlist.m3u" ]; then
  check "contains /etc/carouseld/playlist.m3u" grep -qx /etc/carouseld/playlist.m3u <<<"$files"
fi
check "nothing under /usr/local or /opt" bash -c '! grep -Eq "^/(usr/local|opt)/" <<<"$1"' _ "$files"

# --- conffiles: every file in /etc, and only those --------------------------------------------
etc_files=$(cd "$root" && find etc -type f | sed 's|^|/|' | sort)
conffiles=$(sort "$tmp/control/conffiles" 2>/dev/null)
check "conffiles list /etc/carouseld/carouseld.conf" grep -qx /etc/carouseld/carouseld.conf <<<"$conffiles"
check "conffiles are exactly the files under /etc ($(wc -l <<<"$etc_files") files)" [ "$etc_files" = "$conffiles" ]
check "conffiles are all under /etc/carouseld" bash -c '! grep -qv "^/etc/carouseld/" <<<"$1"' _ "$conffiles"

# --- Depends: Debian's runtime libraries, nothing from a toolchain -----------------------------
depends=$(field Depends)
echo "Depends: $depends"
for lib in libc6 libdrm2 libinput10 libudev1 libsystemd0 libturbojpeg0 libjpeg62-turbo 'libpng16-16(t64)?' \
           libwebp7 libwebpdemux2 libexif12 libpixman-1-0 libwayland-client0 libxkbcommon0; do
  check "Depends: $lib" grep -Eq "(^|[ ,|])$lib( |,|$)" <<<"$depends"
done
check "Depends: systemd-sysusers provider (systemd | systemd-standalone-sysusers | ...)" \
  grep -q 'systemd | systemd-standalone-sysusers' <<<"$depends"
check "Depends: nothing from Swift" bash -c '! grep -Eiq "swift|libicu|foundation|dispatch" <<<"$1"' _ "$depends"

# --- unit and user ------------------------------------------------------------------------------
unit=$root$unitdir/carouseld.service
check "unit: ExecStart=/usr/bin/carouseld" grep -q '^ExecStart=/usr/bin/carouseld ' "$unit"
check "unit: Documentation= in /usr/share/doc/carouseld, and that file is in the package" bash -c '
  doc=$(sed -n "s|^Documentation=.*file:\(/usr/share/doc/carouseld/[^ ]*\).*|\1|p" "$1")
  [ -n "$doc" ] && grep -qx "$doc" <<<"$2"' _ "$unit" "$files"
check "unit: no /usr/local" bash -c '! grep -q /usr/local "$1"' _ "$unit"
check "unit: pulls in carouseld-coldplug.service and is ordered after it, not after udev" bash -c '
  grep -qx "Wants=carouseld-coldplug.service" "$1" && grep -qx "After=carouseld-coldplug.service" "$1" &&
  ! grep -Eq "^After=.*systemd-udev" "$1" && grep -qx "Before=systemd-udev-trigger.service" "$2"' _ "$unit" "$root$unitdir/carouseld-coldplug.service"
check "sysusers.d: user carouseld, in video and input" bash -c '
  grep -q "^u carouseld " "$1" && grep -q "^m carouseld video" "$1" && grep -q "^m carouseld input" "$1"' \
  _ "$root/usr/lib/sysusers.d/carouseld.conf"

# --- maintscripts (debhelper's): user, then enable/start; restart on upgrade; stop; purge ------
postinst=$tmp/control/postinst prerm=$tmp/control/prerm postrm=$tmp/control/postrm
check "postinst: systemd-sysusers carouseld.conf" grep -q 'systemd-sysusers .*carouseld.conf' "$postinst"
check "postinst: deb-systemd-helper enable carouseld.service" grep -q "deb-systemd-helper enable 'carouseld.service'" "$postinst"
check "postinst: start on install, restart on upgrade (deb-systemd-invoke)" bash -c '
  grep -q "_dh_action=restart" "$1" && grep -q "_dh_action=start" "$1" && grep -q "deb-systemd-invoke \$_dh_action .carouseld.service." "$1"' _ "$postinst"
check "postinst: the user exists before the service starts" bash -c '
  [ "$(grep -n systemd-sysusers "$1" | head -1 | cut -d: -f1)" -lt "$(grep -n deb-systemd-invoke "$1" | head -1 | cut -d: -f1)" ]' _ "$postinst"
# debhelper's --no-enable: enabled again on upgrade only if the operator had enabled it.
check "postinst: carouseld-kiosk.service (cage) is installed but not enabled" bash -c '
  grep -q "deb-systemd-helper debian-installed .carouseld-kiosk.service." "$1" \
    && ! grep -q "deb-systemd-helper enable .carouseld-kiosk.service.; then" "$1"' _ "$postinst"
check "kiosk unit: cage runs carouseld, READY=1 from carouseld (NotifyAccess=all)" bash -c '
  grep -q "^ExecStart=/usr/bin/cage .*-- /usr/bin/carouseld " "$1" && grep -q "^NotifyAccess=all" "$1" \
    && grep -q "^Conflicts=carouseld.service" "$1"' _ "$root$unitdir/carouseld-kiosk.service"
check "Suggests: cage, seatd" grep -q "cage, seatd" <<<"$(field Suggests)"
check "prerm: deb-systemd-invoke stop on remove" grep -q "deb-systemd-invoke stop 'carouseld.service'" "$prerm"
check "postrm: deb-systemd-helper purge on purge" grep -q "deb-systemd-helper purge 'carouseld.service'" "$postrm"

# --- the binary needs nothing from a toolchain ------------------------------------------------
arch=$(field Architecture)
dynamic=$(readelf -d "$bin" 2>&1)
check "readelf -d: no RPATH/RUNPATH" bash -c '! grep -Eq "\((RPATH|RUNPATH)\)" <<<"$1"' _ "$dynamic"
needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$dynamic" | tr '\n' ' ')
echo "NEEDED: $needed"
check "readelf -d: no Swift, Foundation, dispatch or ICU library NEEDED" \
  bash -c '! grep -Eiq "swift|foundation|dispatch|blocksruntime|icu" <<<"$1"' _ "$needed"
# Full Foundation would link ICU statically: its data blob (icudtNN) alone is 30+ MB.
check "no ICU linked in statically (no icudt data, no ucol_/ubrk_ strings)" \
  bash -c '! grep -aEq "icudt[0-9]+|ucol_open|ubrk_open" "$1"' _ "$bin"
check "stripped binary is at most 20 MB ($(stat -c %s "$bin") bytes)" [ "$(stat -c %s "$bin")" -le $((20 * 1024 * 1024)) ]
check "stripped: no .debug_* or .symtab section" bash -c '! readelf -S -W "$1" | grep -Eq "\.debug_|\.symtab"' _ "$bin"
case "$arch" in
  amd64) machine='X86-64' ;; arm64) machine='AArch64' ;; armhf) machine='ARM' ;;
  riscv64) machine='RISC-V' ;; *) machine= ;;
esac
if [ -n "$machine" ]; then
  check "ELF machine matches Architecture: $arch" bash -c 'readelf -h "$1" | grep -q "Machine:.*$2"' _ "$bin" "$machine"
fi

if [ "$arch" = "$(dpkg --print-architecture)" ]; then
  ldd_out=$(env -i PATH=/usr/bin:/bin ldd "$bin" 2>&1)
  echo "$ldd_out" | sed 's/^/  ldd: /'
  check "ldd: every library found" bash -c '! grep -q "not found" <<<"$1"' _ "$ldd_out"
  check "ldd: every library from /lib or /usr/lib (none from a toolchain)" bash -c '
    paths=$(grep -o "/[^ ]*" <<<"$1" | grep -v "^$2$")
    [ -n "$paths" ] && ! grep -Ev "^/(usr/)?lib(64|32|x32)?/" <<<"$paths"' _ "$ldd_out" "$bin"

  # Run it where no toolchain can be found: each toolchain directory under an empty tmpfs, in a
  # private mount namespace (nothing changes outside it).
  hide=(/opt/swift)
  if command -v swift >/dev/null; then
    toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")
    [ "$toolchain" = /opt/swift ] || hide+=("$toolchain")
  fi
  run_hidden() {
    unshare -m bash -c '
      bin=$1; shift; n=$1; shift; dirs=("${@:1:$n}"); shift "$n"
      for d in "${dirs[@]}"; do [ -d "$d" ] && { mount -t tmpfs none "$d" || exit 98; }; done
      for d in "${dirs[@]}"; do [ -d "$d" ] && [ -n "$(ls -A "$d")" ] && { echo "$d still visible" >&2; exit 99; }; done
      exec env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$bin" "$@"
    ' _ "$bin" "${#hide[@]}" "${hide[@]}" "$@" 2>&1
  }
  echo "toolchain hidden under an empty tmpfs: ${hide[*]}"
  version_out=$(run_hidden --version); rc=$?
  check "carouseld --version runs with the toolchain hidden (exit $rc: $version_out)" [ "$rc" = 0 ]
  check_out=$(run_hidden check --config "$root/etc/carouseld"); rc=$?
  check "carouseld check of the packaged /etc/carouseld, toolchain hidden (exit $rc)" [ "$rc" = 0 ]
  [ "$rc" = 0 ] || echo "$check_out" | sed 's/^/  /'
  render_out=$(run_hidden render --config "$root/etc/carouseld" --size 320x200 --at 0 --out "$tmp/frames"); rc=$?
  check "carouseld render of the packaged config, toolchain hidden (exit $rc)" \
    bash -c '[ "$1" = 0 ] && ls "$2"/frame-*.png >/dev/null 2>&1' _ "$rc" "$tmp/frames"
  [ "$rc" = 0 ] || echo "$render_out" | sed 's/^/  /'
else
  echo "note: $arch package on a $(dpkg --print-architecture) host: ldd and the runs are skipped"
  version_out=
fi

# --- version: file name = control = carouseld --version = source = debian/changelog ----------
version=$(field Version)
name=$(basename "$deb")
check "file name is carouseld_${version}_${arch}.deb" [ "$name" = "carouseld_${version}_${arch}.deb" ]
if [ -n "$version_out" ]; then
  check "carouseld --version ($version_out) equals the package version ($version)" [ "$version_out" = "$version" ]
fi
if [ -f "$repo/Sources/carouseld/Carouseld.swift" ] && [ -f "$repo/debian/changelog" ]; then
  source_version=$(sed -n 's/^ *static let version = "\(.*\)".*/\1/p' "$repo/Sources/carouseld/Carouseld.swift")
  changelog_version=$(cd "$repo" && dpkg-parsechangelog -S Version)
  check "Carouseld.swift ($source_version), debian/changelog ($changelog_version) and the package agree" \
    bash -c '[ "$1" = "$2" ] && [ "$2" = "$3" ]' _ "$source_version" "$changelog_version" "$version"
fi

# --- lintian: no error; overrides only for warnings and info ----------------------------------
if command -v lintian >/dev/null; then
  lint=$(lintian --display-info --pedantic --show-overrides "$deb" 2>&1 | grep -v '^running with root privileges')
  echo "lintian $(lintian --print-version):"
  grep -E '^[EWIPXO]:' <<<"$lint" | sed 's/^/  /'
  errors=$(grep -c '^E:' <<<"$lint")
  echo "  ($(grep -c '^W:' <<<"$lint") warnings, $(grep -c '^I:' <<<"$lint") info, $(grep -c '^O:' <<<"$lint") overridden)"
  check "lintian: no E: ($errors)" [ "$errors" = 0 ]
  overrides=$root/usr/share/lintian/overrides/carouseld
  bad=
  if [ -f "$overrides" ]; then
    for tag in $(grep -Ev '^\s*(#|$)' "$overrides" | sed 's/^carouseld: *//' | awk '{print $1}' | sort -u); do
      lintian-explain-tags "$tag" 2>/dev/null | grep -q 'Visibility: error' && bad="$bad $tag"
    done
  fi
  check "lintian: no override for an error${bad:+ (overridden:$bad)}" [ -z "$bad" ]
else
  fail "lintian is not installed (apt-get install lintian)"
fi

# --- sizes -------------------------------------------------------------------------------------
echo "size: package $(stat -c %s "$deb") bytes ($(du -h "$deb" | cut -f1)), binary $(stat -c %s "$bin") bytes ($(du -h "$bin" | cut -f1)), Installed-Size $(field Installed-Size) KiB"

echo "package: $passed passed, $failed failed"
[ "$failed" = 0 ]
