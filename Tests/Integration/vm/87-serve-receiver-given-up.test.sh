# Issue 28, kernel test: a receiver that takes no MIDI for the receiver timeout is given up
# on — a node dropped for overload. The hub (--receiver-timeout 5) plays a stream of 3,000
# events (notes on channels 1 and 3) to two aseqdumps; one ("stalled") is stopped with
# SIGSTOP first. Five seconds after MIDI began to wait for it, the hub gives up on it: one
# log line, `node-gone` with reason `overloaded` on the control stream, nothing waiting for
# it in nodes.list; the other aseqdump gets every event. After SIGCONT the stalled one gets
# only what its own kernel input held (not the hub's stale queue: fewer than the 3,000 it
# would get otherwise), then sustain off and all notes off on channels 1 and 3 (the
# channels whose messages it lost, so no note hangs), then new notes as before.
# timeout: 600

source "$REPO/Tests/Integration/serve.sh"
load_modules snd-seq-dummy

# The stream: 1,500 notes (on, then off three ticks later), alternately on channels 1 and
# 3 (0 and 2 as aseqdump counts), one every six ticks (about 1 ms each: 9 s in all).
awk -v csv="$WORK/stream.csv" 'BEGIN {
    print "0, 0, Header, 0, 1, 480" >csv; print "1, 0, Start_track" >csv; print "1, 0, Tempo, 500000" >csv
    for (i = 0; i < 1500; i++) {
        channel = 2 * (i % 2); key = 36 + i % 60
        printf "1, %d, Note_on_c, %d, %d, 80\n", 6 * i, channel, key >csv
        printf "Note on %d, note %d, velocity 80\n", channel, key
        printf "1, %d, Note_off_c, %d, %d, 0\n", 6 * i + 3, channel, key >csv
        printf "Note off %d, note %d, velocity 0\n", channel, key
    }
    print "1, 9000, End_track" >csv; print "0, 0, End_of_file" >csv
}' >"$WORK/stream.txt"
csv_to_midi "$WORK/stream.mid" <"$WORK/stream.csv"
awk -v csv="$WORK/after.csv" 'BEGIN {
    print "0, 0, Header, 0, 1, 480" >csv; print "1, 0, Start_track" >csv; print "1, 0, Tempo, 500000" >csv
    for (i = 0; i < 4; i++) {
        printf "1, %d, Note_on_c, 1, %d, 99\n", 60 * i, 60 + i >csv; printf "Note on 1, note %d, velocity 99\n", 60 + i
        printf "1, %d, Note_off_c, 1, %d, 0\n", 60 * i + 30, 60 + i >csv; printf "Note off 1, note %d, velocity 0\n", 60 + i
    }
    print "1, 240, End_track" >csv; print "0, 0, End_of_file" >csv
}' >"$WORK/after.txt"
csv_to_midi "$WORK/after.mid" <"$WORK/after.csv"

step "two aseqdumps as the hub's external nodes; one stopped"
start_aseqdump dump
dump_client=$(aseqdump_client dump)
start_aseqdump stalled
stalled_client=$(aseqdump_client stalled)
cat >"$WORK/patch.yaml" <<YAML
nodes:
  player: { source: 'app:"aplaymidi:*"' }
  dump: { external: '$dump_client:0' }
  stalled: { external: '$stalled_client:0' }
routes:
  - player -> dump
  - player -> stalled
YAML
start_serve hub --no-audio --receiver-timeout 5 --patch "$WORK/patch.yaml"
start_peer events bash -c "{ echo '{\"id\":1,\"request\":\"subscribe\",\"params\":{\"events\":[\"node-gone\"]}}'; sleep 300; } \
    | socat -t 5 - UNIX-CONNECT:$SERVE_SOCKET"
wait_for_line "$(peer_out events)" '"ok":true'
kill -STOP "${PEER_PIDS[stalled]}"

step "the stream plays; five seconds after MIDI began to wait for 'stalled', the hub gives up on it"
aplaymidi -p midihub:0 "$WORK/stream.mid" || fail "aplaymidi -p midihub:0 failed"
wait_for_line "$(peer_err hub)" "'aseqdump:[^']*' \($stalled_client:0\) took no MIDI for 5 s: gave up on it, [0-9]+ waiting messages discarded" 30
wait_for_line "$(peer_out events)" '"event":"node-gone"' 10
assert_eq '{"event":"node-gone","node":"stalled","reason":"overloaded"}' \
    "$(grep -F '"node-gone"' "$(peer_out events)" | jq -c -S . | head -n 1)" "the node-gone event"
midihub nodes --json >"$WORK/nodes.json" || fail "midihub nodes --json failed"
assert_eq 0 "$(jq -r '.[] | select(.id == "stalled") | .receiver.waiting' "$WORK/nodes.json")" \
    "messages waiting for 'stalled' once given up on"
wait_for_lines "$(peer_out dump)" 3000 60
sleep 0.5
aseqdump_events "$(peer_out dump)" >"$WORK/dump.txt"
assert_same_files "$WORK/stream.txt" "$WORK/dump.txt" "dump's events while 'stalled' is given up on"

step "SIGCONT: 'stalled' gets what its kernel input held, all notes off on channels 1 and 3, then new notes"
kill -CONT "${PEER_PIDS[stalled]}"
wait_for_line "$(peer_err hub)" "'aseqdump:[^']*' \($stalled_client:0\) reads MIDI again" 30
aplaymidi -p midihub:0 "$WORK/after.mid" || fail "aplaymidi -p midihub:0 failed"
wait_for_line "$(peer_out stalled)" "Note off +1, note 63" 30
sleep 0.3
aseqdump_events "$(peer_out stalled)" >"$WORK/stalled.txt"
got=$(($(wc -l <"$WORK/stalled.txt") - 4 - 8))
((got >= 1 && got < 3000)) || fail "'stalled' got $got of the stream's 3000 events (expected what its own input held, not the hub's queue)"
{
    head -n "$got" "$WORK/stream.txt"
    printf 'Control change %d, controller %d, value 0\n' 0 64 0 123 2 64 2 123
    cat "$WORK/after.txt"
} >"$WORK/stalled-expected.txt"
assert_same_files "$WORK/stalled-expected.txt" "$WORK/stalled.txt" \
    "what 'stalled' got: the start of the stream, sustain and notes off where it lost messages, the new notes"
# KILL: SIGINT would reach only the pipeline's bash, which waits for its sleep, and
# stop_peer would wait 30 s before killing it anyway.
stop_peer events KILL
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer stalled
stop_peer dump
