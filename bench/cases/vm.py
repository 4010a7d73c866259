"""Cases measured in scripts/vm-tests' bochs boot under QEMU (TCG): one boot runs only the
first-picture race and the overlay-plane checks (BOCHS_ONLY), each of their measurements
--runs times in the guest, A and B in turn (CPU_ROUNDS, RACE_ROUNDS), and
tests/vm/bench_samples.py turns what the guest left into a samples file. Every VM case reads
that one boot (a shared command), so the whole group costs one boot of about 20 minutes.

Figures here are the emulator's as much as the daemon's: ratios against fbi in the same boot
are what they mean; an absolute time is TCG's. Where TCG makes a figure meaningless (the look
with emphasis: pixman's SIMD), its goal is printed, and judged natively (host-emphasis-compose).
"""
from bench.case import Case, Command
from bench.samples import samples_parser

# A boot with everything in it but the other guest scripts; vm-tests' own PASS/FAIL lines for
# what it skipped (the fade's and the pan's screendumps) make it exit 1, which is accepted: the
# figures decide, and a series missing or timed out fails the cases that read it.
BOOT = r'''
set -u
cd "$1"
deb=$(ls -t dist/carouseld_*_"$(dpkg --print-architecture)".deb 2>/dev/null | head -1)
# The race runs the package's binary when there is one (Swift's runtime linked in, as a box has it)
[ -z "$deb" ] || export CAROUSELD_PACKAGE_DEB=$PWD/$deb
echo "bench vm: package ${deb:-none (the release build races)}, $2 rounds" >&2
VM_ONLY=bochs BOCHS_ONLY="race planes" CPU_ROUNDS=$2 RACE_ROUNDS=$2 SOAK_SECONDS= \
  scripts/vm-tests > .build/bench-vm.log 2>&1
status=$?
/usr/bin/python3 tests/vm/bench_samples.py .build/vm/display > "$3"
echo "bench vm: vm-tests exited $status; its log: .build/bench-vm.log" >&2
'''


def boot_case(name, a, b=None, summary=""):
    def commands(ctx):
        argv = ["bash", "-c", BOOT, "bench-vm", str(ctx.repo), str(ctx.runs), "{result}"]
        timeout = 1800 + 300 * ctx.runs   # 20-25 minutes at 5 rounds; a hang ends it
        return [Command(argv, samples_parser(*[s for s in (a, b) if s]), timeout, ok_status=(0, 1), shared=True)]
    return Case(name=name, goal=name, where="vm", commands=commands, a=a, b=b, summary=summary, repeats_inside=True)


CASES = [
    boot_case("vm-planes-vs-fbi", "cpu-planes-ticks", "cpu-fbi",
              "CPU per page change on vkms's overlay planes (1920x1080) against fbi on its fbdev, by ticks"),
    boot_case("vm-planes-vs-composed", "cpu-planes", "cpu-composed",
              "CPU per page change on planes against the same look composed (schedstat)"),
    boot_case("vm-bochs-flat-vs-fbi", "bochs-flat", "bochs-fbi",
              "CPU per page change of the flat look, panned, on bochs against fbi, by ticks"),
    boot_case("vm-emphasis-vs-fbi", "bochs-emphasis", "bochs-fbi",
              "CPU per page change of the look with emphasis, composed, on bochs against fbi"),
    boot_case("vm-first-picture-cold", "race-cold", "race-fbi",
              "exec -> first picture on screen, an empty card cache, against fbi (screendumps)"),
    boot_case("vm-first-picture-warm", "race-warm", "race-fbi",
              "exec -> first picture on screen, the kept frame, against fbi"),
    boot_case("vm-exec-to-main", "exec-main-cold",
              summary="exec -> main in the race (page cache warm, libraries on tmpfs)"),
    boot_case("vm-late-frames-stress-vkms", "late-vkms",
              summary="frames late by the daemon's part in a page change beside stress-ng --cpu 2, vkms planes"),
    boot_case("vm-late-frames-stress-bochs-panned", "late-bochs",
              summary="the same on bochs, the panned strip"),
]
