# Issue 27 part 4, kernel test: RTP-MIDI sessions inside `midihub serve`. The daemon runs
# docs/network.md's rack patch (its `network:` section listening on 127.0.0.1, its synth an
# aseqdump here); a standalone `midihub network connect --foreground` on 127.0.0.2 (the
# laptop) gets a session with it: notes sent to the laptop's session port reach aseqdump
# through the daemon's rule, source node and route; `midihub network status` (and --json,
# and the control protocol's network.status as the doc shows it) lists the peer up with a
# latency from the clock sync; a socat subscriber sees session-up, then session-down when
# the laptop ends. Then the doc's daemon commands against a listener on 127.0.0.3: `network
# connect` hands the peer to the daemon, which invites it, keeps it in its state across a
# restart, and `network disconnect` ends it (the listener hears BY). Loading a patch applies
# its `network:`: a peer it adds is invited, one it drops is ended.
# timeout: 600

source "$REPO/Tests/Integration/serve.sh"
load_modules snd-seq-dummy

step "rack-patch: the daemon runs docs/network.md's patch on 127.0.0.1, an aseqdump as its synth"
# The doc's synth is FluidSynth: an aseqdump shows what reaches it. The laptop invites the
# daemon here (the doc's daemon invites the laptop: crossing invitations are another test's).
doc_block docs/network.md rack-patch \
    | sed -e 's/name: rack }/name: rack, address: 127.0.0.1 }/' -e '/^  connect: \[/d' -e 's/"FLUID Synth"/"aseqdump"/' \
    >"$WORK/rack.yaml"
grep -q 'address: 127.0.0.1 }' "$WORK/rack.yaml" && grep -q '"aseqdump"' "$WORK/rack.yaml" \
    || fail "the doc's patch changed: $(tr '\n' '|' <"$WORK/rack.yaml")"
start_aseqdump dump
dump=$(peer_out dump)
start_serve hub --no-audio --patch "$WORK/rack.yaml"
wait_for_peer_line hub "$(peer_err hub)" "network: listening as 'rack' on UDP 127\.0\.0\.1:5004 and 5005" 30
hub_client=$(client_number midihub)

step "a subscriber to session events"
start_peer events bash -c "{ echo '{\"id\":1,\"request\":\"subscribe\",\"params\":{\"events\":[\"session-up\",\"session-down\"]}}'; sleep 600; } | socat - UNIX-CONNECT:$SERVE_SOCKET"
wait_for_peer_line events "$(peer_out events)" '"ok":true' 30

step "a standalone laptop on 127.0.0.2 invites the daemon: the session is a port of the daemon's 'midihub network'"
start_peer laptop midihub network connect 127.0.0.1 --foreground --name laptop --address 127.0.0.2
wait_for_peer_line laptop "$(peer_out laptop)" "session up: 'rack' at 127\.0\.0\.1:5004, port [0-9]+:[0-9]+ 'rack'" 30
wait_for_peer_line hub "$(peer_err hub)" "network: session up: 'laptop' at 127\.0\.0\.2:5004, port [0-9]+:[0-9]+ 'laptop'" 30
laptop_port=$(grep -oE "network: session up: 'laptop' at [^ ]+ port [0-9]+:[0-9]+" "$(peer_err hub)" | grep -oE "[0-9]+:[0-9]+$")
wait_for_line "$(peer_out events)" '"event":"session-up"'
midihub ports >"$WORK/ports.txt"
assert_file_has "$WORK/ports.txt" "^$laptop_port +duplex +app +midihub network +laptop" "midihub ports lists the daemon's session port"

step "notes sent to the laptop's port reach the daemon's rule target"
wait_for "the rule connects $laptop_port to midihub:in" 30 bash -c \
    "aconnect -l | awk -v c='client ${laptop_port%%:*}:' '/^client/ { on = index(\$0, c) == 1 } on' | grep -q 'Connecting To: .*$hub_client:0'"
assert_exit 0 midihub send rack 91 3c 64 b1 4a 20 81 3c 00
wait_for_line "$dump" "Note off"
assert_eq "Note on 1, note 60, velocity 100
Control change 1, controller 74, value 32
Note off 1, note 60, velocity 0" "$(aseqdump_events "$dump")" "what reached aseqdump through the session and the daemon"

step "midihub network status: the laptop, up, with a latency from the clock sync"
wait_for "a latency in network status" 30 bash -c \
    "midihub network status --json | jq -e '.[] | select(.peer == \"laptop\" and .state == \"up\" and .latencyMs != null)' >/dev/null"
midihub network status --json >"$WORK/status.json" || fail "midihub network status --json failed"
assert_eq "laptop 127.0.0.2:5004 up false $laptop_port" \
    "$(jq -r '.[] | "\(.peer) \(.address) \(.state) \(.invited) \(.port)"' "$WORK/status.json")" "the session in network status --json"
jq -e '.[0].packetsReceived >= 1 and .[0].packetsLost == 0 and .[0].latencyMs < 1000' "$WORK/status.json" >/dev/null \
    || fail "the session's counters: $(cat "$WORK/status.json")"
midihub network status >"$WORK/status.txt" || fail "midihub network status failed"
# status-line: the doc's line with its numbers and addresses as here.
doc_block docs/network.md status-line \
    | sed -E 's/192\.168\.1\.10/127.0.0.2/; s/port [0-9]+:[0-9]+/port PORT/; s/(latency|jitter) [0-9.]+ ms/\1 N ms/g; s/[0-9]+ (received|lost|repaired)/N \1/g' \
    >"$WORK/status.doc"
sed -E "s/port $laptop_port/port PORT/; s/(latency|jitter) [0-9.]+ ms/\1 N ms/g; s/[0-9]+ (received|lost|repaired)/N \1/g" "$WORK/status.txt" >"$WORK/status.out"
assert_same_files "$WORK/status.doc" "$WORK/status.out" "network status's line (numbers aside)"
"$REPO/Tests/Integration/replay-transcripts" "$SERVE_SOCKET" "$REPO/docs/control-protocol.md" "93-serve-network.test.sh replay-transcripts" \
    --replace 192.168.1.10 127.0.0.2 2>"$WORK/replay.err" \
    || fail "the daemon's answers differ from docs/control-protocol.md: $(tail -n 5 "$WORK/replay.err")"

step "the laptop ends: the subscriber saw session-up, then session-down"
stop_peer laptop INT
wait_for_line "$(peer_out events)" '"event":"session-down"'
grep '"event"' "$(peer_out events)" | jq -c -S . >"$WORK/events.jsonl"
assert_eq "{\"address\":\"127.0.0.2:5004\",\"event\":\"session-up\",\"peer\":\"laptop\",\"port\":\"$laptop_port\"}
{\"address\":\"127.0.0.2:5004\",\"event\":\"session-down\",\"peer\":\"laptop\",\"reason\":\"the peer ended the session\"}" \
    "$(cat "$WORK/events.jsonl")" "the session events"
# KILL: SIGINT would reach only the pipeline's bash, which waits for its sleep, and
# stop_peer would wait 30 s before killing it anyway.
stop_peer events KILL
wait_for "the session gone from network status" 20 bash -c "[[ \$(midihub network status --json) == '[]' ]]"

step "daemon-commands: the doc's connect hands 127.0.0.3 to the daemon, which invites it"
start_peer far midihub network listen --name far --address 127.0.0.3
wait_for_peer_line far "$(peer_out far)" "listening as 'far'"
mapfile -t commands < <(doc_block docs/network.md daemon-commands | sed 's/192\.168\.1\.30/127.0.0.3/')
((${#commands[@]} == 3)) || fail "the doc's daemon commands changed: ${commands[*]}"
# shellcheck disable=SC2086  # the doc's command line, split into words
midihub_out=$(${commands[0]}) || fail "'${commands[0]}' failed"
assert_match "^the daemon invites 127\.0\.0\.3: " "$midihub_out" "what '${commands[0]}' says"
wait_for_peer_line far "$(peer_out far)" "session up: 'rack' at 127\.0\.0\.1:5004" 30
# shellcheck disable=SC2086
wait_for "'${commands[1]}' lists far, up" 30 bash -c "${commands[1]} | grep -q \"^'far' at 127\.0\.0\.3:5004 (invited): up, port \""

step "the daemon keeps the peer in its state: started again (without --patch), it invites it again"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve's exit status after SIGINT"
wait_for_peer_line far "$(peer_out far)" "session down: 'rack' at 127\.0\.0\.1:5004: the peer ended the session" 30
jq -e '.network.connect == ["127.0.0.3"] and .network.listen.port == 5004 and .network.jitterBuffer == 5' \
    "$SERVE_STATE" >/dev/null \
    || fail "the saved state's network: $(jq -c .network "$SERVE_STATE")"
start_serve hub --no-audio
wait_for "far's second session with the daemon" 30 bash -c "(( \$(grep -c \"session up: 'rack'\" '$(peer_out far)') == 2 ))"

step "the doc's disconnect ends it: far hears BY, and the daemon no longer invites it"
# shellcheck disable=SC2086
assert_exit 0 ${commands[2]}
wait_for "far's second session down" 30 bash -c "(( \$(grep -c \"session down: 'rack' at 127.0.0.1:5004: the peer ended the session\" '$(peer_out far)') == 2 ))"
wait_for "no session in network status" 20 bash -c "[[ \$(midihub network status --json) == '[]' ]]"
jq -e '.network.connect == null or .network.connect == []' "$SERVE_STATE" >/dev/null \
    || fail "the saved state still invites: $(jq -c .network "$SERVE_STATE")"
assert_exit 2 midihub network disconnect far

step "a patch loaded applies its network: a peer it adds is invited, the next patch without it ends it"
sed 's/^network:$/network:\n  connect: ["127.0.0.3"]/' "$WORK/rack.yaml" >"$WORK/rack-far.yaml"
assert_exit 0 midihub patch load "$WORK/rack-far.yaml"
wait_for "far's third session" 30 bash -c "(( \$(grep -c \"session up: 'rack'\" '$(peer_out far)') == 3 ))"
assert_exit 0 midihub patch load "$WORK/rack.yaml"
wait_for "far's third session down" 30 bash -c "(( \$(grep -c \"session down: 'rack'\" '$(peer_out far)') == 3 ))"
stop_peer far
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve's exit status after SIGINT"
stop_peer dump
