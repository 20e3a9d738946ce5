# seq-probe runs for the VM benchmarks (bench/vm/*.bench.sh): sourced by hub.bench.sh and
# remote.bench.sh after lib.sh. Needs PROBE (seq-probe's path) and RESULTS_FILE (where result
# lines go); THROUGHPUT_SECONDS (10 unless set) sets how long a run may take.

# Runs seq-probe as clients PREFIX-tx/PREFIX-rx with ARGS; with "direct", subscribes tx
# to rx by aconnect once the probe is ready. Appends "RUN <probe's result line>" and keeps
# the line in PROBE_RESULT.
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
    wait_peer "$run" $((${THROUGHPUT_SECONDS:-10} * 20 + 120))
    ((PEER_STATUS == 0)) || fail "seq-probe ($run) exited $PEER_STATUS: $(head -c 400 "$(peer_err "$run")")"
    PROBE_RESULT=$(grep '^sent=' "$(peer_out "$run")")
    echo "$run $PROBE_RESULT" | tee -a "$RESULTS_FILE"
}
