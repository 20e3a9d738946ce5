# Issue 27: RTP-MIDI sessions. `midihub network connect` invites a real peer no one here
# wrote (pymidi's server, PyPI): the session comes up as an ALSA port of the client
# "midihub network" named after the peer; notes and a controller sent to that port reach
# pymidi, through packets whose journals pymidi's packet definitions parse; Ctrl-C ends the
# session (pymidi hears the BY). Then two midihub hosts on loopback: what one host's session
# port is sent arrives at the other host's session port (read by aseqdump), both ways; a
# host that ends leaves no note sounding at the other; and one killed mid-song and started
# again gets its session back by itself, the notes it left sounding ended; a rack with a
# jitter buffer plays what the laptop sends.

load_modules snd-seq-dummy

step "midihub invites pymidi's server"
start_peer pymidi /opt/pymidi-venv/bin/python -u "$REPO/Tests/Integration/rtpmidi_peer.py" 127.0.0.1:5051
sleep 0.5
start_peer net midihub network connect 127.0.0.1:5051 --name vm-hub --port 5004
wait_for_peer_line net "$(peer_out net)" "session up: 'pymidi' at 127.0.0.1:5051, port [0-9]+:[0-9]+ 'pymidi'"
wait_for_peer_line pymidi "$(peer_out pymidi)" "^connected vm-hub"
midihub ports >"$WORK/ports.txt"
assert_file_has "$WORK/ports.txt" "^$(grep -o '[0-9]*:[0-9]*' <<<"$(grep 'session up' "$(peer_out net)")" | tail -n 1) +duplex +app +midihub network +pymidi" \
    "midihub ports lists the session's port where the up line says"

step "notes and a controller sent to the session's port reach pymidi"
assert_exit 0 midihub send pymidi 90 3c 64 b0 07 5a 91 40 50
assert_exit 0 midihub send pymidi 80 3c 00 81 40 00
wait_for_lines "$(peer_out pymidi)" 6
assert_eq "connected vm-hub
note_on 0 60 100
control_mode_change 0 7 90
note_on 1 64 80
note_off 0 60 0
note_off 1 64 0" "$(cat "$(peer_out pymidi)")" "what pymidi read"
assert_file_lacks "$(peer_err pymidi)" "Bug or malformed packet" "pymidi parsed every packet"

step "Ctrl-C ends the session: pymidi hears it"
stop_peer net INT
assert_eq 0 "$PEER_STATUS" "midihub network connect's exit status"
wait_for_line "$(peer_out pymidi)" "^disconnected"
stop_peer pymidi

step "two midihub hosts, as docs/network.md's two-hubs block starts them, carry MIDI between them"
# The doc's machines are 192.168.1.20 (the rack) and .10 (the laptop); here they are
# 127.0.0.1 and 127.0.0.2, each host bound to its own address.
mapfile -t doc_lines < <(doc_block docs/network.md two-hubs)
rack_command=${doc_lines[0]}
laptop_command=${doc_lines[1]/192.168.1.20/127.0.0.1}
# shellcheck disable=SC2086  # the doc's command lines, split into words
start_peer rack $rack_command --address 127.0.0.1
wait_for_peer_line rack "$(peer_out rack)" "listening as 'rack'"
# shellcheck disable=SC2086
start_peer laptop $laptop_command --address 127.0.0.2
wait_for_peer_line laptop "$(peer_out laptop)" "session up: 'rack'"
wait_for_peer_line rack "$(peer_out rack)" "session up: 'laptop'"
doc_block docs/network.md up-lines | sed 's/0\.0\.0\.0/127.0.0.1/; s/192\.168\.1\.10/127.0.0.2/' >"$WORK/up-lines.doc"
sed -E 's/port [0-9]+:0/port 128:0/' "$(peer_out rack)" >"$WORK/up-lines.out"
assert_same_files "$WORK/up-lines.doc" "$WORK/up-lines.out" "the rack's lines (port numbers aside)"

start_aseqdump dump_at_rack
assert_exit 0 midihub connect laptop "$(aseqdump_client dump_at_rack):0"
assert_exit 0 midihub send rack 92 30 40 b2 4a 10 c2 05
wait_for_lines "$(peer_out dump_at_rack)" 5
assert_eq "Note on 2, note 48, velocity 64
Control change 2, controller 74, value 16
Program change 2, program 5" "$(aseqdump_events "$(peer_out dump_at_rack)")" "what reached the rack's session port"

step "and back: what the rack's port is sent reaches the laptop's"
start_aseqdump dump_at_laptop
assert_exit 0 midihub connect rack "$(aseqdump_client dump_at_laptop):0"
assert_exit 0 midihub send laptop e0 00 50
wait_for_line "$(peer_out dump_at_laptop)" "Pitch bend"
assert_eq "Pitch bend 0, value 2048" "$(aseqdump_events "$(peer_out dump_at_laptop)")" "what reached the laptop's session port"

step "the laptop ends: the rack hears the BY and ends the note the laptop left sounding"
stop_peer laptop INT
wait_for_peer_line rack "$(peer_out rack)" "session down: 'laptop' at 127.0.0.2:5004: the peer ended the session"
wait_for_line "$(peer_out dump_at_rack)" "Note off"
assert_match "Note off 2, note 48" "$(aseqdump_events "$(peer_out dump_at_rack)" | tail -n 1)" "the rack's note-off for the laptop's note"
stop_peer dump_at_rack
stop_peer dump_at_laptop

step "a laptop killed mid-song and started again: the rack ends what it left sounding, the session comes back"
midicsv "$REPO/Tests/Integration/songs/on-the-next-day.mid" \
    | awk -F', ' 'BEGIN { OFS = ", " } $3 == "Tempo" { $4 = int($4 / 4) } { print }' | csvmidi >"$WORK/song.mid"
through=$(client_number "Midi Through")
start_peer laptop midihub network connect 127.0.0.1 --name laptop --address 127.0.0.2
wait_for_peer_line laptop "$(peer_out laptop)" "session up: 'rack'"
wait_for_lines "$(peer_out rack)" 4
laptop_port=$(grep -oE "port [0-9]+:[0-9]+" "$(peer_out laptop)" | tail -n 1 | cut -d' ' -f2)
rack_port=$(grep -oE "port [0-9]+:[0-9]+" "$(peer_out rack)" | tail -n 1 | cut -d' ' -f2)
start_aseqdump at_rack -p "$rack_port"
aconnect "$through:0" "$laptop_port" || fail "aconnect to the laptop's session port failed"
start_peer song aplaymidi -p "$through:0" "$WORK/song.mid"
sleep 5
stop_peer laptop KILL
start_peer laptop midihub network connect 127.0.0.1 --name laptop --address 127.0.0.2
wait_for_peer_line rack "$(peer_out rack)" "session down: 'laptop' at 127.0.0.2:5004: the peer restarted"
wait_for_peer_line laptop "$(peer_out laptop)" "session up: 'rack'"
assert_eq 3 "$(grep -c "session up: 'laptop'" "$(peer_out rack)")" "the rack's sessions with the laptop (one per start)"
stop_peer song KILL
python3 "$REPO/Tests/Integration/stream_compare.py" "$(peer_out at_rack)" "$(peer_out at_rack)" >"$WORK/restart.compare"
assert_file_has "$WORK/restart.compare" "^received-notes [1-9][0-9]+" "notes reached the rack before the kill"
assert_file_has "$WORK/restart.compare" "^hanging 0$" "notes left sounding at the rack after the laptop's restart"
stop_peer at_rack
stop_peer laptop
stop_peer rack

step "a rack with a jitter buffer, as docs/network.md's jitter-buffer block starts it, plays what comes"
mapfile -t doc_lines < <(doc_block docs/network.md jitter-buffer)
# shellcheck disable=SC2086  # the doc's command line, split into words
start_peer rack ${doc_lines[0]} --address 127.0.0.1
wait_for_peer_line rack "$(peer_out rack)" "listening as 'rack'"
start_peer laptop midihub network connect 127.0.0.1 --name laptop --address 127.0.0.2
wait_for_peer_line laptop "$(peer_out laptop)" "session up: 'rack'"
wait_for_peer_line rack "$(peer_out rack)" "session up: 'laptop'"
rack_port=$(grep -oE "port [0-9]+:[0-9]+" "$(peer_out rack)" | tail -n 1 | cut -d' ' -f2)
start_aseqdump buffered -p "$rack_port"
sleep 3  # the first clock sync, so the buffer holds the notes (before it, they go at once)
assert_exit 0 midihub send rack 90 3c 64 80 3c 00
wait_for_lines "$(peer_out buffered)" 2
assert_match "^Note on 0, note 60, velocity 100
Note off 0, note 60" "$(aseqdump_events "$(peer_out buffered)")" "what the buffered rack played"
stop_peer buffered
stop_peer laptop
stop_peer rack
