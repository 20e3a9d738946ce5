# Issue 9, kernel test: an external processor's round trip. docs/patch-format.md's example:
# a snd-virmidi controller → midihub → midish (an external node with `role: processor`,
# running the doc's filter script: transpose by 12) → back into midihub → aseqdump. midish's
# sending port is connected to nobody: the daemon connects it to midihub:in. A note and its
# note-off played on the controller reach aseqdump an octave up, from midihub:out.
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
start_controller_and_dump
doc_block docs/patch-format.md processor-patch >"$WORK/octave.yaml"
doc_block docs/patch-format.md midish-script >"$WORK/octave.msh"

step "midish runs the doc's filter; the daemon plays the doc's patch"
start_peer octave bash -c "exec midish -b <'$WORK/octave.msh'"
wait_for_client midish/0 || { cat /proc/asound/seq/clients; false; }
start_serve hub --no-audio --patch "$WORK/octave.yaml"
hub=$(client_number midihub)
wait_for_controller_route "the rule"
wait_for "midihub:out -> midish (the processor's input)" 20 bash -c \
    "aconnect -l | grep -A8 \"'midish/0'\" | grep -q \"Connected From: .*$hub:1\""
wait_for "midish's sending port -> midihub:in (the processor's return)" 20 bash -c \
    "aconnect -l | grep -A8 \"'midish/0'\" | grep -q \"Connecting To: .*$hub:0\""

step "a note and its note-off go out through midish and come back an octave up"
amidi -p "hw:$CARD,0" -S '90 3C 64' || fail "amidi -S failed"
wait_for_line "$dump" "^ *$hub:1 +Note on +0, note 72, velocity 100$"
amidi -p "hw:$CARD,0" -S '80 3C 00' || fail "amidi -S failed"
wait_for_line "$dump" "^ *$hub:1 +Note off +0, note 72"
assert_file_lacks "$dump" "note 60" "the untransposed note never reaches aseqdump"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
