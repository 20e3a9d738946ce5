# Issue 12, kernel test: MIDI clock in. midish is the master (its device 0 connected to
# midihub:in and to Midi Through, both sent its clock) at 125 BPM; `midihub serve` runs
# docs/transport.md's clock-follow patch (the song to Midi Through) with
# sequences/little-song.mid (120 and 96 BPM in the file) loaded. midish's play (Start, pulses)
# plays the song: `midihub monitor --json 14:0` stamps midish's pulses and the song's notes
# as they reach Midi Through: after the first second nine notes in ten come within 15 ms of
# a steady time after the master's pulse of their tick, on the pulses' line (the phase is locked), and the status shows the master's
# tempo, jitter and drift. While the master plays, `transport play` is refused; midish's
# stop (Stop) pauses the transport; midish frozen (SIGSTOP) mid-song stops it 250 ms after
# its last pulse, with a warning. Then another midihub daemon leads at 100 BPM (the same song
# at `transport tempo 100`; its clock out
# to the follower and to Midi Through): its play starts the follower's song, an arpeggiator
# held on a snd-virmidi keyboard plays on the leader's eighths (from 1.5 s on, four steps in
# five within 5 ms of their median, the median within 10 ms of the grid), and, slowed to
# 60 BPM, its seek while playing (Stop, Song Position, Continue), pause, seek while
# paused (Song Position) and play (Continue) move the follower to the same bars; neither
# daemon is connected into itself by the other's edits (both are called midihub).
# timeout: 300
# retry: notes within 15 ms of the master's pulses: a stall of the emulated VM moves them (CI: one in ten 42 ms off, on a run where jackd saw a 5 s stall)

source "$REPO/Tests/Integration/serve.sh"
load_modules snd-seq-dummy
doc_block docs/transport.md clock-follow-patch >"$WORK/follow.yaml"
start_serve hub --no-audio --patch "$WORK/follow.yaml"
midihub transport load "$REPO/sequences/little-song.mid" >/dev/null || fail "loading the song"
start_peer monitor midihub monitor --json 14:0
wait_for_peer_line monitor "$(peer_err monitor)" "^midihub: monitoring 14:0"

# midish reads its commands from a FIFO (in /tmp: the results folder cannot hold one).
fifo=$(mktemp -u /tmp/midish.XXXXXX)
mkfifo "$fifo" || fail "mkfifo"
exec 7<>"$fifo"
start_peer master bash -c "exec midish -v <'$fifo'"
midish() { printf '%s\n' "$@" >&7; }
midish 'dnew 0 "midihub:0" wo' 'dnew 1 "14:0" wo' 'dclktx {0 1}' 't 125'

status_json() {
    midihub transport status --json
}

# The song lasts 21 s at midish's 125 BPM: midish stops it before its end, with the VM's
# slow commands in between (the scale's end, at 7.7 s, came first on a loaded host and
# failed the pause below).
step "midish plays: the transport follows its Start and its tempo"
midish p
wait_for "the transport plays" 20 bash -c "midihub transport | grep -q '^playing '"

step "while the master plays, it decides"
assert_exit 2 midihub transport play
assert_one_line_error "^midihub: the transport follows the clock of 'master', which plays: it decides play \(fix: stop or start it on the master, or remove \`clock: follow\` from node 'master'\)$"

sleep 2.5
# midish's 125 BPM as the VM's timers make it (a few per cent off under emulation): far from the
# file's 100. A burst of the emulated VM's timers can make one reading far off (201 BPM seen in
# a full run): three readings, half a second apart, and one must hold it.
held=
for _ in 1 2 3; do
    status_json >"$WORK/status.json" || fail "transport status --json"
    jq -e '.clock.node == "master" and .clock.running and (.clock.tempo - 125 | fabs) < 5 and .clock.jitter >= 0 and (.clock.drift | type) == "number"' \
        "$WORK/status.json" >/dev/null && { held=1; break; }
    sleep 0.5
done
[[ -n $held ]] || fail "the status's clock: $(cat "$WORK/status.json")"
# The line a moment later: a hiccup of the emulated VM's timers can make the follower start
# its lock again (a quarter second without a tempo, "none comes"); it has one again at once.
following="following master's clock at 1[23][0-9](\.[0-9]+)? BPM \(jitter [0-9.]+ ms, drift -?[0-9.]+ ms\)$"
for _ in 1 2 3; do
    line=$(midihub transport)
    [[ $line =~ $following ]] && break
    sleep 0.3
done
assert_match "$following" "$line" "the status line"

step "midish stops: the transport pauses where the master stopped"
midish s
wait_for "the transport pauses" 10 bash -c "midihub transport | grep -q '^paused '"
stop_peer monitor

step "the song's notes land on the master's beats"
midicsv "$REPO/sequences/little-song.mid" >"$WORK/song.csv" || fail "midicsv"
python3 - "$REPO" "$WORK/song.csv" "$(peer_out monitor)" <<'PY' || fail "the notes are not locked to the master's pulses"
import statistics, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1] + "/Tests/Integration")
from clock_follow import from_start, note_on_ticks
division, ticks = note_on_ticks(sys.argv[2])
pulses, notes = from_start(sys.argv[3])
print(f"{len(pulses)} pulses, {len(notes)} notes after Start")
if len(notes) < 5:
    sys.exit("fewer than 5 notes played")
# Each note against the master's pulse of its tick (pulse 0 is the first after Start), on
# the line through the pulses (each is stamped as late as the VM's scheduler makes it).
n = len(pulses)
mx, my = (n - 1) / 2, sum(pulses) / n
period = sum((x - mx) * (y - my) for x, y in enumerate(pulses)) / sum((x - mx) ** 2 for x in range(n))
origin = my - period * mx
offsets = []
for tick, time in zip(ticks, notes):
    pulse = tick * 24 // division
    if pulse < n:
        offsets.append((pulse * period, time - (origin + pulse * period)))
print("offsets (s after Start, note minus its pulse, ms), the first 16:",
      [(round(a, 2), round(b * 1000, 1)) for a, b in offsets[:16]])
settled = [b for a, b in offsets if a >= 1.0]
if len(settled) < 3:
    sys.exit("fewer than 3 notes after the first second")
median = statistics.median(settled)
deviations = sorted(abs(b - median) for b in settled)
steady = deviations[int(len(deviations) * 0.9) - 1]
print(f"{len(settled)} settled: median {median * 1000:.1f} ms, nine in ten within {steady * 1000:.1f} ms of it, "
      f"all within {deviations[-1] * 1000:.1f} ms")
# Unlocked at the file's 120 BPM, each beat would slip 20 ms further from the master's
# (over 100 ms in the settled notes' span); the VM's stalls move a note now and then.
sys.exit(0 if steady < 0.015 and abs(median) < 0.05 else 1)
PY

step "a master frozen mid-song stops the transport 250 ms after its last pulse"
midish p
wait_for "the transport plays again" 20 bash -c "midihub transport | grep -q '^playing '"
sleep 1
kill -STOP "${PEER_PIDS[master]}"
wait_for "the transport stops without pulses" 10 bash -c "midihub transport | grep -Eq '^paused '"
assert_file_has "$(peer_err hub)" "transport: the clock of 'master' stopped coming; stopped \(fix: " "the warning"
kill -CONT "${PEER_PIDS[master]}"
midish s
stop_peer master

step "another midihub daemon leads at 100 BPM: Start, Stop, Song Position and Continue; the arpeggiator on its beats"
# The follower (the daemon above) and the leader each print their client in "serving as N:0".
follower=$(sed -nE 's/.*serving as ([0-9]+):0 .*/\1/p' "$(peer_err hub)" | head -n 1)
load_modules snd-virmidi
card=$(card_number VirMIDI)
cat >"$WORK/follower.yaml" <<YAML
nodes:
  master: { external: "LEADER:0", clock: follow }
  keys: { source: '"Virtual Raw MIDI $card-0"' }   # not Midi Through: the arpeggio goes there
  arp: { processor: arpeggiator }
  through: { external: '"Midi Through"' }
routes:
  - keys -> arp
  - arp -> through
rules:
  - connect "Virtual Raw MIDI $card-0" -> "$follower:0"
YAML
leader_run=$(mktemp -d /dev/shm/midihub-leader.XXXXXX)
leader() { XDG_RUNTIME_DIR=$leader_run midihub "$@"; }
cat >"$WORK/leader.yaml" <<YAML
nodes:
  song: { source: "midihub:sequence" }
  follower: { external: "$follower:0", clock: send }
  through: { external: '"Midi Through"', clock: send }
YAML
XDG_RUNTIME_DIR=$leader_run start_peer leader midihub serve --no-audio --state "$WORK/leader.json" --patch "$WORK/leader.yaml"
wait_for_peer_line leader "$(peer_err leader)" "midihub: serving as [0-9]+:0 \(midihub:in\)" 60
leading=$(sed -nE 's/.*serving as ([0-9]+):0 .*/\1/p' "$(peer_err leader)" | head -n 1)
sed -i "s/LEADER:0/$leading:0/" "$WORK/follower.yaml"
midihub patch load "$WORK/follower.yaml" >/dev/null || fail "the follower's patch"
midihub transport load "$REPO/sequences/little-song.mid" >/dev/null || fail "the follower's song"
# The leader plays the song too (26 s at 100 BPM): the scale (9.6 s) ended before the seeks below on a loaded host.
leader transport load "$REPO/sequences/little-song.mid" >/dev/null || fail "the leader's song"
leader transport tempo 100 >/dev/null || fail "the leader's tempo"
wait_for "the keyboard reaches the follower" 20 bash -c \
    "aconnect -l | grep -A3 \"'Virtual Raw MIDI $card-0'\" | grep -q \"Connecting To: .*$follower:0\""
start_peer monitor2 midihub monitor --json 14:0
wait_for_peer_line monitor2 "$(peer_err monitor2)" "^midihub: monitoring 14:0"
amidi -p "hw:$card,0" -S '90 30 64' || fail "amidi -S failed"  # held: the arpeggiator repeats it
leader transport play >/dev/null || fail "the leader plays"
wait_for "the follower plays at the leader's Start" 10 bash -c "midihub transport | grep -q '^playing .little-song.mid. at [0-9]*:'"
sleep 4
status_json >"$WORK/status2.json" || fail "transport status --json"
jq -e '(.clock.tempo - 100 | fabs) < 5' "$WORK/status2.json" >/dev/null || fail "the leader's 100 BPM: $(cat "$WORK/status2.json")"
amidi -p "hw:$card,0" -S '80 30 00' || fail "amidi -S failed"
stop_peer monitor2
python3 - "$REPO" "$(peer_out monitor2)" <<'PY' || fail "the arpeggiator is not on the leader's eighths"
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1] + "/Tests/Integration")
from clock_follow import from_start
pulses, steps = from_start(sys.argv[2])
n = len(pulses)
mx, my = (n - 1) / 2, sum(pulses) / n
period = sum((x - mx) * (y - my) for x, y in enumerate(pulses)) / sum((x - mx) ** 2 for x in range(n))
origin = my - period * mx  # pulse 0 on the line through them all (Start's first pulse may come late)
late = [((t - origin) / (12 * period)) for t in steps if t - origin >= 1.5]
in_order = [(p - round(p)) * 12 * period for p in late]
errors = sorted(in_order)
print(f"{len(pulses)} pulses ({60 / (24 * period):.2f} BPM, the first {(pulses[0] - origin) * 1000:.1f} ms off their line), "
      f"{len(steps)} steps; after 1.5 s, off the eighths in turn (ms):", [round(e * 1000, 1) for e in in_order])
# On the eighths: the follower wakes for each step (on its 10 ms turns they came up to 10 ms
# apart), so four steps in five are within 5 ms of the median, every one within 40 ms (the
# emulated VM stalls now and then: 29 ms seen once; how steady it is belongs to the bench's
# clock rows), and the median is within 10 ms of the leader's grid.
# Unlocked, at the hub's 120 BPM against the leader's 100, they would drift 50 ms a step.
if len(errors) < 5:
    sys.exit("fewer than 5 steps after 1.5 s")
median = errors[len(errors) // 2]
deviations = sorted(abs(e - median) for e in errors)
steady = deviations[int(len(deviations) * 0.8) - 1]
print(f"median {median * 1000:.1f} ms; four in five within {steady * 1000:.1f} ms of it, all within {deviations[-1] * 1000:.1f} ms")
sys.exit(0 if steady < 0.005 and deviations[-1] < 0.04 and abs(median) < 0.01 else 1)
PY

step "the leader seeks while playing (Stop, Song Position, Continue), pauses, seeks, plays on"
# At 60 BPM a bar lasts 4 s: a loaded VM's first status after each move still finds the
# follower in the bar it moved to.
leader transport tempo 60 >/dev/null || fail "the leader slows to 60 BPM"
leader transport seek 3 >/dev/null || fail "the leader seeks to bar 3"
wait_for "the follower plays from bar 3" 10 bash -c "midihub transport | grep -q '^playing .little-song.mid. at 3:'"
leader transport pause >/dev/null || fail "the leader pauses"
wait_for "the follower pauses" 10 bash -c "midihub transport | grep -q '^paused '"
leader transport seek 2 >/dev/null || fail "the leader seeks to bar 2 while paused"
wait_for "the follower moves to bar 2 (Song Position)" 10 bash -c "midihub transport | grep -q '^paused .little-song.mid. at 2:1 '"
leader transport play >/dev/null || fail "the leader plays on"
wait_for "the follower plays on from bar 2 (Continue)" 10 bash -c "midihub transport | grep -q '^playing .little-song.mid. at 2:'"
leader transport stop >/dev/null || fail "the leader stops"
wait_for "the follower stops" 10 bash -c "midihub transport | grep -q '^paused '"
# Both daemons are called midihub: the leader's out -> the follower's in, seen by the
# follower as an edit by hand, is never made again from a daemon's out into its own in.
assert_file_lacks "$(peer_err hub)" "connected ($follower:1 .* -> $follower:0|$leading:1 .* -> $leading:0) " "no daemon fed into itself"
stop_peer leader
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
