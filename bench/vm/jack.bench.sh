# The JACK MIDI rows, run in the VM by bench/run-vm (issue 41): under `jackd -d dummy` at
# 48 kHz and 256-frame periods, jack-midi-probe (bench/Sources/jack-midi-probe) sends
# JACK_MIDI_MESSAGES note-ons from its client probe-keys to its client probe-ears through a
# client between and times each in JACK's frames: first through jack-midi-relay
# (bench/Sources/jack-midi-relay: its input copied to its output in the process callback,
# the anchor), then through `midihub serve --audio jack` with a patch that routes
# probe-keys:out straight to an external node on probe-ears:in — the hub's JACK client
# routes it in its process callback (docs/jack.md, "JACK MIDI at its frame"). No cycle in
# JACK's graph: a client that adds nothing shows 0 frames. Messages across an xrun (the
# emulated VM's periods slip) are left out and counted. jackd2's jack_midi_latency_test,
# the tool the issue names, stops at the first message an xrun doubles or loses
# ("Unexpected messages received"), through the relay as through the hub, so it cannot
# time 1000 messages here.
# Writes $WORK/jack.results, one line per path:
#   relay avg=FRAMES p50=FRAMES low=FRAMES high=FRAMES same_period=N sent=N received=N across_xruns=N
#   hub   (the same keys)
# Settings: JACK_MIDI_MESSAGES (1000), from .build-bench/vm-settings.env (bench/run-vm writes it).
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
[[ -f $REPO/.build-bench/vm-settings.env ]] && source "$REPO/.build-bench/vm-settings.env"
JACK_MIDI_MESSAGES=${JACK_MIDI_MESSAGES:-1000}
RESULTS_FILE=$WORK/jack.results
RELAY=$REPO/.build-bench/release/jack-midi-relay
PROBE=$REPO/.build-bench/release/jack-midi-probe
[[ -x $RELAY && -x $PROBE ]] || fail "no jack-midi-relay or jack-midi-probe in $REPO/.build-bench/release (fix: run bench/run-vm, which builds them)"
: >"$RESULTS_FILE"
export JACK_NO_START_SERVER=1 JACK_NO_AUDIO_RESERVATION=1  # no D-Bus in the VM
load_modules snd-seq
start_peer jackd jackd --no-realtime -t 10000 -d dummy -r 48000 -p 256
wait_for "jackd answers" 60 jack_lsp

# Runs jack-midi-probe until its ports are connected by CONNECT (a command) and its
# messages are timed; appends "NAME <its line>".
measure() { # NAME CONNECT...
    local name=$1
    shift
    step "$name: $JACK_MIDI_MESSAGES note-ons probe-keys:out → $name → probe-ears:in"
    start_peer "probe-$name" "$PROBE" "$JACK_MIDI_MESSAGES"
    wait_for "jack-midi-probe's ports" 30 bash -c "jack_lsp | grep -qx probe-ears:in"
    "$@"
    wait_for "jack-midi-probe's results" 180 grep -q '^avg=' "$(peer_out "probe-$name")"
    stop_peer "probe-$name"
    echo "$name $(cat "$(peer_out "probe-$name")")" | tee -a "$RESULTS_FILE"
}

start_peer relay "$RELAY"
wait_for "jack-midi-relay's ports" 30 bash -c "jack_lsp | grep -qx jack-midi-relay:in"
connect_relay() {
    jack_connect probe-keys:out jack-midi-relay:in && jack_connect jack-midi-relay:out probe-ears:in
}
measure relay connect_relay
stop_peer relay

cat >"$WORK/patch.yaml" <<'YAML'
nodes:
  keys: { source: "jack:probe-keys:out" }
  ears: { external: "jack:probe-ears:in" }
  synth: { instrument: midihub synth }    # the hub plays into JACK
  out: { output: default }
routes:
  - keys -> ears
  - synth -> out
rules:
  - connect "jack:probe-keys:out" -> "midihub:in"
YAML
start_serve hub --audio jack --patch "$WORK/patch.yaml" --preset-bank "$REPO/patches/presets"
wait_for_line "$(peer_err hub)" "playing into JACK as" 60
hub_connected() {
    poll_until 60 bash -c "jack_lsp -c probe-keys:out | grep -q ':from-probe-keys:out$' \
        && jack_lsp -c probe-ears:in | grep -q ':to-probe-ears:in$'" \
        || fail "the hub's JACK client did not connect the probe's ports; jack_lsp -c: $(jack_lsp -c | tr '\n' ' ')"
}
measure hub hub_connected
stop_peer hub
stop_peer jackd KILL
