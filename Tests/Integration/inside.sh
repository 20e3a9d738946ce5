#!/usr/bin/env bash
# The guest side of vm-run: runs inside the VM, as root, once per boot.
# Usage: inside.sh RESULTS_DIR   (RESULTS_DIR/run.env lists the tests; see vm-run)
# Writes RESULTS_DIR/results.tap (TAP 13) and RESULTS_DIR/logs/NAME.log per test;
# the host reads them back. Each test runs in its own session with a time limit,
# after every sound module is unloaded, so it starts from a clean kernel state.
set -uo pipefail

RESULTS=$1
# shellcheck source=/dev/null
source "$RESULTS/run.env"  # MIDIHUB, REPO, TEST_TIMEOUT, SUFFIX, TESTS=(paths)
export MIDIHUB REPO
TAP="$RESULTS/results.tap"
HERE=$(dirname "$(readlink -f "$0")")
# shellcheck source=usb-gadget.sh
source "$HERE/usb-gadget.sh"  # remove_usb_gadgets

# Removes the USB gadgets a test made, unloads every sound module (leaves last) and
# unhides /dev/snd, so the next test sees the kernel as freshly booted.
reset_sound_state() {
    remove_usb_gadgets
    while mountpoint -q /dev/snd 2>/dev/null; do umount /dev/snd; done
    local pass module
    for pass in 1 2 3 4 5 6; do
        local loaded=()
        while read -r module _ refs _; do
            [[ $module == snd* && $refs == 0 ]] && loaded+=("$module")
        done </proc/modules
        ((${#loaded[@]})) || break
        rmmod "${loaded[@]}" 2>/dev/null || for module in "${loaded[@]}"; do rmmod "$module" 2>/dev/null; done
    done
    if grep -q '^snd' /proc/modules; then
        echo "# warning: sound modules still loaded: $(grep -o '^snd[^ ]*' /proc/modules | tr '\n' ' ')" >>"$TAP"
    fi
}

# Runs one test in its own session (setsid + timeout: the test and every peer it started
# share one process group, killed afterwards whatever the test left running); its output
# goes to LOG.
# Usage: run_test TEST WORK LOG LIMIT; returns the test's status (124: timed out).
run_test() {
    local test=$1 work=$2 log=$3 limit=$4 group status=0
    WORK=$work setsid timeout -k 5 "$limit" \
        bash -c 'cd "$WORK" && source "$1" && source "$2"' _ "$HERE/lib.sh" "$test" \
        </dev/null >"$log" 2>&1 &
    group=$!
    wait "$group" || status=$?
    kill -KILL -- "-$group" 2>/dev/null
    # Until they are gone: a killed client still dying would hold its sequencer client
    # number when the next test starts (CI saw fluidsynth get 129 instead of 128).
    for _ in {1..100}; do pgrep -g "$group" >/dev/null || break; sleep 0.1; done
    # And until the sequencer has let their clients go: a client's number is free once its
    # last descriptor is closed, which may be after its process is gone (CI saw fluidsynth
    # get 129 again with the wait above). Clients from 128 on are programs', not the kernel's.
    for _ in {1..100}; do grep -qE '^Client +(12[89]|1[3-9][0-9]) :' /proc/asound/seq/clients 2>/dev/null || break; sleep 0.1; done
    [[ $status == 124 ]] && echo "FAIL: timed out after ${limit}s" >>"$log"
    return "$status"
}

echo "TAP version 13" >"$TAP"
echo "1..${#TESTS[@]}" >>"$TAP"
echo "# kernel $(uname -r)" >>"$TAP"
mkdir -p "$RESULTS/logs" "$RESULTS/work"

number=0
for test in "${TESTS[@]}"; do
    number=$((number + 1))
    name=$(basename "$test" "$SUFFIX")
    work="$RESULTS/work/$name"
    log="$RESULTS/logs/$name.log"
    mkdir -p "$work"
    reset_sound_state
    dmesg --clear
    # A test may raise its limit with a line "# timeout: SECONDS".
    limit=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$test" | head -n 1)
    limit=${limit:-$TEST_TIMEOUT}
    # A test whose verdict rests on the emulated VM's timing may say "# retry: WHY": failed,
    # it runs once more from a clean kernel state, and only the second run decides (the
    # first one's log and work folder stay as logs/NAME.first.log and work/NAME.first, and
    # the TAP line says so). A feature that is broken fails both.
    retry=$(sed -n 's/^# retry: \(.*\)$/\1/p' "$test" | head -n 1)
    start=$SECONDS
    run_test "$test" "$work" "$log" "$limit"
    status=$?
    first=
    if [[ $status != 0 && -n $retry ]]; then
        first=" (the first run failed: logs/$name.first.log)"
        dmesg >"$work/dmesg.txt"
        mv "$log" "$RESULTS/logs/$name.first.log"
        mv "$work" "$work.first" && mkdir -p "$work"
        reset_sound_state
        dmesg --clear
        run_test "$test" "$work" "$log" "$limit"
        status=$?
    fi
    elapsed=$((SECONDS - start))
    if [[ $status == 0 ]]; then
        echo "ok $number - $name (${elapsed}s)$first" >>"$TAP"
    else
        dmesg >"$work/dmesg.txt"  # the kernel's messages during this test
        echo "not ok $number - $name (exit $status, ${elapsed}s)$first" >>"$TAP"
    fi
done
reset_sound_state
echo "# done" >>"$TAP"
