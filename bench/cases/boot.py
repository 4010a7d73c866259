"""The boot under real systemd (scripts/vm-boot-tests --only main: the package installed on a
bare Debian 12 root, booted under QEMU with systemd as PID 1): how far the first frame comes
ahead of getty.target, --runs boots in one run of the script (the root copied and the package
installed once, each boot from a fresh copy of it). tests/vm/boot-guest.sh appends the figures
to boot.txt in the exchange directory. Under TCG on a shared host the margin moved from 0.65 s
ahead to 0.41 s behind between boots of the same code, which is why CI prints it and this
repeats it."""
from bench.case import Case, Command
from bench.samples import samples_parser

BOOT = r'''
set -u
cd "$1"
deb=$(ls -t dist/carouseld_*_"$(dpkg --print-architecture)".deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "bench boot: no package in dist/ (scripts/package)" >&2; exit 2; }
rm -f .build/vm-boot/xchg/boot.txt
BOOT_FIGURES_ONLY=$3 scripts/vm-boot-tests --deb "$deb" --only main > .build/bench-boot.log 2>&1
echo "bench boot: vm-boot-tests exited $? ($deb); its log: .build/bench-boot.log" >&2
cp .build/vm-boot/xchg/boot.txt "$2"
'''


def commands(ctx):
    argv = ["bash", "-c", BOOT, "bench-boot", str(ctx.repo), "{result}", str(ctx.runs)]
    return [Command(argv, samples_parser("boot-first-frame-ahead-of-getty"), 600 + 180 * ctx.runs, ok_status=(0, 1))]


CASES = [
    Case(name="vm-first-frame-before-getty", goal="vm-first-frame-before-getty", where="vm", commands=commands,
         a="boot-first-frame-ahead-of-getty", repeats_inside=True,
         summary="seconds from the first frame on screen to getty.target, Debian 12 booted by systemd"),
]
