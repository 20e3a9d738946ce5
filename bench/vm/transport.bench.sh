# The transport's timing at an external port, run in the VM by bench/run-vm (after
# hub.bench.sh, in the same boot). sequences/little-song.mid (drums, bass, chords, melody,
# program changes, a tempo change) is played twice into Midi Through, whose output
# `midihub monitor --json 14:0` stamps on arrival (the kernel's stamps): once by `aplaymidi
# -p 14:0` (the anchor: the kernel's queue sends each event at its tick), once by the
# daemon's transport (`midihub play` with `midihub serve --no-audio` running, the song
# routed to an external node on Midi Through). Each event's arrival minus its time in the
# file, less the median of those, is how early or late it came; writes
# $WORK/transport.results:
#   aplaymidi-timing events= p50_us= p99_us= max_us=
#   hub-timing events= p50_us= p99_us= max_us=
# The daemon's MIDI clock out (Midi Through marked `clock: true`) against midish's
# (`dclktx`, 120 BPM, 12 s), each pulse's distance from the steady line through its
# neighbours:
#   midish-clock pulses= p50_us= p99_us= max_us=
#   hub-clock pulses= p50_us= p99_us= max_us=
# Following a clock: midish as the master at 125 BPM (its clock to midihub:in and to Midi
# Through), the daemon following it (`clock: follow`) and playing the song to Midi Through. Each
# note-on's arrival against the master's pulse at its tick (interpolated), less the median
# of those after the first second: how steadily it plays on the master's beats; lock_ms: from
# Start to the first note after which every note stays within 2 ms; tempo_error_pct: the
# daemon's status tempo against the line through the master's pulses. The anchor is how
# steady the master's own pulses are (as the clock rows measure them): a follower cannot
# do better than what it follows. (midish as a follower, `dclkrx`, stalls after its first
# beat here: it drops its input at a "sensing timeout" of the master's Active Sensing.)
#   hub-follow notes= p50_us= p99_us= lock_ms= tempo_error_pct=
#   master-clock pulses= p50_us= p99_us= max_us=
# timeout: 600

source "$REPO/Tests/Integration/serve.sh"
RESULTS_FILE=$WORK/transport.results
: >"$RESULTS_FILE"
SONG=$REPO/sequences/little-song.mid
load_modules snd-seq-dummy

# Records what reaches Midi Through's output while COMMAND... plays, into $WORK/RUN.json.
monitor_while() { # RUN COMMAND...
    local run=$1
    shift
    step "$run: $*"
    start_peer "$run-monitor" midihub monitor --json 14:0
    wait_for_peer_line "$run-monitor" "$(peer_err "$run-monitor")" "^midihub: monitoring 14:0"
    "$@" >"$WORK/$run.out" 2>"$WORK/$run.err" || fail "'$*' failed: $(head -c 400 "$WORK/$run.err")"
    sleep 1
    stop_peer "$run-monitor"
    cp "$(peer_out "$run-monitor")" "$WORK/$run.json"
}

# Appends "RUN events= p50_us= p99_us= max_us=": each channel event's arrival against its
# time in the song (midicsv and the song's tempo map), less the median offset.
timing_of() { # RUN
    midicsv "$SONG" >"$WORK/song.csv" || fail "midicsv $SONG"
    python3 - "$REPO" "$1" "$WORK/song.csv" "$WORK/$1.json" <<'PY' | tee -a "$RESULTS_FILE"
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1] + "/bench/vm")
from event_times import channel_event_seconds, deviation_row
run, csv_path, json_path = sys.argv[2:]
expected = channel_event_seconds(csv_path)
arrived = [json.loads(line)["time"] for line in open(json_path) if '"channel"' in line]
if len(arrived) != len(expected):
    sys.exit(f"{run}: {len(arrived)} channel events arrived, the song has {len(expected)}")
print(deviation_row(run, "events", arrived, expected))
PY
    [[ ${PIPESTATUS[0]} == 0 ]] || fail "cannot read the timing of $1"
}

# Appends "RUN pulses= p50_us= p99_us= max_us=": each Timing Clock's arrival against the
# line that fits the pulses of its tempo best (least squares; a new line at each SPLIT, the
# pulse where the song's tempo changes): how steady the clock is, whatever its exact rate.
clock_jitter_of() { # RUN JSON [SPLIT...]
    python3 - "$@" <<'PY' | tee -a "$RESULTS_FILE"
import json, sys
run, json_path, splits = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]
events = [json.loads(line) for line in open(json_path) if line.startswith("{")]
start = next((i for i, e in enumerate(events) if e.get("type") == "start"), None)
if start is None:
    sys.exit(f"{run}: no Start arrived")
pulses = [e["time"] for e in events[start:] if e.get("type") == "clock"]
if len(pulses) < 48:
    sys.exit(f"{run}: only {len(pulses)} pulses arrived")
bounds = [0] + [s for s in splits if 0 < s < len(pulses)] + [len(pulses)]
deviations = []
for a, b in zip(bounds, bounds[1:]):
    part = pulses[a:b]
    n = len(part)
    mx, my = (n - 1) / 2, sum(part) / n
    slope = sum((x - mx) * (y - my) for x, y in enumerate(part)) / max(sum((x - mx) ** 2 for x in range(n)), 1e-12)
    deviations += [abs(y - (my + slope * (x - mx))) * 1e6 for x, y in enumerate(part)]
deviations.sort()
p = lambda q: deviations[min(len(deviations) - 1, int(q * len(deviations)))]
print(f"{run} pulses={len(deviations)} p50_us={p(0.5):.1f} p99_us={p(0.99):.1f} max_us={deviations[-1]:.1f}")
PY
    [[ ${PIPESTATUS[0]} == 0 ]] || fail "cannot read the clock of $1"
}

monitor_while aplaymidi-timing aplaymidi -p 14:0 "$SONG"
timing_of aplaymidi-timing

# midish as the clock master, 120 BPM, its clock to Midi Through for 12 s (the anchor of
# the clock rows); its commands through a FIFO in /tmp.
fifo=$(mktemp -u /tmp/midish.XXXXXX)
mkfifo "$fifo" || fail "mkfifo"
exec 7<>"$fifo"
start_peer midish bash -c "exec midish -v <'$fifo'"
printf '%s\n' 'dnew 0 "14:0" wo' 'dclktx {0}' 't 120' >&7
midish_clock() {
    printf 'p\n' >&7
    sleep 12
    printf 's\n' >&7
    sleep 1
}
monitor_while midish-clock midish_clock
clock_jitter_of midish-clock "$WORK/midish-clock.json"
stop_peer midish

cat >"$WORK/patch.yaml" <<YAML
nodes:
  song: { source: "midihub:sequence" }
  through: { external: '"Midi Through"', clock: true }
routes:
  - song -> through
YAML
start_serve hub --no-audio --patch "$WORK/patch.yaml"
monitor_while hub-timing midihub play "$SONG"
timing_of hub-timing
# The song's tempo changes, as pulse numbers (24 per quarter).
splits=$(midicsv "$SONG" | awk -F', ' '$3 == "Header" { division = $6 } $3 == "Tempo" && $2 > 0 { print int($2 * 24 / division) }')
clock_jitter_of hub-clock "$WORK/hub-timing.json" $splits
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"

# Appends "RUN notes= p50_us= p99_us= lock_ms= [EXTRA...]" for a follower's notes in JSON
# against the master's pulses there (see the top).
follow_timing_of() { # RUN JSON [EXTRA...]
    midicsv "$SONG" >"$WORK/song.csv" || fail "midicsv $SONG"
    python3 - "$REPO" "$WORK/song.csv" "$@" <<'PY' | tee -a "$RESULTS_FILE"
import statistics, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1] + "/Tests/Integration")
from clock_follow import from_start, note_on_ticks
csv_path, run, json_path, extra = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
division, ticks = note_on_ticks(csv_path)
run_events = from_start(json_path)
if run_events is None:
    sys.exit(f"{run}: no Start arrived")
pulses, notes = run_events[0], sorted(run_events[1])
def pulse_time(tick):
    at = tick * 24 / division
    whole = int(at)
    if whole + 1 >= len(pulses):
        return None
    return pulses[whole] + (at - whole) * (pulses[whole + 1] - pulses[whole])
pairs = [(pulse_time(t) - pulses[0], n - pulse_time(t)) for t, n in zip(ticks, notes) if pulse_time(t) is not None]
if len(pairs) < 20:
    sys.exit(f"{run}: only {len(pairs)} notes on the master's pulses ({len(notes)} notes, {len(pulses)} pulses)")
settled = [o for a, o in pairs if a >= 1.0]
median = statistics.median(settled)
deviations = sorted(abs(o - median) * 1e6 for o in settled)
p = lambda q: deviations[min(len(deviations) - 1, int(q * len(deviations)))]
lock = next(a for k, (a, _) in enumerate(pairs) if all(abs(o - median) < 0.002 for _, o in pairs[k:])) if abs(pairs[-1][1] - median) < 0.002 else float("nan")
print(f"{run} notes={len(pairs)} p50_us={p(0.5):.1f} p99_us={p(0.99):.1f} lock_ms={lock * 1000:.0f}", *extra)
PY
    [[ ${PIPESTATUS[0]} == 0 ]] || fail "cannot read how $1 followed"
}

step "following a clock: midish the master at 125 BPM, to the daemon and to Midi Through"
cat >"$WORK/follow.yaml" <<YAML
nodes:
  master: { external: "midish/0", clock: follow }
  song: { source: "midihub:sequence" }
  through: { external: '"Midi Through"' }
routes:
  - song -> through
YAML
start_serve follower --no-audio --patch "$WORK/follow.yaml"
midihub transport load "$SONG" >/dev/null || fail "loading the song into the following daemon"
start_peer master bash -c "exec midish -v <'$fifo'"
printf '%s\n' 'dnew 0 "midihub:0" wo' 'dnew 1 "14:0" wo' 'dclktx {0 1}' 't 125' >&7
hub_follows() {
    printf 'p\n' >&7
    sleep 6
    midihub transport status --json >"$WORK/follow-status.json" || fail "transport status --json"
    sleep 6
    printf 's\n' >&7
    sleep 1
}
monitor_while hub-follow hub_follows
master_tempo=$(python3 - "$WORK/hub-follow.json" <<'PY'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
pulses = [e["time"] for e in events if e.get("type") == "clock"][24:]
n = len(pulses)
mx, my = (n - 1) / 2, sum(pulses) / n
slope = sum((x - mx) * (y - my) for x, y in enumerate(pulses)) / sum((x - mx) ** 2 for x in range(n))
print(60 / (24 * slope))
PY
) || fail "cannot fit the master's tempo"
tempo_error=$(jq -r --argjson master "$master_tempo" '((.clock.tempo - $master | fabs) / $master * 100000 | round) / 1000' "$WORK/follow-status.json") \
    || fail "the following daemon's status has no clock: $(cat "$WORK/follow-status.json")"
follow_timing_of hub-follow "$WORK/hub-follow.json" "tempo_error_pct=$tempo_error"
clock_jitter_of master-clock "$WORK/hub-follow.json"
stop_peer follower
stop_peer master
