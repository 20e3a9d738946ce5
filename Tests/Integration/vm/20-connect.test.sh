# Issue 2, kernel test 2: `midihub connect` between two ports makes aseqdump
# receive the events, `midihub disconnect` stops them, and at each step
# `aconnect -l` and `midihub ports --json` report the same set of connections.

load_modules snd-virmidi
card=$(card_number VirMIDI)
source_client=$(client_number "Virtual Raw MIDI $card-0")
sentinel_client=$(client_number "Virtual Raw MIDI $card-1")

start_aseqdump dump
dump_client=$(client_number aseqdump)
dump=$(peer_out dump)
# A second, direct route into aseqdump: notes sent through it prove that anything
# sent before them over the route under test would have arrived by then.
aconnect "$sentinel_client:0" "$dump_client:0" || fail "aconnect for the sentinel route failed"

connections_agree() { # STEP
    connections_by_aconnect >"$WORK/aconnect.txt"
    connections_by_midihub >"$WORK/midihub.txt" || fail "$1: midihub ports --json failed"
    assert_same_files "$WORK/aconnect.txt" "$WORK/midihub.txt" "$1: connections (- aconnect -l, + midihub ports)"
}

step "before: no route from $source_client:0"
connections_agree "before connect"
assert_file_lacks "$WORK/midihub.txt" "^$source_client:0>" "connections before connect"

step "connect by client name and a name prefix"
assert_exit 0 midihub connect "Virtual Raw MIDI $card-0:0" aseqd
connections_agree "after connect"
assert_file_has "$WORK/midihub.txt" "^$source_client:0>$dump_client:0$" "connection made by midihub connect"
amidi -p "hw:$card,0" -S '90 3C 64' || fail "amidi -S failed"
wait_for_line "$dump" "^ *$source_client:0 +Note on +0, note 60, velocity 100$"

step "disconnect by numbers"
assert_exit 0 midihub disconnect "$source_client:0" "$dump_client"
connections_agree "after disconnect"
assert_file_lacks "$WORK/midihub.txt" "^$source_client:0>" "connections after disconnect"
amidi -p "hw:$card,0" -S '90 3E 64' || fail "amidi -S failed"
amidi -p "hw:$card,1" -S '90 40 64' || fail "amidi -S failed"
wait_for_line "$dump" "^ *$sentinel_client:0 +Note on +0, note 64, velocity 100$"
assert_file_lacks "$dump" "note 62" "events after disconnect"
stop_peer dump
