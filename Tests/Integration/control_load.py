#!/usr/bin/env python3
"""MIDI streamed through the hub while control clients load it (issue 38's proof).

    control_load.py SOCKET RAWMIDI DUMP_FILE SKIP_LINES HUB_CLIENT PATCH SECONDS TRANSPOSE

Writes note-on/note-off pairs into RAWMIDI (a snd-virmidi device the hub reads through its
rules) at 1,000 messages a second, each note and velocity naming its place in the stream,
while four clients loop on the control socket: nodes.list, ports.list, mappings.set with 200
mappings, and patch.load of PATCH (the setup already in force). Then reads what aseqdump
wrote to DUMP_FILE after its first SKIP_LINES lines from the hub's port HUB_CLIENT:1 and compares it with what was sent
(transposed by TRANSPOSE). Prints one line per client (`client=NAME requests=N failed=N`)
and `sent=N received=N in-order=N`; exits 1 when a message is missing or out of order or a
request failed or went unanswered.
"""
import json
import os
import re
import socket
import sys
import threading
import time

socket_path, rawmidi, dump_file, skip, hub_client, patch, seconds, transpose = sys.argv[1:9]
skip, seconds, transpose = int(skip), float(seconds), int(transpose)
stop = threading.Event()
MAPPINGS = "\n".join(f"- {{ control: cc {cc}, channel: {channel}, to: up.semitones }}"
                     for channel in (1, 2) for cc in range(100))
REQUESTS = {
    "nodes.list": {"request": "nodes.list"},
    "ports.list": {"request": "ports.list"},
    "mappings.set": {"request": "mappings.set", "params": {"text": MAPPINGS}},
    "patch.load": {"request": "patch.load", "params": {"path": patch}},
}
results = {}


def client(name):
    connection = socket.socket(socket.AF_UNIX)
    connection.connect(socket_path)
    connection.settimeout(60)
    answers = connection.makefile("rb")
    requests = failed = 0
    while not stop.is_set():
        requests += 1
        request = dict(REQUESTS[name], id=requests)
        connection.sendall(json.dumps(request).encode() + b"\n")
        while True:
            line = answers.readline()
            if not line:
                failed += 1  # the daemon closed the connection: unanswered
                stop.set()
                break
            answer = json.loads(line)
            if answer.get("id") == requests:
                if not answer.get("ok"):
                    failed += 1
                    print(f"{name}: {answer}", file=sys.stderr)
                break
        if name == "patch.load":
            time.sleep(0.05)
    results[name] = (requests, failed)


def stream():
    """note-on/note-off pairs, 1,000 messages a second, in bursts of ten every 10 ms"""
    sent = []
    device = os.open(rawmidi, os.O_WRONLY)
    due = start = time.monotonic()
    index = 0
    while time.monotonic() - start < seconds:
        burst = bytearray()
        for _ in range(5):
            note, velocity = 10 + index % 100, 1 + (index // 100) % 127
            burst += bytes([0x90, note, velocity, 0x80, note, 0])
            sent += [("on", note + transpose, velocity), ("off", note + transpose, 0)]
            index += 1
        os.write(device, burst)
        due += 0.01
        time.sleep(max(0.0, due - time.monotonic()))
    os.close(device)
    return sent


clients = [threading.Thread(target=client, args=(name,)) for name in REQUESTS]
for thread in clients:
    thread.start()
time.sleep(0.5)  # the clients are under way before the first note
sent = stream()
time.sleep(0.5)
stop.set()
for thread in clients:
    thread.join(120)

pattern = re.compile(rf"^ *{hub_client}:1 +Note (on|off) +0, note (\d+)(?:, velocity (\d+))?$")
received = []
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    with open(dump_file) as dump:
        received = [(m[1], int(m[2]), int(m[3] or 0) if m[1] == "on" else 0)
                    for m in map(pattern.match, dump.readlines()[skip:]) if m]
    if len(received) >= len(sent):
        break
    time.sleep(0.2)
in_order = sum(1 for a, b in zip(sent, received) if a == b)
ok = True
for name in REQUESTS:
    requests, failed = results.get(name, (0, 1))
    print(f"client={name} requests={requests} failed={failed}")
    ok = ok and failed == 0 and requests > 1
print(f"sent={len(sent)} received={len(received)} in-order={in_order}")
sys.exit(0 if ok and in_order == len(sent) == len(received) else 1)
