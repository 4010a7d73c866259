"""What the screen shows from QEMU's start to the first picture (issue 46), for boot-host.py.

A thread takes a QMP screendump every 0.1 s from the moment QEMU's monitor answers, and sorts
each at once (full size: text is only seen there), keeping a thumbnail for the end:
  no-signal  a size other than the screen's final one before the screen got it (QEMU's
             "display not active" placeholder: what a monitor shows as no signal)
  firmware   the firmware's text (SeaBIOS's "Booting from ROM...", its cursor) and what comes
             before it: not the box's to choose, and not judged. It ends when the kernel's first
             frame buffer device came (the guest's dmesg says when), or where the guest did not
             say, at the first black dump after that text; at a splash or a picture in any case.
             (SeaBIOS may clear the screen and show its cursor again: a black dump alone is no
             sign of the kernel.)
  black      every channel of every pixel at most BLACK
  console    the console's colours alone on black: fbcon's text or its cursor (the VGA
             palette, which fbcon uses at 32 bpp; a splash or a picture is anti-aliased and
             has far more colours)
  mode       a size other than the final one after the screen had that size (a modeset)
  splash / picture   anything else: a picture from the first dump like one of the references
             (or the last dump), the splash before it.
`end(label, refs, expect)` stops the thread and judges the issue's window, from the first
non-black dump to the first picture: none black, console or mode, and a picture seen (what comes
after the first picture is printed, not judged); `expect` "splash": a splash before it; "picture": no
splash at all (the operator's splash is the picture); "nosplash": either; "crashed": plymouthd
crashed, so only a change of mode is judged (and a picture seen).
"""
import json
import os
import socket
import tempfile
import threading
import time

from PIL import Image, ImageChops, ImageStat

INTERVAL = 0.1
BLACK = 16
THUMB = (160, 100)
# How close a thumbnail must be to a reference's to be that picture (mean of |difference|, 0-255).
SAME = 8.0
VGA = {(0, 0, 0), (170, 0, 0), (0, 170, 0), (170, 85, 0), (0, 0, 170), (170, 0, 170), (0, 170, 170),
       (170, 170, 170), (85, 85, 85), (255, 85, 85), (85, 255, 85), (255, 255, 85), (85, 85, 255),
       (255, 85, 255), (85, 255, 255), (255, 255, 255)}


class Monitor:
    """One QMP session, kept open for the dumps."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.settimeout(10)
        self.sock.connect(path)
        self.file = self.sock.makefile("rw")
        json.loads(self.file.readline())
        self.call("qmp_capabilities")

    def call(self, command, args=None):
        self.file.write(json.dumps({"execute": command, **({"arguments": args} if args else {})}) + "\n")
        self.file.flush()
        while "event" in (reply := json.loads(self.file.readline())):
            pass
        if "error" in reply:
            raise RuntimeError(f"qmp {command}: {reply['error']}")
        return reply.get("return")

    def close(self):
        self.sock.close()


def sort_dump(path):
    """(size, kind, thumbnail): kind is black, console or other (splash or picture)."""
    with Image.open(path) as image:
        image = image.convert("RGB")
        if max(high for _, high in image.getextrema()) <= BLACK:
            return image.size, "black", None
        colours = image.getcolors(len(VGA))
        if colours and all(c in VGA for _, c in colours) and max(colours)[1] == (0, 0, 0):
            return image.size, "console", image.copy()
        return image.size, "other", image.resize(THUMB, Image.BOX)


def thumbnail(path):
    with Image.open(path) as image:
        return image.convert("RGB").resize(THUMB, Image.BOX)


def alike(a, b):
    return a.size == b.size and sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3 <= SAME


class ScreenWatch:
    def __init__(self, qmp_path, keep_dir):
        self.qmp_path = qmp_path
        self.keep_dir = keep_dir   # where the dumps judged wrong are kept, as PNG
        self.dumps = []          # (seconds from the start, size, kind, thumbnail)
        self.stopping = threading.Event()
        self.start = time.monotonic()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        monitor = None
        while monitor is None and not self.stopping.is_set():
            try:
                monitor = Monitor(self.qmp_path)
            except OSError:
                time.sleep(0.05)
        fd, path = tempfile.mkstemp(suffix=".ppm", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
        os.close(fd)
        try:
            next_at = time.monotonic()
            while not self.stopping.is_set():
                taken = time.monotonic() - self.start
                monitor.call("screendump", {"filename": path})
                size, kind, image = sort_dump(path)
                # Console dumps are kept whole (to be saved if judged wrong), the first few only.
                if kind == "console" and sum(1 for d in self.dumps if d[2] == "console") >= 12:
                    image = None
                self.dumps.append((taken, size, kind, image))
                next_at += INTERVAL
                self.stopping.wait(max(0.0, next_at - time.monotonic()))
        except (OSError, RuntimeError, ValueError) as e:
            self.dumps.append((time.monotonic() - self.start, None, f"error: {e}", None))
        finally:
            os.unlink(path)
            if monitor:
                monitor.close()

    def elapsed(self):
        """Seconds since the watch started (QEMU's start), on the dumps' clock."""
        return time.monotonic() - self.start

    def end(self, label, refs, expect, driver_at=None):
        """Stops the dumps; (status, report lines) for the guest. `driver_at`: when the kernel's
        first frame buffer device came, on the dumps' clock (None: not known)."""
        self.stopping.set()
        self.thread.join(timeout=10)
        dumps = [d for d in self.dumps if d[1] is not None]
        errors = [d[2] for d in self.dumps if d[1] is None]
        if not dumps:
            return 1, f"FAIL {label}: no screendump was taken ({'; '.join(errors) or 'none'})"
        final_size = dumps[-1][1]
        pictures = [thumbnail(r) for r in refs] + [t for _, _, _, t in dumps[-1:] if t is not None]
        kinds, seen_size, firmware, firmware_text, lit, shown = [], False, True, False, False, False
        for taken, size, kind, thumb in dumps:
            if size != final_size:
                kind = "mode" if seen_size else "no-signal"
            else:
                seen_size = True
                if firmware and driver_at is not None:
                    firmware = kind != "other" and taken < driver_at
                elif firmware:
                    firmware_text = firmware_text or kind == "console"
                    firmware = kind != "other" and not (kind == "black" and firmware_text)
                if firmware:
                    kind = "firmware"
                elif kind == "other":
                    shown = shown or any(alike(thumb, p) for p in pictures)
                    kind = "picture" if shown else "splash"
            lit = lit or kind in ("console", "splash", "picture")
            kinds.append((taken, kind, lit))
        counts = {k: sum(1 for _, kind, _ in kinds if kind == k)
                  for k in ("no-signal", "firmware", "black", "console", "mode", "splash", "picture")}
        first_picture = next((t for t, k, _ in kinds if k == "picture"), float("inf"))
        # "crashed": plymouthd died on its own assertion and the console showed its backtrace
        # (the guest read it on tty1): what plymouth left is not judged, a change of mode is.
        wrong = [(t, k) for t, k, on in kinds if on and k in (("mode",) if expect == "crashed" else ("black", "console", "mode"))]
        bad = [(t, k) for t, k in wrong if t < first_picture]
        later = [(t, k) for t, k in wrong if t > first_picture]
        os.makedirs(self.keep_dir, exist_ok=True)
        for (t, k, _), (_, _, _, image) in zip(kinds, dumps):
            if k in ("console", "mode") and image is not None and len(os.listdir(self.keep_dir)) < 12:
                image.save(os.path.join(self.keep_dir, f"{label.replace(' ', '-')}-{t:.1f}-{k}.png"))
        first_lit = next((t for t, _, on in kinds if on), None)
        splash_t = [t for t, k, _ in kinds if k == "splash"]
        picture_t = [t for t, k, _ in kinds if k == "picture"]
        gaps = [b - a for (a, *_), (b, *_) in zip(dumps, dumps[1:])]
        median = sorted(gaps)[len(gaps) // 2] if gaps else 0
        lines = [f"  {label}: {len(dumps)} screendumps over {dumps[-1][0] - dumps[0][0]:.1f} s (every {median * 1000:.0f} ms, "
                 f"longest gap {max(gaps, default=0) * 1000:.0f} ms): " + ", ".join(f"{k} {n}" for k, n in counts.items())]
        if splash_t and picture_t:
            lines.append(f"  {label}: splash {splash_t[0]:.1f}-{splash_t[-1]:.1f} s, picture from {picture_t[0]:.1f} s "
                         f"(splash to picture {picture_t[0] - splash_t[-1]:.2f} s; times from QEMU's start)")
        elif picture_t:
            lines.append(f"  {label}: first non-black dump at {first_lit:.1f} s, picture from {picture_t[0]:.1f} s")
        lines.append(f"  {label}: the firmware's screen until "
                     + (f"{driver_at:.1f} s (the kernel's first frame buffer device)" if driver_at is not None
                        else "its text was cleared (the guest did not say when the kernel's frame buffer came)"))
        if bad:
            lines.append(f"  {label}: after the first non-black dump: " + ", ".join(f"{k} at {t:.1f} s" for t, k in bad[:8]))
        if later:
            lines.append(f"  {label}: after the first picture (not judged): {len(later)} dumps not the picture, "
                         f"{later[0][1]} from {later[0][0]:.1f} s to {later[-1][0]:.1f} s")
        ok = not bad and picture_t and not errors and {"splash": bool(splash_t), "picture": not splash_t}.get(expect, True)
        what = {"splash": "splash or picture", "picture": "the picture",
                "crashed": "in the screen's mode (plymouthd crashed: its splash and console not judged)"}.get(expect, "no black, text or cursor")
        lines.append(f"{'PASS' if ok else 'FAIL'} {label}: from the first non-black screendump to the picture, "
                     f"every one {what} ({len(bad)} not; splash {'seen' if splash_t else 'not seen'}, "
                     f"picture {'seen' if picture_t else 'not seen'}{'; ' + errors[0] if errors else ''})")
        return (0 if ok else 1), "\n".join(lines)
