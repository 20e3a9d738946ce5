# The web remote's rows, run in the VM by bench/run-vm (issue 26): `midihub serve --no-audio
# --remote 127.0.0.1:8080` with seq-probe's hub path (remotebench-tx → transpose →
# remotebench-rx) and a slider on a transpose outside that path. Clients are
# bench/vm/remote_clients.py (Debian's python3-websocket). Measures, in one daemon:
#   - a widget move (widgets.set) to its parameter-changed at a second client, both on
#     WebSockets, then both on the control socket (the anchor: the same move without the remote);
#   - the hub's hop latency (seq-probe at 1 kHz) without remote clients, then with
#     REMOTE_CLIENTS WebSocket clients subscribed to every event while the first of them
#     moves the slider REMOTE_MOVE_RATE times a second (each move an event to every client);
#   - the daemon's RSS with no client and with the crowd connected.
# Writes $WORK/remote.results, one line per run:
#   ws-move moves= p50_us= p99_us= max_us=      socket-move (the same keys)
#   hub-latency <seq-probe's keys>               hub-latency-crowd <seq-probe's keys>
#   crowd clients= events= dropped= moves= rate=
#   daemon-cpu idle_ms= crowd_ms=               (the daemon's CPU time during each latency run)
#   remote-rss none_kb= crowd_kb= clients=
# Settings: LATENCY_EVENTS (5000), REMOTE_MOVES (200), REMOTE_CLIENTS (50),
# REMOTE_MOVE_RATE (10), from .build-bench/vm-settings.env (bench/run-vm writes it).
# timeout: 600

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/bench/vm/seq-probe.sh"
/usr/bin/python3 -c 'import websocket' 2>/dev/null \
    || fail "no websocket module for python3 (fix: scripts/install-deps installs python3-websocket)"
REMOTE_MOVES=${REMOTE_MOVES:-200}
REMOTE_CLIENTS=${REMOTE_CLIENTS:-50}
REMOTE_MOVE_RATE=${REMOTE_MOVE_RATE:-10}
RESULTS_FILE=$WORK/remote.results
CLIENTS=$REPO/bench/vm/remote_clients.py
WIDGET=knob.semitones
: >"$RESULTS_FILE"
load_modules snd-seq

cat >"$WORK/patch.yaml" <<YAML
nodes:
  probe: { source: '"remotebench-tx"' }
  up: { processor: transpose }
  receiver: { external: '"remotebench-rx"' }
  knob: { processor: transpose }
routes:
  - probe -> up
  - up -> receiver
widgets:
  - { slider: $WIDGET, title: Knob }
rules:
  - connect "remotebench-tx" -> "midihub:in"
YAML

start_serve hub --no-audio --patch "$WORK/patch.yaml" --remote 127.0.0.1:8080
hub_pid=${PEER_PIDS[hub]}
wait_for "the remote's URL" 60 bash -c 'midihub remote --json >"$1"' _ "$WORK/remote.json"
url=$(jq -r .url "$WORK/remote.json")
ws_url="ws://${url#http://}"
ws_url="${ws_url%%/\?*}/ws?${url#*\?}"

# Times REMOTE_MOVES moves on ENDPOINT; appends "RUN <the clients' line>".
time_moves() { # RUN ENDPOINT
    step "$1: $REMOTE_MOVES widget moves"
    local line
    line=$(/usr/bin/python3 -u "$CLIENTS" move "$2" "$WIDGET" "$REMOTE_MOVES") || fail "remote_clients.py move ($1) failed"
    echo "$1 $line" | tee -a "$RESULTS_FILE"
}
time_moves ws-move "$ws_url"
time_moves socket-move "$SERVE_SOCKET"

# The CPU time PID has used, ms (user + system).
cpu_ms() { # PID
    awk -v tick="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / tick) }' "/proc/$1/stat"
}

daemon_cpu=$(cpu_ms "$hub_pid")
run_probe hub-latency remotebench hub --count "$LATENCY_EVENTS" --rate 1000
daemon_cpu_idle=$(($(cpu_ms "$hub_pid") - daemon_cpu))
rss_none=$(rss_kb "$hub_pid")
# The clients stand for browsers on other devices: at the lowest priority, they take only
# the time that the daemon and seq-probe leave.
start_peer crowd nice -n 19 /usr/bin/python3 -u "$CLIENTS" crowd "$ws_url" "$WIDGET" "$REMOTE_CLIENTS" "$REMOTE_MOVE_RATE"
wait_for_peer_line crowd "$(peer_out crowd)" "^ready$" 300
sleep 2  # a few moves fanned out before the RSS is read
rss_crowd=$(rss_kb "$hub_pid")
daemon_cpu=$(cpu_ms "$hub_pid")
run_probe hub-latency-crowd remotebench hub --count "$LATENCY_EVENTS" --rate 1000
daemon_cpu_crowd=$(($(cpu_ms "$hub_pid") - daemon_cpu))
stop_peer crowd TERM
echo "crowd $(grep '^clients=' "$(peer_out crowd)") rate=$REMOTE_MOVE_RATE" | tee -a "$RESULTS_FILE"
echo "daemon-cpu idle_ms=$daemon_cpu_idle crowd_ms=$daemon_cpu_crowd" | tee -a "$RESULTS_FILE"
echo "remote-rss none_kb=$rss_none crowd_kb=$rss_crowd clients=$REMOTE_CLIENTS" | tee -a "$RESULTS_FILE"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
