# seq-probe runs for the VM benchmarks (bench/vm/*.bench.sh): sourced by hub.bench.sh,
# remote.bench.sh and network.bench.sh after lib.sh. Sets PROBE (seq-probe's path) and the
# settings bench/run-vm writes (.build-bench/vm-settings.env: LATENCY_EVENTS,
# THROUGHPUT_RATE, THROUGHPUT_SECONDS, BISECT_SECONDS, BISECT_STEPS, REMOTE_*) with their
# defaults; needs RESULTS_FILE (where result lines go).

PROBE=$REPO/.build-bench/release/seq-probe
[[ -x $PROBE ]] || fail "no seq-probe at $PROBE (fix: run bench/run-vm, which builds it)"
SETTINGS=$REPO/.build-bench/vm-settings.env
[[ -f $SETTINGS ]] && source "$SETTINGS"
LATENCY_EVENTS=${LATENCY_EVENTS:-5000}
THROUGHPUT_RATE=${THROUGHPUT_RATE:-100000}
THROUGHPUT_SECONDS=${THROUGHPUT_SECONDS:-10}
BISECT_SECONDS=${BISECT_SECONDS:-3}
BISECT_STEPS=${BISECT_STEPS:-5}

# A paced run (1,000 events/s or fewer: the latency runs) runs the probe at SCHED_FIFO
# PROBE_PRIORITY (the VM's tests run as root), above the hub's MIDI input thread (50, as
# `midihub serve` asks for it as root) and every load a bench puts beside it: what it
# measures is the path, not how long its own reading thread waited for a CPU that clients
# listing nodes or sweeping parameters were using. A faster run keeps the normal policy: a
# sender above the router, busy at 100,000 events/s, would starve the path it measures.
PROBE_PRIORITY=${PROBE_PRIORITY:-60}

# Runs seq-probe as clients PREFIX-tx/PREFIX-rx with ARGS; with "direct", subscribes tx
# to rx by aconnect once the probe is ready; with "link", tx to the port LINK_IN and the
# port LINK_OUT to rx (a path through other programs, such as two hosts' network programs);
# with "hub", the daemon's patch connects them. Appends "RUN <probe's result line>" and keeps
# the line in PROBE_RESULT. When PROBE_LINK_ALIVE names a function and a link run fails with
# that function saying the link's programs are gone, the run lost every event
# ("link_crashed=1").
# Each direct run has its own PREFIX: the daemon remembers an aconnect as a hand edit and
# would remake it when ports of the same names return.
run_probe() { # RUN PREFIX direct|link|hub ARGS...
    local run=$1 prefix=$2 path=$3
    shift 3
    step "$run: seq-probe $*"
    local rate policy=()
    rate=$(sed -nE 's/.*--rate ([0-9]+).*/\1/p' <<<"$*")
    ((${rate:-1000} <= 1000)) && policy=(chrt -f "$PROBE_PRIORITY")
    start_peer "$run" "${policy[@]}" "$PROBE" --name "$prefix" "$@"
    wait_for_peer_line "$run" "$(peer_out "$run")" "^ready "
    case $path in
        direct) aconnect "$prefix-tx:0" "$prefix-rx:0" || fail "aconnect $prefix-tx:0 $prefix-rx:0 failed" ;;
        link) aconnect "$prefix-tx:0" "$LINK_IN" && aconnect "$LINK_OUT" "$prefix-rx:0" \
                  || fail "aconnect $prefix-tx:0 → $LINK_IN, $LINK_OUT → $prefix-rx:0 failed" ;;
    esac
    wait_peer "$run" $((${THROUGHPUT_SECONDS:-10} * 20 + 120))
    if ((PEER_STATUS != 0)) && [[ $path == link && -n ${PROBE_LINK_ALIVE:-} ]] && ! "$PROBE_LINK_ALIVE"; then
        # The program carrying the link died under the load (aseqnet segfaults at high rates):
        # a result of the run — every event lost — not a failure of the bench.
        local count
        count=$(sed -nE 's/.*--count ([0-9]+).*/\1/p' <<<"$*")
        PROBE_RESULT="sent=${count:-0} received=0 lost=${count:-0} link_crashed=1"
    else
        ((PEER_STATUS == 0)) || fail "seq-probe ($run) exited $PEER_STATUS: $(head -c 400 "$(peer_err "$run")")"
        PROBE_RESULT=$(grep '^sent=' "$(peer_out "$run")")
    fi
    echo "$run $PROBE_RESULT" | tee -a "$RESULTS_FILE"
}

# Finds the highest offered rate (events/s) at which PATH loses nothing over a
# BISECT_SECONDS run: tries THROUGHPUT_RATE, then bisects [0, THROUGHPUT_RATE] for
# BISECT_STEPS more runs. Appends "RUN rate=HIGHEST_LOSSLESS seconds=S tried=RATE:LOST,...".
# Calls the function PROBE_SETUP names, if set, before each run (the network bench's fresh link).
BISECT_RUNS=0
find_lossless_rate() { # RUN direct|link|hub
    local run=$1 path=$2 low=0 high=$THROUGHPUT_RATE rate=$THROUGHPUT_RATE tried="" steps=0 prefix lost
    while :; do
        prefix=hubbench
        [[ $path != hub ]] && prefix=bisect$((++BISECT_RUNS))
        [[ -n ${PROBE_SETUP:-} ]] && "$PROBE_SETUP"
        run_probe "$run-$rate" "$prefix" "$path" --count $((rate * BISECT_SECONDS)) --rate "$rate"
        lost=$(sed -n 's/.* lost=\([0-9]*\) .*/\1/p' <<<"$PROBE_RESULT")
        [[ -n $lost ]] || fail "no lost= in seq-probe's line: $PROBE_RESULT"
        tried+="$rate:$lost,"
        if ((lost == 0)); then low=$rate; else high=$rate; fi
        ((low == THROUGHPUT_RATE || ++steps > BISECT_STEPS)) && break
        rate=$(((low + high) / 2))
    done
    echo "$run rate=$low seconds=$BISECT_SECONDS tried=${tried%,}" | tee -a "$RESULTS_FILE"
}
