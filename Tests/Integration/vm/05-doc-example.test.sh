# The example test of docs/testing.md ("Writing a test"), verbatim: a note played on a
# virtual keyboard shows up in `midihub monitor --json`. DocsTests checks that the doc
# shows this file's body.
load_modules snd-virmidi
card=$(card_number VirMIDI)
client=$(client_number "Virtual Raw MIDI $card-0")

start_peer mon midihub monitor "$client:0" --json          # output in $(peer_out mon)
wait_for_peer_line mon "$(peer_err mon)" "^midihub: monitoring "
amidi -p "hw:$card,0" -S '90 3C 64'
wait_for_lines "$(peer_out mon)" 1
stop_peer mon                                              # SIGINT; sets PEER_STATUS
assert_eq 0 "$PEER_STATUS" "exit status"
assert_eq "{\"channel\":1,\"note\":60,\"source\":\"$client:0\",\"type\":\"note-on\",\"velocity\":100}" \
    "$(json_without_time "$(peer_out mon)" 1)" "event"

# docs/testing.md, "Debugging inside the VM": the commands it runs in the VM's shell.
# The doc's `.build/debug/midihub` is the binary under test here.
step "debugging commands"
cd "$REPO" && { modprobe snd-virmidi; aconnect -l; "$MIDIHUB" ports; } >"$WORK/debug.out"
assert_file_has "$WORK/debug.out" "client $client: 'Virtual Raw MIDI $card-0'" "aconnect -l"
assert_file_has "$WORK/debug.out" "^$client:0 +duplex +hardware" "midihub ports"
