# Issue 28, kernel test: the default daemon keeps feedback loops out of midihub:in without
# touching connections between other programs. With `midihub serve` running the embedded
# default (no patch, no saved state), aseqdump and arecordmidi subscribe to Midi Through
# (14:0) themselves and aplaymidi plays a song to it: both get every event; the hub breaks
# no connection by rule, and Midi Through is not connected to midihub:in. Then a state
# saved with the former default rules (`disallow "Midi Through" -> *`) is started with
# today's, and says so.
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
load_modules snd-seq-dummy

# 24 notes of a quarter each at 480 ticks a quarter and 240 BPM (an eighth of a second),
# and the lines aseqdump prints for them.
awk -v csv="$WORK/song.csv" 'BEGIN {
    print "0, 0, Header, 0, 1, 480" >csv; print "1, 0, Start_track" >csv; print "1, 0, Tempo, 250000" >csv
    for (i = 0; i < 24; i++) {
        printf "1, %d, Note_on_c, 0, %d, 100\n", 480 * i, 48 + i >csv; printf "Note on 0, note %d, velocity 100\n", 48 + i
        printf "1, %d, Note_off_c, 0, %d, 0\n", 480 * i + 240, 48 + i >csv; printf "Note off 0, note %d, velocity 0\n", 48 + i
    }
    print "1, 11520, End_track" >csv; print "0, 0, End_of_file" >csv
}' >"$WORK/sent.txt"
csv_to_midi "$WORK/song.mid" <"$WORK/song.csv"

step "the default daemon, and two programs recording Midi Through"
rm -f "$SERVE_STATE"
start_serve hub --no-audio
assert_file_has "$(peer_err hub)" "no patch and no saved state" "the daemon runs the embedded default"
start_aseqdump dump -p 14:0
start_peer rec arecordmidi -p 14:0 "$WORK/recorded.mid"
wait_for_client arecordmidi 30
recorder=$(client_number arecordmidi)
through_feeds_recorder() { connections_by_aconnect | grep -q "^14:0>$recorder:0$"; }
poll_until 30 through_feeds_recorder || fail "arecordmidi did not subscribe to 14:0: $(connections_by_aconnect | tr '\n' ' ')"
# The rules settle 0.25 s after a subscription is announced; the former default broke
# both subscriptions then.
sleep 2

step "aplaymidi plays to Midi Through: both programs get every event"
aplaymidi -p 14:0 "$WORK/song.mid" 2>"$WORK/aplaymidi.err" || fail "aplaymidi failed: $(head -c 300 "$WORK/aplaymidi.err")"
poll_until 30 bash -c "[[ \$(grep -c 'Note off' '$(peer_out dump)') -ge 24 ]]" \
    || fail "aseqdump got $(grep -c 'Note' "$(peer_out dump)") of 48 events; the hub's log: $(grep -i connect "$(peer_err hub)" | tail -n 5)"
aseqdump_events "$(peer_out dump)" >"$WORK/dumped.txt"
assert_same_files "$WORK/sent.txt" "$WORK/dumped.txt" "what aseqdump printed from Midi Through"
through_feeds_recorder || fail "arecordmidi's subscription is gone: $(connections_by_aconnect | tr '\n' ' ')"
stop_peer rec INT
midicsv "$WORK/recorded.mid" | grep -cE 'Note_(on|off)_c' >"$WORK/recorded.count" || true
assert_eq 48 "$(cat "$WORK/recorded.count")" "notes arecordmidi recorded from Midi Through"
assert_file_lacks "$(peer_err hub)" "disconnected 14:0" "the hub's log"
hub_client=$(client_number midihub)
connections_by_aconnect | grep -q "^14:0>$hub_client:0$" && fail "Midi Through is connected to midihub:in: $(connections_by_aconnect | tr '\n' ' ')"
stop_peer dump
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"

step "a state saved with the former default rules starts with today's"
jq '.rules = ["connect hardware:* -> \"midihub:in\"", "disallow \"Midi Through\" -> *"]' "$SERVE_STATE" >"$WORK/former.json" \
    || fail "the saved state is not JSON: $(head -c 300 "$SERVE_STATE")"
mv "$WORK/former.json" "$SERVE_STATE"
start_serve again --no-audio
assert_file_has "$(peer_err again)" "rules: the former default's .* now .disallow \"Midi Through\" -> \"midihub:in\"." "the log line"
midihub rules >"$WORK/rules.txt" 2>&1 || fail "midihub rules failed: $(head -c 300 "$WORK/rules.txt")"
assert_file_has "$WORK/rules.txt" '^disallow "Midi Through" -> "midihub:in"$' "the rules in force"
assert_file_lacks "$WORK/rules.txt" '-> \*$' "the rules in force"
stop_peer again
