#!/usr/bin/python3
"""Floods carouseld's control socket: 1000 malformed requests on one connection, then 100
clients connected at once, each sending malformed lines and a status request. Prints how the
daemon answered; exits 1 if an answer was missing or not JSON.
usage: flood_control.py SOCKET"""
import json
import socket
import sys

path = sys.argv[1]


def lines(sock, count, timeout=20.0):
    sock.settimeout(timeout)
    data = b""
    while data.count(b"\n") < count:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return [json.loads(line) for line in data.split(b"\n") if line]


one = socket.socket(socket.AF_UNIX)
one.connect(path)
garbage = [b"dance", b"goto", b"screen purple", b"\xff\xfe", b"next now", b"x" * 5000, b"", b"goto -1", b"{}", b"status status"]
# 100 at a time, reading the answers in between: a client that never reads is dropped once
# the socket's buffer is full (the daemon never waits for a client).
answers = []
for batch in range(10):
    one.sendall(b"".join(garbage[(batch * 100 + i) % len(garbage)] + b"\n" for i in range(100)))
    answers += lines(one, 100)
one.sendall(b"status\n")
answers += lines(one, 1)
errors = sum(1 for a in answers if a.get("error"))
ok = answers[-1].get("ok") if answers else False
print(f"one connection: {len(answers)} answers to 1001 requests, {errors} errors, the last status ok={ok}")
one.close()

clients = []
for _ in range(100):
    c = socket.socket(socket.AF_UNIX)
    c.connect(path)
    clients.append(c)
busy = served = reset = broken = 0
for c in clients:
    try:
        c.sendall(b"bogus\n" * 10 + b"status\n")
    except OSError:
        pass   # a refused client may already be closed
for c in clients:
    try:
        got = lines(c, 11, timeout=10)
    except ConnectionResetError:
        # Refused: a request that reached the daemon just as it closed the connection turns its
        # "busy" line into a reset. Still refused, never served in part.
        reset += 1
        c.close()
        continue
    except (OSError, ValueError):
        got = []
    if got and "busy" in (got[0].get("error") or ""):
        busy += 1
    elif len(got) == 11 and got[-1].get("ok"):
        served += 1
    else:
        broken += 1
    c.close()
print(f"100 clients at once: {served} served in full, {busy} told busy, {reset} refused by a reset, {broken} broken")
sys.exit(0 if len(answers) == 1001 and errors == 1000 and ok and broken == 0 and served >= 16
         and served + busy + reset == 100 else 1)
