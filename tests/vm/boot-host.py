#!/usr/bin/python3
"""Host side of scripts/vm-boot-tests: answers the booted guest's requests.

The guest and the host share one directory over virtio-9p (XCHG here, /xchg in the guest). 9p
directories cannot hold sockets or fifos, so a request is a file XCHG/req/ID.req (one argument
a line); the answer is ID.out (text) and then ID.done (the exit status). Paths are relative to
XCHG.
  screendump FILE              QMP screendump (PPM) of the display into XCHG/FILE
  compare FILE REF [OPTS...]   tests/vm/imgcmp.py compare (exit 0 when they match)
  compare-any FILE REF...      0 when FILE matches one of the REFs (prints which)
  console FILE                 tests/vm/imgcmp.py console: a text console's picture
  cut N                        the power cut of boot N: QMP quit at a random instant 0.5-8.5 s
                               from now (seeded by CUT_SEED and N; what the guest had not written out is
                               lost); XCHG/cut-sent says when
  expected DIR OUT             the screen the daemon must show for the config copied into
                               XCHG/DIR (carouseld.conf, playlists, images/, last-good-config):
                               `carouseld render` at 0 s of DIR when `carouseld check` passes,
                               else of the last good copy (tests/vm/last_good.py); prints which
  watch-end LABEL splash|picture|nosplash AGO REF...
                               with SCREEN_WATCH=SOCKET (a second QMP monitor, for a screendump
                               every 0.1 s from QEMU's start, tests/vm/screen_watch.py): stops the
                               dumps and judges them, the REFs being the pictures the daemon may
                               show first; AGO: how many seconds before the request the kernel's
                               first frame buffer device came (the firmware's screen until then),
                               or - when the guest did not find it

usage: boot-host.py XCHG QMP-SOCKET      (runs until killed)
"""
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import threading
import time

from screen_watch import ScreenWatch

HERE = os.path.dirname(os.path.abspath(__file__))
IMGCMP = os.path.join(HERE, "imgcmp.py")
LAST_GOOD = os.path.join(HERE, "last_good.py")
# The package's binary on the host (vm-boot-tests), for the power cuts' references.
CAROUSELD = os.environ.get("CAROUSELD_BIN", "carouseld")


def qmp(sock_path, cmd, args=None):
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(30)
    sock.connect(sock_path)
    f = sock.makefile("rw")
    json.loads(f.readline())  # greeting
    reply = None
    for c, a in (("qmp_capabilities", None), (cmd, args)):
        f.write(json.dumps({"execute": c, **({"arguments": a} if a else {})}) + "\n")
        f.flush()
        while "event" in (reply := json.loads(f.readline())):
            pass
        if "error" in reply:
            raise RuntimeError(f"qmp {c}: {reply['error']}")
    sock.close()
    return reply.get("return")


def imgcmp(a, b, opts):
    p = subprocess.run([sys.executable, IMGCMP, "compare", a, b, *opts], capture_output=True, text=True)
    return p.returncode, (p.stdout + p.stderr).strip()


def expected(conf, out):
    """The render of what the daemon must show for the config directory copied to CONF."""
    run = lambda *a: subprocess.run([CAROUSELD, *a], capture_output=True, text=True)
    source, which = conf, "the config on disk"
    checked = run("check", "--config", conf, "--size", "1280x800")
    # A picture that fails to decode (copied in place, cut short) is skipped, as the daemon
    # skips it; only a config that does not load sends the daemon to its last good copy.
    problems = [l for l in (checked.stdout + checked.stderr).splitlines() if "error:" in l and "error: skipping" not in l]
    if problems:
        good = conf + "-last-good"
        shutil.rmtree(good, ignore_errors=True)
        os.makedirs(good)
        p = subprocess.run([sys.executable, LAST_GOOD, "unpack", os.path.join(conf, "last-good-config"), good],
                           capture_output=True, text=True)
        if p.returncode != 0:
            return 1, f"the config on disk is invalid ({problems[0]}) and no last good copy: {p.stdout.strip()}"
        # Its relative paths are the real directory's: the pictures are there.
        os.symlink(os.path.join(conf, "images"), os.path.join(good, "images"))
        source, which = good, "the last good config (the one on disk is invalid)"
    shutil.rmtree(out, ignore_errors=True)
    rendered = run("render", "--config", source, "--size", "1280x800", "--at", "0", "--out", out)
    if rendered.returncode != 0:
        return 1, f"render of {which}: {rendered.stderr.strip()[-300:]}"
    return 0, which


def handle(xchg, qmp_sock, argv):
    path = lambda rel: os.path.join(xchg, rel)
    if argv[0] == "screendump":
        out = path(argv[1])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if os.path.exists(out):
            os.unlink(out)
        qmp(qmp_sock, "screendump", {"filename": out})
        for _ in range(100):
            if os.path.exists(out) and os.path.getsize(out) > 0:
                return 0, ""
            time.sleep(0.05)
        return 1, f"screendump: {out} not written"
    if argv[0] == "compare":
        return imgcmp(path(argv[1]), path(argv[2]), argv[3:])
    if argv[0] == "console":
        p = subprocess.run([sys.executable, IMGCMP, "console", path(argv[1])], capture_output=True, text=True)
        return p.returncode, (p.stdout + p.stderr).strip()
    if argv[0] == "resembles":
        # A screen that matched no reference: how far it is from each of some others.
        found = []
        for ref in argv[2:]:
            p = subprocess.run([sys.executable, IMGCMP, "mad", path(argv[1]), path(ref)], capture_output=True, text=True)
            found.append(f"{os.path.basename(ref)}: {(p.stdout + p.stderr).strip()}")
        return 0, "; ".join(found)
    if argv[0] == "compare-any":
        detail = ""
        for ref in argv[2:]:
            rc, detail = imgcmp(path(argv[1]), path(ref), [])
            if rc == 0:
                return 0, f"{os.path.basename(ref)}: {detail}"
        return 1, f"none of {len(argv) - 2} references (last: {detail})"
    if argv[0] == "cut":
        # CUT_SEED (scripts/vm-boot-tests: the commit) moves the instants from one commit to
        # the next, and a failed cut is made again with the seed it printed.
        seed = os.environ.get("CUT_SEED", "")
        delay = random.Random(f"power cut {seed} {argv[1]}").uniform(0.5, 8.5)
        print(f"boot-host: power cut of boot {argv[1]} in {delay:.2f} s (CUT_SEED={seed})", flush=True)

        def quit_now():
            with open(path("cut-sent"), "w") as f:
                f.write(f"{time.time():.3f}\n")
            qmp(qmp_sock, "quit")
        threading.Timer(delay, quit_now).start()
        return 0, f"the power goes in {delay:.2f} s"
    if argv[0] == "expected":
        return expected(path(argv[1]), path(argv[2]))
    if argv[0] == "watch-end":
        if WATCH is None:
            return 1, "FAIL the screen was not watched (no SCREEN_WATCH for this boot)"
        # argv[3]: how many seconds before the request the kernel's first frame buffer device
        # came ("-": not found); the request took about one poll (50 ms) to be read.
        driver_at = None if argv[3] == "-" else WATCH.elapsed() - float(argv[3])
        return WATCH.end(argv[1], [path(r) for r in argv[4:]], argv[2], driver_at)
    if argv[0] == "jit":
        # How often TCG flushed its translation cache: a flush stalls the whole guest.
        info = qmp(qmp_sock, "human-monitor-command", {"command-line": "info jit"})
        flushes = re.search(r"TB flush count +(\d+)", info)
        size = re.search(r"gen code size +(\d+)/(\d+)", info)
        if not flushes or not size:
            return 1, f"info jit: no flush count or code size in {info!r}"
        return 0, f"{flushes[1]} flushes; {int(size[1]) >> 20} of {int(size[2]) >> 20} MiB used"
    return 2, f"unknown request {argv[0]}"


WATCH = None


def main():
    global WATCH
    xchg, qmp_sock = sys.argv[1], sys.argv[2]
    if os.environ.get("SCREEN_WATCH"):
        WATCH = ScreenWatch(os.environ["SCREEN_WATCH"], os.path.join(xchg, "watch"))
    req = os.path.join(xchg, "req")
    os.makedirs(req, exist_ok=True)
    while True:
        for name in sorted(os.listdir(req)):
            if not name.endswith(".req"):
                continue
            base = os.path.join(req, name[:-4])
            try:
                with open(base + ".req") as f:
                    argv = f.read().splitlines()
                os.unlink(base + ".req")
                rc, text = handle(xchg, qmp_sock, argv)
            except Exception as e:  # an answer in any case: the guest waits for it
                rc, text = 1, f"host: {e}"
            with open(base + ".out", "w") as f:
                f.write(text + "\n" if text else "")
            with open(base + ".tmp", "w") as f:
                f.write(f"{rc}\n")
            os.rename(base + ".tmp", base + ".done")
        time.sleep(0.05)


if __name__ == "__main__":
    main()
