# The OSC rows, run in the VM by bench/run-vm (issue 42): `midihub serve --no-audio --osc
# 9000` with seq-probe's hub path (oscbench-tx → transpose → oscbench-rx) and a transpose
# `knob` outside that path. Surfaces are bench/vm/osc_surfaces.py (plain UDP). Measures, in
# one daemon:
#   - an OSC parameter set to its parameter-changed at a control-socket watcher, then the
#     same set as parameters.set on the control socket (the anchor);
#   - a note from an OSC surface (`/midi m`, seq-probe --osc) to the ALSA port it is routed to,
#     against the same notes from an ALSA client (seq-probe's tx) on the same route: the
#     control protocol carries no MIDI, so the anchor is the hub's own hop;
#   - the hub's hop latency (seq-probe at 1 kHz) without surfaces, then while OSC_SURFACES
#     surfaces each set the knob OSC_SWEEP_RATE times a second (each registered, sent every
#     change).
# Writes $WORK/osc.results, one line per run:
#   osc-move moves= p50_us= p99_us= max_us=      socket-move (the same keys)
#   hub-latency <seq-probe's keys>               hub-latency-surfaces <seq-probe's keys>
#   osc-midi <seq-probe's keys>
#   sweep surfaces= sent= received= seconds= rate=
# Settings: LATENCY_EVENTS (5000), OSC_MOVES (200), OSC_SURFACES (4), OSC_SWEEP_RATE (1000),
# from .build-bench/vm-settings.env (bench/run-vm writes it).
# timeout: 600

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/bench/vm/seq-probe.sh"
OSC_MOVES=${OSC_MOVES:-200}
OSC_SURFACES=${OSC_SURFACES:-4}
OSC_SWEEP_RATE=${OSC_SWEEP_RATE:-1000}
RESULTS_FILE=$WORK/osc.results
SURFACES=$REPO/bench/vm/osc_surfaces.py
: >"$RESULTS_FILE"
load_modules snd-seq

cat >"$WORK/patch.yaml" <<YAML
nodes:
  probe: { source: '"oscbench-tx"' }
  up: { processor: transpose }
  receiver: { external: '"oscbench-rx"' }
  knob: { processor: transpose }
  surface: { source: '"midihub osc"' }
routes:
  - probe -> up
  - surface -> up
  - up -> receiver
rules:
  - connect "oscbench-tx" -> "midihub:in"
  - connect "midihub osc" -> "midihub:in"
YAML

start_serve hub --no-audio --patch "$WORK/patch.yaml" --osc 9000
wait_for_line "$(peer_err hub)" "osc: taking OSC over UDP and TCP on 127.0.0.1:9000"

# Times OSC_MOVES moves by PATH (osc or socket); appends "RUN <the clients' line>".
time_moves() { # RUN PATH
    step "$1: $OSC_MOVES parameter moves"
    local line
    line=$(/usr/bin/python3 -u "$SURFACES" move "$2" 9000 "$SERVE_SOCKET" knob semitones "$OSC_MOVES") \
        || fail "osc_surfaces.py move ($2) failed"
    echo "$1 $line" | tee -a "$RESULTS_FILE"
}
time_moves osc-move osc
time_moves socket-move socket

run_probe hub-latency oscbench hub --count "$LATENCY_EVENTS" --rate 1000
run_probe osc-midi oscbench hub --count "$LATENCY_EVENTS" --rate 1000 --osc 9000
# The surfaces stand for tablets on the network: at the lowest priority, they take only the
# time that the daemon and seq-probe leave (the rate they reached is in the sweep line).
start_peer sweep nice -n 19 /usr/bin/python3 -u "$SURFACES" sweep 9000 knob semitones "$OSC_SURFACES" "$OSC_SWEEP_RATE"
wait_for_peer_line sweep "$(peer_out sweep)" "^ready$" 60
sleep 1
run_probe hub-latency-surfaces oscbench hub --count "$LATENCY_EVENTS" --rate 1000
stop_peer sweep TERM
echo "sweep $(grep '^surfaces=' "$(peer_out sweep)") rate=$OSC_SWEEP_RATE" | tee -a "$RESULTS_FILE"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
