"""What a run against a MIDI clock master left at an ALSA port, as the VM tests and the
benchmarks read it: a song's note-on ticks (through midicsv) and the events `midihub
monitor --json` stamped from the master's Start on (its Timing Clock pulses and the notes).
Scripts import it with `sys.path.insert(0, "$REPO/Tests/Integration")`."""
import json


def note_on_ticks(csv_path):
    """(ticks per quarter, the ticks of the song's note-ons with a velocity, in order)."""
    division, ticks = 480, []
    for line in open(csv_path):
        fields = [x.strip() for x in line.split(",")]
        if fields[2] == "Header":
            division = int(fields[5])
        elif fields[2] == "Note_on_c" and int(fields[5]) > 0:
            ticks.append(int(fields[1]))
    return division, sorted(ticks)


def from_start(json_path):
    """(pulse times, note-on times) from the first Start on; None when no Start arrived."""
    events = [json.loads(line) for line in open(json_path) if line.startswith("{")]
    start = next((i for i, e in enumerate(events) if e.get("type") == "start"), None)
    if start is None:
        return None
    pulses = [e["time"] for e in events[start:] if e.get("type") == "clock"]
    notes = [e["time"] for e in events[start:] if e.get("type") == "note-on" and e.get("velocity", 0) > 0]
    return pulses, notes
