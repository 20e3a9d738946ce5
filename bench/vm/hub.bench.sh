# Hub benchmarks, run in the VM by bench/run-vm (through Tests/Integration/vm-run, so
# lib.sh and serve.sh helpers are loaded). Measures one sequencer path twice in the same
# boot — seq-probe's tx port → rx port directly subscribed (`aconnect`), and tx →
# `midihub serve --no-audio` → rx (an external node) — for hop latency (paced at
# 1 kHz) and throughput (offered at 100,000 events/s for 10 s), plus the daemon's RSS
# around the throughput run. Writes $WORK/hub.results, one line per run:
#   RUN key=value...   (seq-probe's keys; RUN is direct-latency, hub-latency,
#                       direct-throughput, hub-throughput; plus "hub-rss before_kb= after_kb=")
# Settings: LATENCY_EVENTS (5000), THROUGHPUT_RATE (100000), THROUGHPUT_SECONDS (10), from
# .build-bench/vm-settings.env (bench/run-vm writes it from its environment).
# timeout: 900

source "$REPO/Tests/Integration/serve.sh"
PROBE=$REPO/.build-bench/release/seq-probe
[[ -x $PROBE ]] || fail "no seq-probe at $PROBE (fix: run bench/run-vm, which builds it)"
SETTINGS=$REPO/.build-bench/vm-settings.env
[[ -f $SETTINGS ]] && source "$SETTINGS"
LATENCY_EVENTS=${LATENCY_EVENTS:-5000}
THROUGHPUT_RATE=${THROUGHPUT_RATE:-100000}
THROUGHPUT_SECONDS=${THROUGHPUT_SECONDS:-10}
RESULTS_FILE=$WORK/hub.results
: >"$RESULTS_FILE"
load_modules snd-seq

# Runs seq-probe as clients PREFIX-tx/PREFIX-rx with ARGS; with "direct", subscribes tx
# to rx by aconnect once the probe is ready. Appends "RUN <probe's result line>".
# Each direct run has its own PREFIX: the daemon remembers an aconnect as a hand edit and
# would remake it when ports of the same names return.
run_probe() { # RUN PREFIX direct|hub ARGS...
    local run=$1 prefix=$2 path=$3
    shift 3
    step "$run: seq-probe $*"
    start_peer "$run" "$PROBE" --name "$prefix" "$@"
    wait_for_peer_line "$run" "$(peer_out "$run")" "^ready "
    if [[ $path == direct ]]; then
        aconnect "$prefix-tx:0" "$prefix-rx:0" || fail "aconnect $prefix-tx:0 $prefix-rx:0 failed"
    fi
    wait_peer "$run" $((THROUGHPUT_SECONDS * 20 + 120))
    ((PEER_STATUS == 0)) || fail "seq-probe ($run) exited $PEER_STATUS: $(head -c 400 "$(peer_err "$run")")"
    echo "$run $(grep '^sent=' "$(peer_out "$run")")" | tee -a "$RESULTS_FILE"
}

cat >"$WORK/patch.yaml" <<YAML
nodes:
  probe: { source: '"hubbench-tx"' }
  receiver: { external: '"hubbench-rx"' }
routes:
  - probe -> receiver
rules:
  - connect "hubbench-tx" -> "midihub:in"
YAML
start_serve hub --no-audio --patch "$WORK/patch.yaml"
hub_pid=${PEER_PIDS[hub]}

throughput_events=$((THROUGHPUT_RATE * THROUGHPUT_SECONDS))
run_probe direct-latency latency direct --count "$LATENCY_EVENTS" --rate 1000
run_probe hub-latency hubbench hub --count "$LATENCY_EVENTS" --rate 1000
run_probe direct-throughput throughput direct --count "$throughput_events" --rate "$THROUGHPUT_RATE"
rss_before=$(rss_kb "$hub_pid")
run_probe hub-throughput hubbench hub --count "$throughput_events" --rate "$THROUGHPUT_RATE"
rss_after=$(rss_kb "$hub_pid")
echo "hub-rss before_kb=$rss_before after_kb=$rss_after" | tee -a "$RESULTS_FILE"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
