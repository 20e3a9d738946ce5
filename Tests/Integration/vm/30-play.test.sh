# Issue 2, kernel test 3: `midihub play FILE --port` delivers the same events in
# the same order as aplaymidi does for the same file, as recorded by aseqdump,
# for every .mid file in sequences/ and one written here by csvmidi; and to a
# hardware port (snd-virmidi, read back as bytes with amidi -d) the same bytes.
# Every file is played by both players at once, each into its own aseqdump, so
# the test takes as long as the longest song rather than twice their sum; aseqdump's lines
# carry no times, so each file plays four times as fast (its header's division times four,
# its tracks byte for byte as in the file).
# timeout: 300

load_modules snd-virmidi
card=$(card_number VirMIDI)
# After the playbacks a marker note from this virmidi client tells that each
# aseqdump has printed everything before it; its lines are then left out.
marker_client=$(client_number "Virtual Raw MIDI $card-0")

# Starts an aseqdump for PLAYER (aplaymidi or midihub) on FILE as peer dump.NAME.PLAYER
# (NAME: the file's base name), without waiting for it: they all start at once.
start_dump() { # PLAYER FILE
    start_peer "dump.$(basename "$2" .mid).$1" stdbuf -oL aseqdump
}

# Starts PLAYER on FILE into its aseqdump (start_dump), once that listens, as peer
# NAME.PLAYER.
start_playback() { # PLAYER FILE
    local player=$1 file=$2 name dump_client
    name=$(basename "$file" .mid)
    wait_for_peer_line "dump.$name.$player" "$(peer_out "dump.$name.$player")" "Waiting for data"
    dump_client=$(aseqdump_client "dump.$name.$player")
    if [[ $player == aplaymidi ]]; then
        start_peer "$name.$player" aplaymidi -p "$dump_client:0" "$file"
    else
        start_peer "$name.$player" midihub play "$file" --port "$dump_client:0" </dev/null
    fi
}

# Waits for the playback started by start_playback to end, sends the marker into
# its aseqdump and leaves the events, without their source column, in
# $WORK/NAME.PLAYER.events.
finish_playback() { # PLAYER FILE
    local player=$1 file=$2 name dump dump_client
    name=$(basename "$file" .mid)
    dump="dump.$name.$player"
    # Both players return once the last event has been delivered.
    wait_peer "$name.$player" 120
    ((PEER_STATUS == 0)) || fail "$player $file exited $PEER_STATUS: $(tail -n 3 "$(peer_err "$name.$player")")"
    if [[ $player == midihub ]]; then
        [[ -s $(peer_out "$name.$player") || -s $(peer_err "$name.$player") ]] \
            && fail "midihub play printed a status line though not on a terminal: $(head -c 200 "$(peer_out "$name.$player")" "$(peer_err "$name.$player")")"
    fi
    dump_client=$(aseqdump_client "$dump")
    aconnect "$marker_client:0" "$dump_client:0" || fail "aconnect for the marker failed"
    amidi -p "hw:$card,0" -S '9F 7F 7F' || fail "amidi -S failed"
    wait_for_line "$(peer_out "$dump")" "^ *$marker_client:0 +Note on +15, note 127"
    stop_peer "$dump"
    grep -v "^ *$marker_client:0 " "$(peer_out "$dump")" >"$WORK/$name.$player.dump"
    aseqdump_events "$WORK/$name.$player.dump" >"$WORK/$name.$player.events"
}

# Two tracks, two channels, tempo changes, simultaneous events, CC, program change,
# pitch bend, channel and key pressure, SysEx; short (about 2 s).
csv_to_midi "$WORK/generated.mid" <<'CSV'
0, 0, Header, 1, 3, 96
1, 0, Start_track
1, 0, Tempo, 250000
1, 0, Time_signature, 4, 2, 24, 8
1, 192, Tempo, 150000
1, 384, End_track
2, 0, Start_track
2, 0, Program_c, 0, 5
2, 0, Control_c, 0, 7, 100
2, 0, Note_on_c, 0, 60, 100
2, 0, Note_on_c, 0, 64, 90
2, 48, Pitch_bend_c, 0, 10000
2, 72, Channel_aftertouch_c, 0, 50
2, 96, Note_off_c, 0, 60, 0
2, 96, Note_off_c, 0, 64, 64
2, 96, System_exclusive, 5, 126, 127, 9, 1, 247
2, 192, Note_on_c, 0, 67, 80
2, 288, Note_off_c, 0, 67, 0
2, 288, End_track
3, 0, Start_track
3, 0, Program_c, 9, 0
3, 0, Note_on_c, 9, 36, 120
3, 48, Note_off_c, 9, 36, 0
3, 96, Poly_aftertouch_c, 9, 38, 30
3, 192, Note_on_c, 9, 38, 110
3, 240, Note_off_c, 9, 38, 0
3, 300, End_track
0, 0, End_of_file
CSV

shopt -s nullglob
songs=("$REPO"/sequences/*.mid)
# Played four times as fast: the division (ticks a quarter, header bytes 12–13) times four,
# every other byte as in the file. Both players get the same copy; what is compared, the
# events and their order, does not depend on the tempo, and the songs (little-song's 24 s
# the longest) then take a quarter of the time.
mkdir -p "$WORK/fast"
files=()
for file in "$WORK/generated.mid" "${songs[@]}"; do files+=("$WORK/fast/${file##*/}"); done
# One python for every file: each program started costs the emulated VM a good part of a second.
python3 - "$WORK/fast" "$WORK/generated.mid" "${songs[@]}" <<'PY' || fail "cannot write the fast copies"
import os, sys
for path in sys.argv[2:]:
    data = bytearray(open(path, "rb").read())
    division = int.from_bytes(data[12:14], "big")
    assert data[:4] == b"MThd" and 0 < division < 0x2000, f"{path}: division {division} (expected metrical, < 8192)"
    data[12:14] = (division * 4).to_bytes(2, "big")
    open(os.path.join(sys.argv[1], os.path.basename(path)), "wb").write(data)
PY
step "aplaymidi and midihub play, each file at once: $(basename -a "${files[@]}" | tr '\n' ' ')"
for file in "${files[@]}"; do
    start_dump aplaymidi "$file"
    start_dump midihub "$file"
done
for file in "${files[@]}"; do
    start_playback aplaymidi "$file"
    start_playback midihub "$file"
done
for file in "${files[@]}"; do
    name=$(basename "$file" .mid)
    finish_playback aplaymidi "$file"
    finish_playback midihub "$file"
    [[ -s $WORK/$name.aplaymidi.events ]] || fail "aplaymidi delivered no events for $file"
    assert_same_files "$WORK/$name.aplaymidi.events" "$WORK/$name.midihub.events" "$name: events (- aplaymidi, + midihub play)"
    echo "$name: $(wc -l <"$WORK/$name.midihub.events") events identical"
done
step "generated: to a hardware port, bytes read back with amidi -d"
# Kernel MIDI ports (snd-virmidi, USB MIDI) only take events from senders
# subscribed to them, as aplaymidi is; a direct send is dropped.
record_bytes() { # PLAYER
    local hardware_client
    hardware_client=$(client_number "Virtual Raw MIDI $card-1")
    start_peer raw amidi -p "hw:$card,1" -d
    wait_for_rawmidi_reader "$card" 1 "${PEER_PIDS[raw]}"
    if [[ $1 == aplaymidi ]]; then
        aplaymidi -p "$hardware_client:0" "$WORK/generated.mid" || fail "aplaymidi failed"
    else
        midihub play "$WORK/generated.mid" --port "$hardware_client:0" </dev/null >/dev/null 2>"$WORK/play.err" \
            || fail "midihub play exited $?: $(tail -n 3 "$WORK/play.err")"
    fi
    # A marker note played after the file shows that every byte before it is read.
    aplaymidi -p "$hardware_client:0" "$WORK/marker.mid" || fail "aplaymidi failed on the marker"
    wait_for "the marker from amidi -d" 20 bytes_end_with_marker "$(peer_out raw)"
    stop_peer raw
    hex_bytes "$(peer_out raw)" | sed 's/ *9F 7F 7F$//' >"$WORK/generated.$1.bytes"
}
bytes_end_with_marker() {
    [[ $(hex_bytes "$1") == *"9F 7F 7F" ]]
}
csv_to_midi "$WORK/marker.mid" <<'CSV'
0, 0, Header, 0, 1, 96
1, 0, Start_track
1, 0, Note_on_c, 15, 127, 127
1, 0, End_track
0, 0, End_of_file
CSV
record_bytes aplaymidi
record_bytes midihub
assert_same_files "$WORK/generated.aplaymidi.bytes" "$WORK/generated.midihub.bytes" "bytes on the hardware port (- aplaymidi, + midihub play)"

((${#songs[@]})) || fail "no .mid file in $REPO/sequences (the test plays the project's songs too)"
