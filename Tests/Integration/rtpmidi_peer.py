#!/usr/bin/env python3
"""An RTP-MIDI peer that no one here wrote: pymidi's server (PyPI), which accepts the
sessions others start. Prints one line per event, flushed:
  connected NAME | disconnected NAME | note_on CH KEY VEL | note_off CH KEY VEL
  | control_mode_change CH CONTROLLER VALUE | other COMMAND
Usage: rtpmidi_peer.py HOST:PORT   (the data port is PORT + 1)"""
import logging
import sys

from pymidi import server


class Printer(server.Handler):
    def on_peer_connected(self, peer):
        print("connected", peer.name, flush=True)

    def on_peer_disconnected(self, peer):
        print("disconnected", peer.name, flush=True)

    def on_midi_commands(self, peer, command_list):
        for entry in command_list:
            command, params = entry.command, entry.params
            if command in ("note_on", "note_off"):
                print(command, entry.channel, int(params.key), params.velocity, flush=True)
            elif command == "control_mode_change":
                print(command, entry.channel, params.controller, params.value, flush=True)
            else:
                print("other", command, flush=True)


def main():
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    peer = server.Server.from_bind_addrs([sys.argv[1]])
    peer.add_handler(Printer())
    peer.serve_forever()


if __name__ == "__main__":
    main()
