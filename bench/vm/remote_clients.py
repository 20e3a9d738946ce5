"""Clients of the web remote and of the control socket for bench/vm/remote.bench.sh.

  remote_clients.py move ENDPOINT WIDGET COUNT
      Two clients on ENDPOINT: one subscribed to parameter-changed, the other moving WIDGET
      (widgets.set) COUNT times, 50 ms apart (past the 30-a-second coalescing, so each move
      is sent at once). Times each move from its send to the watcher reading its event;
      prints "moves=N p50_us= p99_us= max_us=".
  remote_clients.py crowd ENDPOINT WIDGET COUNT RATE
      COUNT clients on ENDPOINT, each subscribed to every event and reading all it is sent;
      the first also moves WIDGET RATE times a second (0: never), so every client gets its
      parameter-changed events. Prints "ready" once all are subscribed, and on SIGTERM
      "clients=N events=N dropped=N moves=N" (dropped: what the daemon's dropped events
      counted).

ENDPOINT is a WebSocket URL (ws://HOST:PORT/ws?token=TOKEN, opened with the page's own
Origin) or, for move, the path of the control socket. Uses Debian's python3-websocket.
"""
import json
import select
import signal
import socket
import statistics
import sys
import time
import urllib.parse

import websocket


class WebSocketClient:
    """One WebSocket to the remote: a JSON object per text frame."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.connection = websocket.create_connection(url, origin=f"http://{parts.netloc}", timeout=60)

    def fileno(self):
        return self.connection.sock.fileno()

    def send(self, request):
        self.connection.send(json.dumps(request))

    def receive(self):
        """The next message; blocks until one is there."""
        return json.loads(self.connection.recv())


class SocketClient:
    """One connection to the control socket: a JSON object per line."""

    def __init__(self, path):
        self.connection = socket.socket(socket.AF_UNIX)
        self.connection.connect(path)
        self.lines = self.connection.makefile("rb")

    def fileno(self):
        return self.connection.fileno()

    def send(self, request):
        self.connection.sendall(json.dumps(request).encode() + b"\n")

    def receive(self):
        """The next message; blocks until one is there (a whole line: select sees the socket)."""
        return json.loads(self.lines.readline())


def connect(endpoint):
    return WebSocketClient(endpoint) if endpoint.startswith("ws") else SocketClient(endpoint)


def request(client, number, name, params=None):
    """Sends a request and reads until its answer (events before it are skipped)."""
    client.send({"id": number, "request": name, "params": params or {}})
    while True:
        message = client.receive()
        if message.get("id") == number:
            if not message.get("ok"):
                sys.exit(f"remote_clients: {name} failed: {message}")
            return message


def move(endpoint, widget, count):
    watcher, mover = connect(endpoint), connect(endpoint)
    request(watcher, 1, "subscribe", {"events": ["parameter-changed"]})
    times = []
    for number in range(1, count + 1):
        value = number % 24 - 12  # -12…11, never the value before
        due = time.monotonic() + 0.05
        sent = time.monotonic_ns()
        mover.send({"id": number, "request": "widgets.set", "params": {"widget": widget, "value": value}})
        while True:
            event = watcher.receive()
            if event.get("event") == "parameter-changed" and event.get("value") == value:
                times.append((time.monotonic_ns() - sent) / 1000)
                break
        while mover.receive().get("id") != number:
            pass
        time.sleep(max(0, due - time.monotonic()))
    print_times(times)


def print_times(times):
    """Prints "moves=N p50_us= p99_us= max_us=" for the move times `times` (µs)."""
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"moves={len(times)} p50_us={statistics.median(times):.0f} p99_us={p99:.0f} max_us={times[-1]:.0f}", flush=True)


def crowd(endpoint, widget, count, rate):
    if not endpoint.startswith("ws"):  # select() cannot see lines a SocketClient has buffered
        sys.exit("remote_clients: crowd takes a WebSocket URL")
    clients = [connect(endpoint) for _ in range(count)]
    for client in clients:
        request(client, 1, "subscribe")
    counts = {"events": 0, "dropped": 0, "moves": 0}

    def stop(*_):
        print(f"clients={count} events={counts['events']} dropped={counts['dropped']} moves={counts['moves']}", flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print("ready", flush=True)
    due = time.monotonic()
    while True:
        wait = max(0, due - time.monotonic()) if rate > 0 else None
        readable, _, _ = select.select(clients, [], [], wait)
        for client in readable:
            message = client.receive()
            if "event" in message:
                counts["events"] += 1
                counts["dropped"] += message.get("count", 0) if message["event"] == "dropped" else 0
        if rate > 0 and time.monotonic() >= due:
            counts["moves"] += 1
            value = counts["moves"] % 24 - 12
            clients[0].send({"id": counts["moves"] + 1, "request": "widgets.set", "params": {"widget": widget, "value": value}})
            due += 1 / rate


if __name__ == "__main__":
    command, endpoint, widget = sys.argv[1:4]
    if command == "move":
        move(endpoint, widget, int(sys.argv[4]))
    elif command == "crowd":
        crowd(endpoint, widget, int(sys.argv[4]), float(sys.argv[5]))
    else:
        sys.exit(f"remote_clients: unknown command '{command}' (fix: move or crowd)")
