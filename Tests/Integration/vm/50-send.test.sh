# `midihub send PORT HEX...` delivers exactly those bytes: read back from the
# virmidi rawmidi device with amidi -d, and decoded by aseqdump. Kernel MIDI ports
# (snd-virmidi as USB MIDI) drop events from senders not subscribed to them, so
# this fails for a sender that does not connect to the port first.

load_modules snd-virmidi
card=$(card_number VirMIDI)
client=$(client_number "Virtual Raw MIDI $card-0")

step "send to $client:0, read back by amidi -d on hw:$card,0"
start_peer raw amidi -p "hw:$card,0" -d
wait_for_rawmidi_reader "$card" 0 "${PEER_PIDS[raw]}"
assert_exit 0 midihub send "$client:0" 90 3c 64 80 3c 00
assert_exit 0 midihub send "Virtual Raw MIDI $card-0" F07E7F0601F7
assert_exit 0 midihub send "$client" b0 07 64
expected="90 3C 64 80 3C 00 F0 7E 7F 06 01 F7 B0 07 64"
wait_for_bytes raw 15
stop_peer raw
assert_eq "$expected" "$(hex_bytes "$(peer_out raw)")" "bytes read by amidi -d"

step "send to aseqdump's port by name"
start_aseqdump dump
assert_exit 0 midihub send aseqdump e1 00 60
wait_for_line "$(peer_out dump)" "Pitch bend"
stop_peer dump
assert_eq "Pitch bend 1, value 4096" "$(aseqdump_events "$(peer_out dump)")" "event decoded by aseqdump"
