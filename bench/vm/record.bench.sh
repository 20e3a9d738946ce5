# How exactly MIDI is recorded, run in the VM by bench/run-vm: sequences/little-song.mid
# (drums, bass, chords, melody, program changes, a tempo change) is played once by
# `aplaymidi -p 14:0` into Midi Through while three recorders take Midi Through's output at
# the same time, all at 120 BPM and 480 ticks per quarter (the daemon's take's grid):
# arecordmidi (the anchor), `midihub record --port 14:0`, and the daemon's `record` trigger
# (`midihub serve --no-audio`, Midi Through a source node, connected to midihub:in by a
# rule). Each channel event's time in the recording against its time in the song, less the
# median of those, is how far off it was recorded; writes $WORK/record.results:
#   arecordmidi-take events= p50_us= p99_us= max_us=
#   port-take events= p50_us= p99_us= max_us=
#   hub-take events= p50_us= p99_us= max_us=
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
RESULTS_FILE=$WORK/record.results
: >"$RESULTS_FILE"
SONG=$REPO/sequences/little-song.mid
load_modules snd-seq-dummy

# Appends "RUN events= p50_us= p99_us= max_us=": the channel events of RECORDING (sorted by
# time) against the song's (see the top).
take_accuracy_of() { # RUN RECORDING
    midicsv "$SONG" >"$WORK/song.csv" || fail "midicsv $SONG"
    midicsv "$2" >"$WORK/$1.csv" || fail "midicsv cannot read $1's recording $2"
    python3 - "$REPO" "$1" "$WORK/song.csv" "$WORK/$1.csv" <<'PY' | tee -a "$RESULTS_FILE"
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1] + "/bench/vm")
from event_times import channel_event_seconds, deviation_row
run, song_csv, take_csv = sys.argv[2:]
expected, recorded = channel_event_seconds(song_csv), channel_event_seconds(take_csv)
if len(recorded) != len(expected):
    sys.exit(f"{run}: {len(recorded)} channel events recorded, the song has {len(expected)}")
print(deviation_row(run, "events", recorded, expected))
PY
    [[ ${PIPESTATUS[0]} == 0 ]] || fail "cannot read how exactly $1 recorded"
}

cat >"$WORK/patch.yaml" <<YAML
nodes:
  through: { source: '"Midi Through"' }
rules:
  - connect "Midi Through" -> "midihub:in"
YAML
start_serve hub --no-audio --patch "$WORK/patch.yaml"
hub=$(client_number midihub)
wait_for "Midi Through -> midihub:in" 30 bash -c "aconnect -l | grep -A3 \"'Midi Through Port-0'\" | grep -q \"Connecting To: .*$hub:0\""

step "aplaymidi plays the song into Midi Through; arecordmidi, midihub record and the daemon's take record it"
start_peer arecordmidi arecordmidi -p 14:0 -b 120 -t 480 "$WORK/arecordmidi.mid"
start_peer port midihub record "$WORK/port.mid" --port 14:0 --bpm 120 --ticks 480
wait_for_peer_line port "$(peer_err port)" "^midihub: recording 14:0 to "
wait_for "arecordmidi's subscription" 30 bash -c "aconnect -l | grep -q \"'arecordmidi'\""
assert_eq "record: transport record (selected)" "$(midihub trigger record)" "the record trigger starts a take"
aplaymidi -p 14:0 "$SONG" || fail "aplaymidi -p 14:0 $SONG failed"
sleep 1
assert_eq "record: transport record (normal)" "$(midihub trigger record)" "fired again, it ends the take"
wait_for_line "$(peer_err hub)" "recording: wrote [0-9]+ events \([0-9]+ s\) to $WORK/recordings/take-[0-9-]+\.mid$"
stop_peer port
stop_peer arecordmidi
stop_peer hub

take_accuracy_of arecordmidi-take "$WORK/arecordmidi.mid"
take_accuracy_of port-take "$WORK/port.mid"
take_accuracy_of hub-take "$(ls "$WORK"/recordings/take-*.mid)"
