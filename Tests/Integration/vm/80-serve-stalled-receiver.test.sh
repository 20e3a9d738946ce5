# Issue 25, kernel test: a receiver that stops reading costs the others nothing.
# aplaymidi streams 5,460 events (2,600 notes, a CC every tenth, about 3 ms apart: aseqdump
# prints under the VM's emulation at 150-500 lines a second) into midihub:in; the patch routes them to three external nodes: aseqdump
# ("dump"), FluidSynth, and a second aseqdump ("stalled") stopped with SIGSTOP before the
# stream. dump gets every event in order, and FluidSynth loses none (nodes.list shows no
# loss for it); the hub reports the stalled one's loss (a log line, `node-overloaded` on the control stream, `receiver` in
# nodes.list). After SIGCONT the stalled one gets what waited in its queue, in order, with
# nothing invented, and then new notes again.
# Then a hub whose stderr is a full pipe nobody reads routes three songs whole: its log
# lines wait on their own thread, MIDI does not.
# timeout: 600

source "$REPO/Tests/Integration/serve.sh"
load_modules snd-seq-dummy
SOUNDFONT=/usr/share/sounds/sf2/FluidR3_GM.sf2
[[ -r $SOUNDFONT ]] || fail "no $SOUNDFONT (fix: scripts/install-deps installs fluid-soundfont-gm)"

# The stream: note i is key 36 + i mod 60 at velocity 1 + i / 60 (each pair once), on for
# three ticks, off for three (480 ticks a quarter at 120 BPM: about 1 ms each); and the lines
# aseqdump prints for it (the same awk, not midihub, says what is expected: aseqdump
# straight from aplaymidi loses events at this rate in the emulated VM).
awk -v csv="$WORK/stream.csv" 'BEGIN {
    print "0, 0, Header, 0, 1, 480" >csv; print "1, 0, Start_track" >csv; print "1, 0, Tempo, 500000" >csv
    for (i = 0; i < 2600; i++) {
        key = 36 + i % 60; velocity = 1 + int(i / 60)
        printf "1, %d, Note_on_c, 0, %d, %d\n", 6 * i, key, velocity >csv
        printf "Note on 0, note %d, velocity %d\n", key, velocity
        if (i % 10 == 0) {
            printf "1, %d, Control_c, 0, 1, %d\n", 6 * i + 1, i % 128 >csv
            printf "Control change 0, controller 1, value %d\n", i % 128
        }
        printf "1, %d, Note_off_c, 0, %d, 0\n", 6 * i + 3, key >csv
        printf "Note off 0, note %d, velocity 0\n", key
    }
    print "1, 15600, End_track" >csv; print "0, 0, End_of_file" >csv
}' >"$WORK/stream.txt"
csv_to_midi "$WORK/stream.mid" <"$WORK/stream.csv"
# A short song played after the stalled receiver is back.
awk -v csv="$WORK/after.csv" 'BEGIN {
    print "0, 0, Header, 0, 1, 480" >csv; print "1, 0, Start_track" >csv; print "1, 0, Tempo, 500000" >csv
    for (i = 0; i < 8; i++) {
        printf "1, %d, Note_on_c, 1, %d, 99\n", 60 * i, 60 + i >csv; printf "Note on 1, note %d, velocity 99\n", 60 + i
        printf "1, %d, Note_off_c, 1, %d, 0\n", 60 * i + 30, 60 + i >csv; printf "Note off 1, note %d, velocity 0\n", 60 + i
    }
    print "1, 480, End_track" >csv; print "0, 0, End_of_file" >csv
}' >"$WORK/after.txt"
csv_to_midi "$WORK/after.mid" <"$WORK/after.csv"
cat "$WORK/stream.txt" "$WORK/after.txt" >"$WORK/sent.txt"
assert_eq 5476 "$(wc -l <"$WORK/sent.txt")" "events in the two songs"

step "FluidSynth and two aseqdumps as the hub's external nodes; one of them stopped"
start_peer fluid fluidsynth -si -m alsa_seq -a file -r 48000 -o audio.file.name="$WORK/fluid.raw" \
    -o audio.file.type=raw -o audio.file.format=s16 "$SOUNDFONT"
wait_for "FluidSynth's sequencer port" 60 bash -c "aconnect -l | grep -q \"^client [0-9]*: 'FLUID Synth\""
start_aseqdump dump
dump_client=$(aseqdump_client dump)
start_aseqdump stalled
stalled_client=$(aseqdump_client stalled)
cat >"$WORK/patch.yaml" <<YAML
nodes:
  player: { source: 'app:"aplaymidi:*"' }
  dump: { external: '$dump_client:0' }
  fluid: { external: '"FLUID Synth*"' }
  stalled: { external: '$stalled_client:0' }
routes:
  - player -> dump
  - player -> fluid
  - player -> stalled
YAML
start_serve hub --no-audio --patch "$WORK/patch.yaml"
hub_client=$(client_number midihub)
start_peer events bash -c "{ echo '{\"id\":1,\"request\":\"subscribe\",\"params\":{\"events\":[\"node-overloaded\"]}}'; sleep 120; } \
    | socat -t 5 - UNIX-CONNECT:$SERVE_SOCKET"
wait_for_line "$(peer_out events)" '"ok":true'
kill -STOP "${PEER_PIDS[stalled]}"

step "aplaymidi streams through the hub while one receiver is stopped"
aplaymidi -p midihub:0 "$WORK/stream.mid" || fail "aplaymidi -p midihub:0 failed"
wait_for_lines "$(peer_out dump)" 5460 40
sleep 0.5
aseqdump_events "$(peer_out dump)" >"$WORK/dump-stream.txt"
assert_same_files "$WORK/stream.txt" "$WORK/dump-stream.txt" "dump's events while 'stalled' is stopped"

step "the stopped receiver's loss is reported: log line, node-overloaded, nodes.list"
wait_for_line "$(peer_err hub)" "'aseqdump:[^']*' \($stalled_client:0\) stopped taking MIDI: [0-9]+ messages dropped for it alone" 10
wait_for_line "$(peer_out events)" '"event":"node-overloaded"' 10
assert_file_has "$(peer_out events)" "\"event\":\"node-overloaded\".*\"node\":\"stalled\"|\"node\":\"stalled\".*\"event\":\"node-overloaded\"" "node-overloaded names the node"
midihub nodes --json >"$WORK/nodes.json" || fail "midihub nodes --json failed"
dropped=$(jq -r '.[] | select(.id == "stalled") | .receiver.dropped' "$WORK/nodes.json")
waiting=$(jq -r '.[] | select(.id == "stalled") | .receiver.waiting' "$WORK/nodes.json")
assert_match '^[1-9][0-9]*$' "$dropped" "nodes.list: messages 'stalled' lost"
assert_match '^[1-9][0-9]*$' "$waiting" "nodes.list: messages waiting for 'stalled'"
assert_eq "null null" "$(jq -r '[.[] | select(.id == "dump" or .id == "fluid") | .receiver] | map(tostring) | join(" ")' "$WORK/nodes.json")" \
    "nodes.list: dump and fluid keep up"

step "SIGCONT: the stopped receiver gets what waited, in order, then new notes"
kill -CONT "${PEER_PIDS[stalled]}"
sleep 1
aplaymidi -p midihub:0 "$WORK/after.mid" || fail "aplaymidi -p midihub:0 failed"
wait_for_line "$(peer_out stalled)" "Note off +1, note 67" 30
wait_for_line "$(peer_out dump)" "Note off +1, note 67" 30
sleep 0.3
aseqdump_events "$(peer_out stalled)" >"$WORK/stalled.txt"
got=$(($(wc -l <"$WORK/stalled.txt") - 16))
((got >= 4096 && got < 5460)) || fail "'stalled' got $got of the stream's 5460 events (expected its queue of 4096 and what its own input held)"
head -n "$got" "$WORK/stream.txt" >"$WORK/stalled-expected.txt"
cat "$WORK/after.txt" >>"$WORK/stalled-expected.txt"
assert_same_files "$WORK/stalled-expected.txt" "$WORK/stalled.txt" "what 'stalled' got: the stream's start in order, then the new notes"
assert_eq $((5460 - got)) "$dropped" "the loss nodes.list reported is what 'stalled' missed"
# KILL: SIGINT would reach only the pipeline's bash, which waits for its sleep, and
# stop_peer would wait 30 s before killing it anyway.
stop_peer events KILL
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer stalled
stop_peer dump
stop_peer fluid TERM

step "a hub whose stderr is a full pipe nobody reads keeps routing"
start_aseqdump dump2
dump2_client=$(aseqdump_client dump2)
sed -e "s/'$dump_client:0'/'$dump2_client:0'/" -e '/fluid\|stalled/d' "$WORK/patch.yaml" >"$WORK/patch2.yaml"
FIFO=$XDG_RUNTIME_DIR/stderr.fifo  # the guest's tmpfs: the shared results folder cannot hold a FIFO
mkfifo "$FIFO" || fail "cannot make a FIFO in $XDG_RUNTIME_DIR"
exec 7<>"$FIFO"
# Fill the pipe (64 KiB) so that the daemon's first write to stderr would block.
python3 -c 'import fcntl, os, sys; fd = int(sys.argv[1]); fcntl.fcntl(fd, fcntl.F_SETFL, os.O_NONBLOCK)
try:
    while True: os.write(fd, b"x" * 4096)
except BlockingIOError: pass' 7
start_peer blocked bash -c "exec midihub serve --state '$WORK/state2.json' --no-audio --patch '$WORK/patch2.yaml' 2>'$FIFO'"
wait_for "the second hub's sequencer client" 60 bash -c "aconnect -l | grep -q \"^client [0-9]*: 'midihub'\""
sleep 1
# Each new aplaymidi client makes the daemon log lines ("port appeared", "port left"): none gets out.
for take in 1 2 3; do
    aplaymidi -p midihub:0 "$WORK/after.mid" || fail "aplaymidi -p midihub:0 failed"
done
wait_for_lines "$(peer_out dump2)" $((3 * 16)) 30
sleep 0.3
aseqdump_events "$(peer_out dump2)" >"$WORK/dump2.txt"
cat "$WORK/after.txt" "$WORK/after.txt" "$WORK/after.txt" >"$WORK/after3.txt"
assert_same_files "$WORK/after3.txt" "$WORK/dump2.txt" "dump's events from a hub whose stderr is blocked"
stop_peer blocked KILL
exec 7>&-
