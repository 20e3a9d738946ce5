"""OSC surfaces and control-socket clients for bench/vm/osc.bench.sh.

  osc_surfaces.py move osc|socket OSC_PORT SOCKET NODE PARAMETER COUNT
      A control-socket client subscribed to parameter-changed watches; the mover sets NODE's
      PARAMETER COUNT times, 50 ms apart (past the 30-a-second coalescing), as an OSC message
      over UDP to the daemon's OSC server, or as parameters.set on the control socket (the
      anchor). Times each move from its send to the watcher reading its event; prints
      "moves=N p50_us= p99_us= max_us=".
  osc_surfaces.py sweep OSC_PORT NODE PARAMETER COUNT RATE
      COUNT surfaces, each its own UDP socket (so each a registered surface, sent every
      change), each setting NODE's PARAMETER RATE times a second and reading what it is sent.
      Prints "ready" once all have sent, and on SIGTERM "surfaces=N sent=N received=N seconds=S".

Messages are written by hand (a few struct calls): python-osc's builder would cost more per
message than the daemon's whole path under emulation.
"""
import select
import signal
import socket
import struct
import sys
import time

from remote_clients import SocketClient, print_times, request


def padded(text):
    data = text.encode() + b"\0"
    return data + b"\0" * (-len(data) % 4)


def float_message(address, value):
    return padded(address) + padded(",f") + struct.pack(">f", value)


def osc_name(name):
    return name.replace(" ", "_")


def move(path, port, control, node, parameter, count):
    watcher = SocketClient(control)
    request(watcher, 1, "subscribe", {"events": ["parameter-changed"]})
    mover = SocketClient(control) if path == "socket" else socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    address = f"/node/{osc_name(node)}/{osc_name(parameter)}"
    times = []
    for number in range(1, count + 1):
        value = number % 24 - 12  # -12…11, never the value before
        due = time.monotonic() + 0.05
        sent = time.monotonic_ns()
        if path == "socket":
            mover.send({"id": number, "request": "parameters.set",
                        "params": {"node": node, "parameter": parameter, "value": value}})
        else:
            mover.sendto(float_message(address, value), ("127.0.0.1", port))
        while True:
            event = watcher.receive()
            if event.get("event") == "parameter-changed" and event.get("value") == value:
                times.append((time.monotonic_ns() - sent) / 1000)
                break
        if path == "socket":
            while mover.receive().get("id") != number:
                pass
        time.sleep(max(0, due - time.monotonic()))
    print_times(times)


def sweep(port, node, parameter, count, rate):
    surfaces = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(count)]
    for surface in surfaces:
        surface.setblocking(False)
    address = f"/node/{osc_name(node)}/{osc_name(parameter)}"
    messages = [float_message(address, value % 24 - 12) for value in range(24)]
    counts = {"sent": 0, "received": 0}
    started = time.monotonic()

    def stop(*_):
        print(f"surfaces={count} sent={counts['sent']} received={counts['received']} "
              f"seconds={time.monotonic() - started:.1f}", flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    due = time.monotonic()
    ready = False
    while True:
        for index, surface in enumerate(surfaces):
            surface.sendto(messages[(counts["sent"] + index) % 24], ("127.0.0.1", port))
            counts["sent"] += 1
        if not ready:
            print("ready", flush=True)
            ready = True
        due += 1 / rate
        while True:
            readable, _, _ = select.select(surfaces, [], [], max(0, due - time.monotonic()))
            if not readable:
                break
            for surface in readable:
                try:
                    while surface.recv(2048):
                        counts["received"] += 1
                except BlockingIOError:
                    pass
        if time.monotonic() - due > 1:  # far behind: start again from now rather than burst
            due = time.monotonic()


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "move":
        path, port, control, node, parameter, count = sys.argv[2:8]
        move(path, int(port), control, node, parameter, int(count))
    elif command == "sweep":
        port, node, parameter, count, rate = sys.argv[2:7]
        sweep(int(port), node, parameter, int(count), float(rate))
    else:
        sys.exit(f"osc_surfaces: unknown command '{command}' (fix: move or sweep)")
