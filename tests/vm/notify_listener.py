#!/usr/bin/env python3
"""Plays systemd's side of sd_notify: binds a unix datagram socket at PATH and writes each
message it receives to OUT as "MONOTONIC_SECONDS MESSAGE" (newlines in a message as \\n),
until killed. usage: notify_listener.py PATH OUT"""
import os
import socket
import sys
import time

path, out = sys.argv[1], sys.argv[2]
if os.path.exists(path):
    os.unlink(path)
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(path)
with open(out, "w", buffering=1) as log:
    log.write(f"{time.monotonic():.3f} LISTENING\n")
    while True:
        message = sock.recv(4096).decode(errors="replace").replace("\n", "\\n")
        log.write(f"{time.monotonic():.3f} {message}\n")
