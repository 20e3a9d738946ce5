# The harness and its peers work, without midihub: bytes written with amidi to a
# snd-virmidi device reach aseqdump through the kernel sequencer, and a file that
# aplaymidi plays to a virmidi client comes out of its rawmidi device (amidi -d).
# If this test fails, every other result of the run is suspect.

load_modules snd-virmidi
card=$(card_number VirMIDI)
client=$(client_number "Virtual Raw MIDI $card-0")
step "virmidi card $card, first client $client"

step "amidi -> virmidi -> aseqdump"
start_aseqdump dump -p "$client:0"
amidi -p "hw:$card,0" -S '90 3C 64 80 3C 00' || fail "amidi -S failed"
wait_for_line "$(peer_out dump)" "Note off"
assert_file_has "$(peer_out dump)" "^ *$client:0 +Note on +0, note 60, velocity 100$" "aseqdump note on"
assert_file_has "$(peer_out dump)" "^ *$client:0 +Note off +0, note 60, velocity 0$" "aseqdump note off"
stop_peer dump

step "aplaymidi -> virmidi -> amidi -d"
csv_to_midi "$WORK/note.mid" <<'CSV'
0, 0, Header, 0, 1, 96
1, 0, Start_track
1, 0, Note_on_c, 0, 60, 100
1, 96, Note_off_c, 0, 60, 0
1, 96, End_track
0, 0, End_of_file
CSV
start_peer raw amidi -p "hw:$card,1" -d
wait_for_rawmidi_reader "$card" 1 "${PEER_PIDS[raw]}"
aplaymidi -p "$((client + 1)):0" "$WORK/note.mid" || fail "aplaymidi failed"
wait_for_bytes raw 6
assert_eq "90 3C 64 80 3C 00" "$(hex_bytes "$(peer_out raw)")" "bytes read by amidi -d"
stop_peer raw
