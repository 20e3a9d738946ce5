# Hub benchmarks, run in the VM by bench/run-vm (through Tests/Integration/vm-run, so
# lib.sh and serve.sh helpers are loaded). Measures one sequencer path twice in the same
# boot — seq-probe's tx port → rx port directly subscribed (`aconnect`), and tx →
# `midihub serve --no-audio` → rx (an external node) — for hop latency (paced at
# 1 kHz; the hub's also while a control client sets a parameter 200 times a second, each
# set saved with the state, and while one adds and removes an LV2 MIDI effect), throughput (offered at 100,000 events/s for 10 s), the highest rate each path
# carries without loss (bisected over short runs), plus the daemon's RSS around the
# throughput run, and the hop latency again while a second external node's program
# (arecordmidi) is stopped with SIGSTOP and gets the same notes. The hop latency and the
# highest lossless rate are also measured through seq-relay (bench/Sources/seq-relay, the
# smallest userspace router: one client that reads and writes each burst on in one write),
# tx → seq-relay:0, seq-relay:1 → rx: the anchor of the hub's own hop, with the same probe
# settings and bisection.
# Writes $WORK/hub.results, one line per run:
#   RUN key=value...   (seq-probe's keys; RUN is direct-latency, hub-latency, relay-latency,
#                       hub-latency-loaded, hub-latency-plugins, hub-latency-stalled,
#                       direct-throughput, hub-throughput, and PATH-lossless-RATE for
#                       each bisection step; plus "hub-rss before_kb= after_kb=" and
#                       "PATH-lossless rate= seconds= tried=RATE:LOST,...", and
#                       "parameter-load sets= rate=", "plugin-load loads=", and "relay events= writes= overflows=")
# Settings: LATENCY_EVENTS (5000), THROUGHPUT_RATE (100000), THROUGHPUT_SECONDS (10),
# BISECT_SECONDS (3), BISECT_STEPS (5), from .build-bench/vm-settings.env (bench/run-vm
# writes it from its environment).
# timeout: 900

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/bench/vm/seq-probe.sh"
RESULTS_FILE=$WORK/hub.results
: >"$RESULTS_FILE"
load_modules snd-seq

cat >"$WORK/patch.yaml" <<YAML
nodes:
  probe: { source: '"hubbench-tx"' }
  up: { processor: transpose }
  receiver: { external: '"hubbench-rx"' }
  stalled: { external: '"arecordmidi"' }
routes:
  - probe -> up
  - up -> receiver
  - up -> stalled
rules:
  - connect "hubbench-tx" -> "midihub:in"
YAML

# The control load, as a remote's page and a knob put it on the hub: LIST_CLIENTS clients
# that ask for nodes.list and ports.list in turn as fast as they are answered, and one that
# sets the transpose's parameter (to 0: the notes stay as they are) PARAMETER_RATE times a
# second, each on a connection of its own, reading each answer, until killed; every set is
# saved with the state. Prints "sets=N lists=N" when stopped.
PARAMETER_RATE=${PARAMETER_RATE:-1000}
LIST_CLIENTS=${LIST_CLIENTS:-4}
cat >"$WORK/parameter-load.py" <<'PY'
import json, signal, socket, sys, threading, time
path, rate, listers = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
sets = 0
lists = [0] * listers
def stop(*_):
    print(f"sets={sets} lists={sum(lists)}", flush=True)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
def lister(index):
    connection = socket.socket(socket.AF_UNIX)
    connection.connect(path)
    answers = connection.makefile("rb")
    while True:
        request = {"id": lists[index] + 1, "request": ("nodes.list", "ports.list")[lists[index] % 2]}
        connection.sendall(json.dumps(request).encode() + b"\n")
        while json.loads(answers.readline()).get("id") != lists[index] + 1:
            pass
        lists[index] += 1
for index in range(listers):
    threading.Thread(target=lister, args=(index,), daemon=True).start()
connection = socket.socket(socket.AF_UNIX)
connection.connect(path)
answers = connection.makefile("rb")
print("ready", flush=True)
due = time.monotonic()
while True:
    request = {"id": sets + 1, "request": "parameters.set", "params": {"node": "up", "parameter": "semitones", "value": 0}}
    connection.sendall(json.dumps(request).encode() + b"\n")
    while json.loads(answers.readline()).get("id") != sets + 1:
        pass
    sets += 1
    due += 1 / rate
    time.sleep(max(0, due - time.monotonic()))
PY
start_serve hub --no-audio --patch "$WORK/patch.yaml"
hub_pid=${PEER_PIDS[hub]}
# The relay waits, blocked in its read, until its runs: seq-probe's "link" path through it.
# It runs at SCHED_FIFO 50, as the hub's MIDI input thread does.
RELAY=$REPO/.build-bench/release/seq-relay
[[ -x $RELAY ]] || fail "no seq-relay at $RELAY (fix: run bench/run-vm, which builds it)"
start_peer relay chrt -f 50 "$RELAY"
wait_for_peer_line relay "$(peer_out relay)" "^ready "
LINK_IN=seq-relay:0 LINK_OUT=seq-relay:1

throughput_events=$((THROUGHPUT_RATE * THROUGHPUT_SECONDS))
run_probe direct-latency latency direct --count "$LATENCY_EVENTS" --rate 1000
run_probe hub-latency hubbench hub --count "$LATENCY_EVENTS" --rate 1000
run_probe relay-latency relay link --count "$LATENCY_EVENTS" --rate 1000
start_peer load python3 -u "$WORK/parameter-load.py" "$SERVE_SOCKET" "$PARAMETER_RATE" "$LIST_CLIENTS"
wait_for_peer_line load "$(peer_out load)" "^ready$"
run_probe hub-latency-loaded hubbench hub --count "$LATENCY_EVENTS" --rate 1000
stop_peer load TERM
sets=$(sed -n 's/^sets=\([0-9]*\).*/\1/p' "$(peer_out load)")
lists=$(sed -n 's/^sets=.* lists=//p' "$(peer_out load)")
echo "parameter-load sets=${sets:-0} rate=$PARAMETER_RATE lists=${lists:-0} listers=$LIST_CLIENTS" | tee -a "$RESULTS_FILE"
# Plugins loading beside the MIDI path: a control client adds an LV2 MIDI effect (x42's
# MIDI Note Transpose, instantiated on the control side) and removes it again, as fast as it
# is answered, until killed. Its first add, which reads every installed LV2 bundle, comes
# before the probe and is timed on its own (first_s): in the VM, reading hundreds of bundles
# through its 9p root stalls the whole guest, which is the emulator's and not the hub's.
cat >"$WORK/plugin-load.py" <<'PY'
import json, signal, socket, sys, time
loads = 0
def stop(*_):
    print(f"loads={loads}", flush=True)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
client = socket.socket(socket.AF_UNIX)
client.connect(sys.argv[1])
answers = client.makefile("r")
def ask(number, request, params):
    client.sendall((json.dumps({"id": number, "request": request, "params": params}) + "\n").encode())
    while True:
        answer = json.loads(answers.readline())
        if answer.get("id") == number:
            if not answer.get("ok"): sys.exit(f"{request} failed: {answer}")
            return
def load(number):
    ask(2 * number + 1, "nodes.add", {"type": "plugin", "plugin": "MIDI Note Transpose", "id": "loaded"})
    ask(2 * number + 2, "nodes.remove", {"node": "loaded"})
started = time.monotonic()
load(1000000)  # the first reads every installed bundle: before the probe, timed on its own
print(f"first={time.monotonic() - started:.3f}", flush=True)
print("ready", flush=True)
while True:
    load(loads)
    loads += 1
PY
start_peer plugins python3 -u "$WORK/plugin-load.py" "$SERVE_SOCKET"
wait_for_peer_line plugins "$(peer_out plugins)" "^ready$"
run_probe hub-latency-plugins hubbench hub --count "$LATENCY_EVENTS" --rate 1000
stop_peer plugins TERM
echo "plugin-load loads=$(sed -n 's/^loads=//p' "$(peer_out plugins)") first_s=$(sed -n 's/^first=//p' "$(peer_out plugins)")" \
    | tee -a "$RESULTS_FILE"
# A second receiver that stops reading: arecordmidi (recording System Announce, which stays
# quiet) stopped with SIGSTOP; the external node "stalled" plays to it.
start_peer stalled arecordmidi -p 0:1 "$WORK/stalled.mid"
wait_for "arecordmidi's port" 30 bash -c "aconnect -l | grep -q \"'arecordmidi'\""
kill -STOP "${PEER_PIDS[stalled]}"
run_probe hub-latency-stalled hubbench hub --count "$LATENCY_EVENTS" --rate 1000
kill -CONT "${PEER_PIDS[stalled]}"
stop_peer stalled
run_probe direct-throughput throughput direct --count "$throughput_events" --rate "$THROUGHPUT_RATE"
rss_before=$(rss_kb "$hub_pid")
run_probe hub-throughput hubbench hub --count "$throughput_events" --rate "$THROUGHPUT_RATE"
rss_after=$(rss_kb "$hub_pid")
echo "hub-rss before_kb=$rss_before after_kb=$rss_after" | tee -a "$RESULTS_FILE"
find_lossless_rate direct-lossless direct
find_lossless_rate hub-lossless hub
find_lossless_rate relay-lossless link
stop_peer relay
assert_eq 0 "$PEER_STATUS" "seq-relay exit status after SIGINT"
echo "relay $(grep '^events=' "$(peer_out relay)")" | tee -a "$RESULTS_FILE"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
