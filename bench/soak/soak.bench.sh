# The hub's soak (issue 28; not in CI: bench/run-soak runs it): SOAK_SECONDS (3600) of
# live use in one VM boot, then one line per measure in $WORK/soak.results.
#
# - MIDI at 1,000 events/s: seq-probe's tx → midihub (an external node) → its rx, which
#   counts what never came.
# - A USB keyboard (the kernel's gadget stack, Tests/Integration/usb-gadget.sh) playing
#   notes (on, then off 40 ms later, ten a second) through a transpose into aseqdump, and
#   unplugged and plugged back every minute, whatever it holds.
# - A control client subscribed to every event, setting the transpose's semitones ten
#   times a second (so a note often ends under another transposition than it began) and,
#   every 15 s, adding an external node with a route and removing it again.
# - Once a minute: the daemon's RSS, open file descriptors and threads.
#
# At the end: notes still on at aseqdump (a note-on with no note-off after it), events
# lost on the probe's path, the control client's requests and refusals.
# Lines: "sample minute= rss_kb= fds= threads=", "probe <seq-probe's keys>",
# "notes on= off= channel_offs= hanging=", "control sets= edits= refused= events=", "replugs count=".
# timeout: 7200

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/usb-gadget.sh"
PROBE=$REPO/.build-bench/release/seq-probe
[[ -x $PROBE ]] || fail "no seq-probe at $PROBE (fix: run bench/run-soak, which builds it)"
SETTINGS=$REPO/.build-bench/soak-settings.env
[[ -f $SETTINGS ]] && source "$SETTINGS"
SOAK_SECONDS=${SOAK_SECONDS:-3600}
SOAK_EDIT_STEPS=${SOAK_EDIT_STEPS:-150}        # a graph edit every this many sets (0.1 s each)
SOAK_REPLUG_SECONDS=${SOAK_REPLUG_SECONDS:-60}  # the keyboard unplugged once in this many seconds
RESULTS_FILE=$WORK/soak.results
: >"$RESULTS_FILE"

load_usb_gadgets 1
make_usb_keys soak MH-SOAK
plug_usb_keys soak 0

cat >"$WORK/patch.yaml" <<'YAML'
nodes:
  probe: { source: '"soak-tx"' }
  receiver: { external: '"soak-rx"' }
  keys: { source: 'hardware:*' }
  up: { processor: transpose }
  notes: { external: '"aseqdump"' }
routes:
  - probe -> receiver
  - keys -> up
  - up -> notes
rules:
  - connect "soak-tx" -> "midihub:in"
  - connect hardware:* -> "midihub:in"
YAML

# Plays the gadget side of the keyboard: a note on, 40 ms, its note off, 60 ms, over the
# notes of an octave; when the keyboard is unplugged (its card gone) it waits and finds
# the card again. Prints "played=N" when stopped.
cat >"$WORK/keys.py" <<'PY'
import glob, signal, sys, time
played = 0
stopping = False
def stop(*_):
    global stopping
    stopping = True  # the note that sounds ends first
signal.signal(signal.SIGTERM, stop)
def device():
    cards = glob.glob("/sys/devices/platform/dummy_udc.0/gadget*/sound/card*")
    return f"/dev/snd/midiC{cards[0].rsplit('card', 1)[1]}D0" if cards else None
print("ready", flush=True)
note = 0
while not stopping:
    try:
        path = device()
        if path is None:
            time.sleep(0.1)
            continue
        with open(path, "wb", buffering=0) as keys:
            while not stopping:
                key = 60 + note % 12
                keys.write(bytes([0x90, key, 100]))
                time.sleep(0.04)
                keys.write(bytes([0x80, key, 0]))
                played += 1
                note += 1
                time.sleep(0.06)
        break
    except OSError:
        time.sleep(0.1)
print(f"played={played}", flush=True)
PY

# The control client: subscribed to every event (read on a thread and counted), sets
# up.semitones ten times a second and every 15 s adds an external node "extra" routed
# from "up", then removes it. Prints "sets= edits= refused= events=" when stopped.
cat >"$WORK/control.py" <<'PY'
import json, random, signal, socket, sys, threading, time
path, edit_steps = sys.argv[1], int(sys.argv[2])
connection = socket.socket(socket.AF_UNIX)
connection.connect(path)
answers = connection.makefile("rb")
counts = {"sets": 0, "edits": 0, "refused": 0, "events": 0}
pending = {}
lock = threading.Lock()
next_id = 0
def stop(*_):
    print(" ".join(f"{k}={v}" for k, v in counts.items()), flush=True)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
def request(name, params=None):
    global next_id
    with lock:
        next_id += 1
        done = threading.Event()
        pending[next_id] = done
        connection.sendall(json.dumps({"id": next_id, "request": name, "params": params or {}}).encode() + b"\n")
    done.wait(10)
def read():
    for line in answers:
        message = json.loads(line)
        if "event" in message:
            counts["events"] += 1
            continue
        if "error" in message:
            counts["refused"] += 1
            print("refused:", line.decode().strip(), file=sys.stderr, flush=True)
        done = pending.pop(message.get("id"), None)
        if done:
            done.set()
threading.Thread(target=read, daemon=True).start()
request("hello", {"protocolVersion": 1, "client": "soak"})
request("subscribe")
print("ready", flush=True)
due = time.monotonic()
step = 0
while True:
    request("parameters.set", {"node": "up", "parameter": "semitones", "value": random.randint(-12, 12)})
    counts["sets"] += 1
    step += 1
    if step % edit_steps == 0:
        request("nodes.add", {"type": "external-instrument", "id": "extra", "port": "\"aseqdump\""})
        request("connect", {"source": "node:up", "destination": "node:extra"})
        request("nodes.remove", {"node": "extra"})
        counts["edits"] += 3
    due += 0.1
    time.sleep(max(0, due - time.monotonic()))
PY

start_aseqdump notes
# A daemon that dies leaves its core here (and its exit status in the failure).
ulimit -c unlimited
echo "$WORK/core.%e.%p" >/proc/sys/kernel/core_pattern
start_serve hub --no-audio --patch "$WORK/patch.yaml"
hub_pid=${PEER_PIDS[hub]}
hub_gone() { # fails with the daemon's exit status
    local status=0
    wait "$hub_pid" 2>/dev/null || status=$?
    unset "PEER_PIDS[hub]"
    fail "midihub serve ended during the soak with status $status$( ((status > 128)) && echo " (signal $((status - 128)))"): $(tail -n 3 "$(peer_err hub)")"
}
start_peer keys python3 -u "$WORK/keys.py"
wait_for_peer_line keys "$(peer_out keys)" "^ready$"
start_peer control python3 -u "$WORK/control.py" "$SERVE_SOCKET" "$SOAK_EDIT_STEPS"
wait_for_peer_line control "$(peer_out control)" "^ready$"
start_peer probe "$PROBE" --name soak --count $((SOAK_SECONDS * 1000)) --rate 1000 --timeout 60
wait_for_peer_line probe "$(peer_out probe)" "^ready "

sample() { # MINUTE
    echo "sample minute=$1 rss_kb=$(rss_kb "$hub_pid") fds=$(fd_count "$hub_pid") threads=$(ls "/proc/$hub_pid/task" | wc -l)" \
        | tee -a "$RESULTS_FILE"
}
step "soaking for $SOAK_SECONDS s"
replugs=0
started=$SECONDS next_sample=$SECONDS minute=0
while ((SECONDS - started < SOAK_SECONDS)); do
    if ((SECONDS >= next_sample)); then
        sample "$minute"
        minute=$((minute + 1)) next_sample=$((next_sample + 60))
    fi
    kill -0 "$hub_pid" 2>/dev/null || hub_gone
    sleep $((SOAK_REPLUG_SECONDS / 2 - 1))
    unplug_usb_keys soak
    sleep 2
    kill -0 "$hub_pid" 2>/dev/null || hub_gone
    plug_usb_keys soak 0
    replugs=$((replugs + 1))
    sleep $((SOAK_REPLUG_SECONDS / 2 - 1))
done
wait_peer probe 600
((PEER_STATUS == 0)) || fail "seq-probe exited $PEER_STATUS: $(head -c 400 "$(peer_err probe)")"
echo "probe $(grep '^sent=' "$(peer_out probe)")" | tee -a "$RESULTS_FILE"
stop_peer keys TERM
stop_peer control TERM
echo "control $(grep '^sets=' "$(peer_out control)")" | tee -a "$RESULTS_FILE"
sleep 1
sample "$minute"
echo "replugs count=$replugs" | tee -a "$RESULTS_FILE"
stop_peer notes
# A note is hanging when a note-on (velocity > 0) has nothing after it that ends it: a
# note-off on its key, or All Notes Off or All Sound Off (CC 123, 120) on its channel —
# what the daemon sends a node it removes (the extra node plays into the same aseqdump).
aseqdump_events "$(peer_out notes)" | awk '
    { split($0, f, /[ ,]+/) }
    /^Note on / && $NF > 0 { held[f[3] ":" f[5]]++; on++; next }
    /^Note (on|off) / { key = f[3] ":" f[5]; if (held[key] > 0) held[key]--; off++; next }
    /^Control change / && (f[5] == 123 || f[5] == 120) { for (key in held) if (index(key, f[3] ":") == 1) held[key] = 0; cleared++ }
    END { hanging = 0; for (key in held) hanging += held[key]
          printf "notes on=%d off=%d channel_offs=%d hanging=%d\n", on, off, cleared, hanging }' \
    | tee -a "$RESULTS_FILE"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
