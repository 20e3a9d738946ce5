# The output blocks of docs/daemon.md from a real `midihub serve`: the log lines of a
# keyboard (snd-virmidi at card 1, client 20) plugged in, holding a note and unplugged
# under the embedded default (a sound card at card 0 for its synth), and `midihub graph`
# of a running daemon. The doc's timestamps are examples: lines are compared without them.
source "$REPO/Tests/Integration/serve.sh"
TIMESTAMP='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z '

step "log-lines: a keyboard comes, plays, holds a note and leaves"
modprobe snd-dummy index=0 || fail "modprobe snd-dummy"
load_modules snd-seq
start_serve hub --period 1024 --buffer 4096
modprobe snd-virmidi index=1 || fail "modprobe snd-virmidi"
wait_for_peer_line hub "$(peer_err hub)" "connected 20:0 .* \(by rule\)$" 60
amidi -p hw:1,0 -S '90 45 64' || fail "amidi -S failed"
sleep 3
unplug_virmidi
wait_for_peer_line hub "$(peer_err hub)" "port left: 20:0 .*; released notes at " 60
doc_block docs/daemon.md log-lines >"$WORK/log.doc"
grep -Evq "${TIMESTAMP}midihub: " "$WORK/log.doc" && fail "a doc line without a timestamp: $(<"$WORK/log.doc")"
grep -Evq "${TIMESTAMP}midihub: " "$(peer_err hub)" && fail "a log line without a timestamp: $(grep -Ev "$TIMESTAMP" "$(peer_err hub)" | head -n 3)"
sed -E "s/$TIMESTAMP//" "$(peer_err hub)" >"$WORK/log.real"
while read -r line; do
    line=$(sed -E "s/$TIMESTAMP//" <<<"$line")
    grep -qxF -- "$line" "$WORK/log.real" \
        || fail "the daemon logged no line '$line': $(grep -E 'port|connected' "$WORK/log.real" | head -n 8 | tr '\n' '|')"
done <"$WORK/log.doc"
stop_peer hub

step "graph-output: 'midihub graph' asks the running daemon"
write_transpose_patch
start_serve graph --no-audio --patch "$WORK/patch.yaml"
midihub graph >"$WORK/graph.out" || fail "midihub graph failed"
assert_file_is_doc_block "$WORK/graph.out" docs/daemon.md graph-output
