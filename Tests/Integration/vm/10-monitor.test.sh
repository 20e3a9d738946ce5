# Issue 2, kernel test 1: bytes written with amidi to a snd-virmidi device appear
# decoded in `midihub monitor --json`, field by field; Ctrl-C and SIGTERM end it
# with status 0.

load_modules snd-virmidi
card=$(card_number VirMIDI)
client=$(client_number "Virtual Raw MIDI $card-0")

step "monitor $client:0 --json, amidi writes one message of each kind"
start_peer mon midihub monitor "$client:0" --json
wait_for_peer_line mon "$(peer_err mon)" "^midihub: monitoring "
assert_eq "midihub: monitoring $client:0" "$(head -n 1 "$(peer_err mon)")" "ready line"

amidi -p "hw:$card,0" -S '90 3C 64 80 3C 00 A2 3C 20 B0 07 64 C5 05 D1 40 E0 00 40 E0 7F 7F E0 00 00 F0 7E 7F 06 01 F7' \
    || fail "amidi -S failed"
cat >"$WORK/expected.jsonl" <<JSON
{"channel":1,"note":60,"source":"$client:0","type":"note-on","velocity":100}
{"channel":1,"note":60,"source":"$client:0","type":"note-off","velocity":0}
{"channel":3,"note":60,"pressure":32,"source":"$client:0","type":"poly-pressure"}
{"channel":1,"controller":7,"source":"$client:0","type":"control-change","value":100}
{"channel":6,"program":5,"source":"$client:0","type":"program-change"}
{"channel":2,"pressure":64,"source":"$client:0","type":"channel-pressure"}
{"channel":1,"source":"$client:0","type":"pitch-bend","value":0}
{"channel":1,"source":"$client:0","type":"pitch-bend","value":8191}
{"channel":1,"source":"$client:0","type":"pitch-bend","value":-8192}
{"data":"f0 7e 7f 06 01 f7","source":"$client:0","type":"sysex"}
JSON
expected_count=$(wc -l <"$WORK/expected.jsonl")
wait_for_lines "$(peer_out mon)" "$expected_count"
stop_peer mon INT
assert_eq 0 "$PEER_STATUS" "exit status of monitor after SIGINT"

assert_eq "$expected_count" "$(wc -l <"$(peer_out mon)")" "number of lines printed"
for ((n = 1; n <= expected_count; n++)); do
    json_without_time "$(peer_out mon)" "$n" >>"$WORK/actual.jsonl"
done
assert_same_files "$WORK/expected.jsonl" "$WORK/actual.jsonl" "decoded events"
times=$(jq -r '.time' "$(peer_out mon)" | tr '\n' ' ')
jq -e 'select((.time | type) != "number" or .time < 0)' "$(peer_out mon)" >/dev/null \
    && fail "every time must be a number >= 0, got: $times"
jq -s -e '[.[].time] as $t | $t == ($t | sort)' "$(peer_out mon)" >/dev/null \
    || fail "times must not decrease, got: $times"

step "monitor with no port follows the virmidi clients too; SIGTERM ends it cleanly"
start_peer all midihub monitor --json
wait_for_peer_line all "$(peer_err all)" "^midihub: monitoring "
assert_match "[ ,]$client:0(,|$)" "$(head -n 1 "$(peer_err all)")" "ready line of monitor without ports"
amidi -p "hw:$card,0" -S 'B0 40 7F' || fail "amidi -S failed"
wait_for_lines "$(peer_out all)" 1
stop_peer all TERM
assert_eq 0 "$PEER_STATUS" "exit status of monitor after SIGTERM"
assert_eq "{\"channel\":1,\"controller\":64,\"source\":\"$client:0\",\"type\":\"control-change\",\"value\":127}" \
    "$(json_without_time "$(peer_out all)" 1)" "event seen by monitor without ports"
