#!/usr/bin/env python3
"""Compares what was sent (an aseqdump of the stream before the network) with what
arrived (an aseqdump at the far end). Prints, one per line:
  sent-notes N | received-notes N
  hanging N       notes the receiver held on when the sender had ended them: a note-on
                  for a key already sounding (it hung until then) plus keys sounding at the end
  sent-hanging N  the same count for the sent stream (the song's own overlaps)
  controllers-differing N   (channel, controller) pairs whose last value differs
  programs-differing N      channels whose last program differs
  out-of-order N  received note-ons outside the longest run in the sent order (the notes
                  of a lost packet replayed from the journal come channel by channel: a
                  recovery journal keeps each channel's order, not the order across channels)
  out-of-order-in-channels N   the same count taken on each channel alone, summed
Usage: stream_compare.py SENT RECEIVED"""
import re
import sys

EVENT = re.compile(r"^\s*\d+:\d+\s+(Note on|Note off|Control change|Program change)\s+(\d+), (.*)$")


def events(path):
    for line in open(path, encoding="utf-8", errors="replace"):
        match = EVENT.match(line)
        if not match:
            continue
        kind, channel, rest = match.group(1), int(match.group(2)), match.group(3)
        numbers = [int(n) for n in re.findall(r"\d+", rest)]
        yield kind, channel, numbers


def summary(path):
    sounding, hanging, ons, controllers, programs = set(), 0, [], {}, {}
    for kind, channel, numbers in events(path):
        if kind == "Note on" and numbers[1] > 0:
            key = (channel, numbers[0])
            if key in sounding:
                hanging += 1
            sounding.add(key)
            ons.append(key)
        elif kind in ("Note on", "Note off"):
            sounding.discard((channel, numbers[0]))
        elif kind == "Control change":
            controllers[(channel, numbers[0])] = numbers[1]
        else:
            programs[channel] = numbers[0]
    return ons, hanging + len(sounding), controllers, programs


def common_subsequence_length(a, b):
    previous = [0] * (len(b) + 1)
    for item in a:
        current = [0]
        for index, other in enumerate(b):
            current.append(previous[index] + 1 if item == other else max(previous[index + 1], current[index]))
        previous = current
    return previous[-1]


def main():
    sent_ons, sent_hanging, sent_controllers, sent_programs = summary(sys.argv[1])
    ons, hanging, controllers, programs = summary(sys.argv[2])
    print("sent-notes", len(sent_ons))
    print("received-notes", len(ons))
    print("hanging", hanging)
    print("sent-hanging", sent_hanging)
    print("controllers-differing", sum(controllers.get(k) != v for k, v in sent_controllers.items()))
    print("programs-differing", sum(programs.get(k) != v for k, v in sent_programs.items()))
    print("out-of-order", len(ons) - common_subsequence_length(ons, sent_ons))
    channels = {channel for channel, _ in sent_ons + ons}
    print("out-of-order-in-channels", sum(
        len(on_channel(ons, channel)) - common_subsequence_length(on_channel(ons, channel), on_channel(sent_ons, channel))
        for channel in channels))


def on_channel(ons, channel):
    return [key for key in ons if key[0] == channel]


if __name__ == "__main__":
    main()
