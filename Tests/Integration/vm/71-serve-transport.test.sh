# Issue 12, kernel test: the transport in the daemon. `midihub serve` runs docs/transport.md's
# patch (the sequence and its MIDI clock to aseqdump, an external node on its own ALSA
# port; MIDI-only here).
# `midihub play FILE` with the daemon running hands the file over and waits for its end:
# aseqdump gets every note of the scale in order, from midihub:out, each note-on with its
# note-off. `midihub transport` loads, seeks (bar, marker), pauses, loops and retimes: a
# pause or stop leaves no note hanging, a loop keeps playing past the song's length, and
# the play trigger plays and pauses. A playlist plays on from one song's end into the next;
# next, previous and repeat switch songs. The record trigger while the song plays overdubs a
# keyboard's note onto it, which the song then plays (from midihub:out); a patch's play
# trigger loads and plays its sequence. The record trigger records what a snd-virmidi keyboard
# plays and writes the take beside the state file. Refusals are one line with exit 2.
# timeout: 600

source "$REPO/Tests/Integration/serve.sh"
load_modules snd-seq-dummy snd-virmidi
card=$(card_number VirMIDI)
start_aseqdump dump
dump=$(peer_out dump)
doc_block docs/transport.md transport-patch >"$WORK/transport.yaml"
start_serve hub --no-audio --patch "$WORK/transport.yaml"
hub=$(client_number midihub)
wait_for "midihub:out -> aseqdump (the external node)" 20 bash -c \
    "aconnect -l | grep -A4 \"'aseqdump'\" | grep -q \"Connected From: .*$hub:1\""

# Every note the sequence started has ended: at aseqdump, each note-on (channel, note) is
# followed by a note-off (or a note-on with velocity 0) of the same note.
assert_no_hanging_note() { # WHEN
    wait_for "no note left sounding $1" 10 no_hanging_note
}
no_hanging_note() {
    [[ -z $(hanging_notes) ]]
}
hanging_notes() {
    aseqdump_events "$dump" | awk '
        /^Note on / && !/velocity 0$/ { split($0, f, /[ ,]+/); held[f[3] " " f[5]] = 1; next }
        /^Note (on|off) / { split($0, f, /[ ,]+/); delete held[f[3] " " f[5]] }
        END { for (note in held) print note }'
}
# How many note-ons (velocity above 0) aseqdump printed so far.
count_on() {
    aseqdump_events "$dump" | grep -Ec '^Note on [0-9]+, note [0-9]+, velocity [1-9]' || true
}
export -f count_on aseqdump_events
export dump

step "before a load: nothing to play"
assert_eq "stopped, no sequence loaded" "$(midihub transport)" "status before a load"
assert_exit 2 midihub transport play
assert_one_line_error "^midihub: the transport has no sequence \(fix: load one: 'midihub transport load FILE'\)$"

step "midihub play hands the file to the daemon and waits for its end"
assert_exit 0 midihub play "$REPO/sequences/c-major-scale.mid"
assert_file_has "$WORK/err" "playing through the running daemon" "play says where it plays"
assert_eq "60 62 64 65 67 69 71 72 71 69 67 65 64 62 60" \
    "$(aseqdump_events "$dump" | sed -nE 's/^Note on +0, note ([0-9]+), velocity [1-9].*/\1/p' | tr '\n' ' ' | sed 's/ $//')" \
    "the scale's notes, in order, at aseqdump"
assert_file_has "$(peer_err hub)" "transport: 'c-major-scale.mid' ended" "the daemon logs the end"
# The doc's patch marks aseqdump `clock: true`: Start, a pulse every 1/24 quarter of the 16, Stop.
assert_eq "Start 384 Stop" "$(aseqdump_events "$dump" | awk '/^Start/ { s = s "Start " } /^Clock/ { n++ } /^Stop/ { s = s n " Stop" } END { print s }')" \
    "the clock aseqdump got with the scale"
assert_no_hanging_note "after the song's end"
assert_match "^stopped 'c-major-scale.mid' at 1:1 \(0:00.0 / 0:09.6\), 100 BPM$" "$(midihub transport)" "status after the end"

step "load, seek by bar and by marker, then play and pause"
assert_match "^stopped 'little-song.mid' at 1:1 " "$(cd "$REPO" && midihub transport load sequences/little-song.mid)" "load"
assert_match "^stopped 'little-song.mid' at 5:1 \(0:08.0 / " "$(midihub transport seek 5)" "seek 5"
assert_match "^stopped 'little-song.mid' at 9:1 \(0:16.0 / .*\), 96 BPM$" "$(midihub transport seek Waltz)" "seek to the marker"
assert_exit 2 midihub transport seek Bridge
assert_one_line_error "^midihub: 'Bridge' is neither BAR, BAR:BEAT, SECONDSs nor a marker of 'little-song.mid' \(fix: use a bar, a time or one of the markers Verse, Waltz\)$"
midihub transport seek 1 >/dev/null || fail "seek 1"
before=$(count_on)
assert_match "^playing 'little-song.mid' at 1:1 " "$(midihub transport play)" "play"
wait_for "notes of the song at aseqdump" 10 bash -c "(( \$(count_on) > $before + 4 ))"
status=$(midihub transport pause)
assert_match "^paused 'little-song.mid' at [1-9]:[1-4] " "$status" "pause"
assert_no_hanging_note "after pause"
paused_at=$(sed -E 's/.* at ([0-9]+:[0-9]+) .*/\1/' <<<"$status")
sleep 1
assert_match "^paused 'little-song.mid' at $paused_at " "$(midihub transport)" "a paused transport stays where it paused"

step "a loop of one bar keeps playing past the song's length; a tempo override sticks"
assert_match "loop 2:1 to 3:1$" "$(midihub transport loop 2 3)" "loop 2 3"
midihub transport seek 2 >/dev/null || fail "seek 2"
assert_match "^playing 'little-song.mid' at 2:1 " "$(midihub transport play)" "play from bar 2"
assert_match "^playing .*, 240 BPM \(override\), loop 2:1 to 3:1$" "$(midihub transport tempo 240)" "tempo 240 while playing"
sleep 12  # at 240 BPM a bar lasts 1 s: past the end of bar 3, and more than the song's 8 bars of 4/4
assert_match "^playing 'little-song.mid' at 2:[1-4] .*240 BPM \(override\), loop 2:1 to 3:1$" "$(midihub transport)" \
    "still playing inside the loop"
assert_match "^stopped 'little-song.mid' at 2:1 " "$(midihub transport stop)" "stop goes back to the loop's start"
assert_no_hanging_note "after stop"
assert_match ", 120 BPM, loop 2:1 to 3:1$" "$(midihub transport tempo file)" "the file's tempo again"
midihub transport loop off >/dev/null || fail "loop off"

step "the play trigger plays and pauses; the transport's triggers show it"
assert_match "^play: transport play \(normal\)$" "$(midihub trigger | grep '^play:')" "play is enabled with a song"
assert_eq "play: transport play (selected)" "$(midihub trigger play)" "the play trigger plays"
assert_match "^playing " "$(midihub transport)" "playing after the trigger"
assert_eq "play: transport play (normal)" "$(midihub trigger play)" "the play trigger pauses"
assert_match "^paused " "$(midihub transport)" "paused after the trigger"
assert_no_hanging_note "after the trigger paused"

step "the record trigger records what the keyboard plays and writes the take"
wait_for "the rule connects the keyboard to midihub:in" 20 bash -c \
    "aconnect -l | grep -A3 \"'Virtual Raw MIDI $card-0'\" | grep -q \"Connecting To: .*$hub:0\""
assert_eq "record: transport record (selected)" "$(midihub trigger record)" "the record trigger starts a take"
amidi -p "hw:$card,0" -S '90 3C 64' || fail "amidi -S failed"
sleep 0.5
amidi -p "hw:$card,0" -S '80 3C 00' || fail "amidi -S failed"
sleep 0.5
assert_eq "record: transport record (normal)" "$(midihub trigger record)" "fired again, it ends the take"
wait_for_line "$(peer_err hub)" "recording: wrote 2 events \([0-9]+ s\) to $WORK/recordings/take-[0-9-]+\.mid$"
take=$(ls "$WORK"/recordings/take-*.mid)
midicsv "$take" >"$WORK/take.csv" || fail "midicsv cannot read the take"
assert_file_has "$WORK/take.csv" "^2, [0-9]+, Note_on_c, 0, 60, 100$" "the take's note-on"
assert_file_has "$WORK/take.csv" "^2, [0-9]+, Note_off_c, 0, 60, 0$" "the take's note-off"

step "the record trigger while the song plays overdubs: the take plays with the song from the loop's start"
assert_match "loop 1:1 to 2:1$" "$(midihub transport loop 1 2)" "loop 1 2"
midihub transport tempo 240 >/dev/null || fail "tempo 240"
midihub transport seek 1 >/dev/null || fail "seek 1"
midihub transport play >/dev/null || fail "play"
assert_eq "record: transport record (selected)" "$(midihub trigger record)" "the record trigger starts an overdub"
wait_for_line "$(peer_err hub)" "recording: overdubbing onto 'little-song.mid'"
amidi -p "hw:$card,0" -S '90 6C 63' || fail "amidi -S failed"
sleep 0.2
amidi -p "hw:$card,0" -S '80 6C 00' || fail "amidi -S failed"
assert_eq "record: transport record (normal)" "$(midihub trigger record)" "fired again, it ends the overdub"
wait_for_line "$(peer_err hub)" "recording: overdubbed 2 events onto 'little-song.mid'; wrote the song with its new track to $WORK/recordings/take-[0-9-]+\.mid$"
# The keyboard plays the synth only: note 108 at aseqdump is the song playing the take.
wait_for "the overdub's note 108 at aseqdump, from the song" 10 bash -c \
    "aseqdump_events '$dump' | grep -Eq '^Note on +0, note 108, velocity 99'"
overdubbed=$(ls -t "$WORK"/recordings/take-*.mid | head -n 1)
midicsv "$overdubbed" >"$WORK/overdub.csv" || fail "midicsv cannot read the overdubbed song"
assert_file_has "$WORK/overdub.csv" ", Title_t, \"overdub [0-9-]+\"$" "the take's track"
assert_file_has "$WORK/overdub.csv" ", Note_on_c, 0, 108, 99$" "the take's note in the file"
assert_eq "$(($(midicsv "$REPO/sequences/little-song.mid" | grep -c ', Start_track$') + 1))" \
    "$(grep -c ', Start_track$' "$WORK/overdub.csv")" "the song's tracks and the take's"
midihub transport pause >/dev/null || fail "pause"
assert_no_hanging_note "after the overdub"
midihub transport loop off >/dev/null || fail "loop off"
midihub transport tempo file >/dev/null || fail "tempo file"

step "transport record from a stop counts in a bar (2 s at 120 BPM), then plays and overdubs"
midihub transport stop >/dev/null || fail "stop"
midihub transport seek 1 >/dev/null || fail "seek 1"
assert_match "^playing 'little-song.mid' at 1:1 .*, recording$" "$(midihub transport record)" "record counts in"
wait_for_line "$(peer_err hub)" "recording: counting in 1 bar, then overdubbing onto 'little-song.mid'"
sleep 1
assert_match "^playing 'little-song.mid' at 1:1 " "$(midihub transport)" "still counting in after a second"
sleep 2
assert_match "^playing 'little-song.mid' at (1:[2-4]|2:)" "$(midihub transport)" "the song plays after the count-in"
assert_match ", recording$" "$(midihub transport)" "the status says it records"
midihub transport record >/dev/null || fail "record again ends the take"
wait_for_line "$(peer_err hub)" "recording: overdubbed 0 events onto 'little-song.mid'"
assert_exit 2 midihub transport record 9
assert_one_line_error "^midihub: a count-in of 9 bars is outside 0…4 \(fix: "
midihub transport pause >/dev/null || fail "pause"

step "a playlist: the scale's end plays on into the waltz; next and previous; repeat all wraps"
assert_match "^stopped 'c-major-scale.mid' at 1:1 .*, song 1 of 2$" \
    "$(cd "$REPO" && midihub transport playlist sequences/c-major-scale.mid sequences/waltz-in-six-eight.mid)" "playlist"
assert_eq "next: transport next (normal)" "$(midihub trigger | grep '^next:')" "next is enabled with a song after"
midihub transport seek 4:4 >/dev/null || fail "seek to the scale's last beat"
midihub transport play >/dev/null || fail "play"
wait_for_line "$(peer_err hub)" "transport: playing 'waltz-in-six-eight.mid' \(2 of 2\)$"
wait_for "the waltz's first note (D4) at aseqdump" 10 bash -c \
    "aseqdump_events '$dump' | tail -n 40 | grep -Eq '^Note on +0, note 62, velocity 85'"
assert_match "^playing 'waltz-in-six-eight.mid' at .*, song 2 of 2$" "$(midihub transport)" "the waltz plays"
assert_exit 2 midihub transport next
assert_one_line_error "^midihub: no song after 'waltz-in-six-eight.mid' in the playlist \(fix: "
assert_eq "next: transport next (disabled)" "$(midihub trigger | grep '^next:')" "next is disabled at the last song"
assert_match "^playing 'c-major-scale.mid' at 1:1 .*, song 1 of 2$" "$(midihub transport previous)" "previous plays on"
assert_match ", song 1 of 2, repeat all$" "$(midihub transport repeat all)" "repeat all"
midihub transport next >/dev/null || fail "next"
assert_match "^playing 'c-major-scale.mid' .*, song 1 of 2, repeat all$" "$(midihub transport next)" "next wraps to the first"
assert_match "^paused " "$(midihub transport pause)" "pause"
assert_no_hanging_note "after switching songs"
(cd "$REPO" && midihub transport load sequences/little-song.mid >/dev/null) || fail "load"
midihub transport seek 5 >/dev/null || fail "seek 5"

step "bad requests: one line, exit 2, the transport unchanged"
assert_exit 2 midihub transport load "$WORK/nowhere.mid"
assert_one_line_error "^midihub: no file '$WORK/nowhere.mid' \(fix: check the path\)$"
printf 'MThd\0\0\0\6\0\1' >"$WORK/broken.mid"
assert_exit 2 midihub transport load "$WORK/broken.mid"
assert_one_line_error "^midihub: $WORK/broken.mid: "
assert_exit 2 midihub transport loop 4 2
assert_one_line_error "^midihub: the loop's end 2 is not after its start 4 \(fix: "
assert_exit 2 midihub transport tempo fast
assert_exit 2 midihub transport rewind
assert_match "^stopped 'little-song.mid' at 5:1 " "$(midihub transport)" "the transport kept its song"

step "a play trigger (docs/mappings.md) loads its sequence and plays it from the top"
mkdir -p "$WORK/patches" && ln -sfn "$REPO/sequences" "$WORK/patches/sequences"
doc_block docs/mappings.md play-trigger-patch >"$WORK/patches/intro.yaml"
midihub patch load "$WORK/patches/intro.yaml" >/dev/null || fail "loading the play-trigger patch"
before=$(count_on)
fired=$(date +%s.%N)
midihub trigger intro >/dev/null || fail "firing the play trigger"
wait_for "the trigger shows its song playing" 10 bash -c \
    "midihub trigger | grep -qxF 'intro: play $WORK/patches/sequences/c-major-scale.mid (selected)'"
status=$(midihub transport)
elapsed=$(awk -v fired="$fired" -v now="$(date +%s.%N)" 'BEGIN { print now - fired }')
assert_match "^playing 'c-major-scale.mid' at [0-9]+:[0-9]+ \\(" "$status" "the trigger's song plays"
# From the top: no further into the song than the time since the trigger fired (each midihub
# run takes a good part of a second in the emulated VM, so the bar it is in varies).
played=$(sed -n 's/.*(\([0-9]*\):\([0-9.]*\) \/.*/\1 \2/p' <<<"$status" | awk '{ print $1 * 60 + $2 }')
[[ -n $played ]] || fail "no position in the status: $status"
awk -v played="$played" -v elapsed="$elapsed" 'BEGIN { exit !(played <= elapsed + 0.1) }' \
    || fail "the trigger's song was $played s in, $elapsed s after the trigger fired: it did not start from the top ($status)"
wait_for "the scale's notes at aseqdump" 10 bash -c "(( \$(count_on) > $before + 1 ))"
midihub transport stop >/dev/null || fail "stop"
assert_no_hanging_note "after the trigger's song"
printf 'triggers:\n  intro: { play: nowhere.mid }\n' >"$WORK/patches/bad.yaml"
assert_exit 2 midihub patch load "$WORK/patches/bad.yaml"
assert_one_line_error "^midihub: $WORK/patches/bad.yaml:2:[0-9]+: trigger 'intro': no sequence file $WORK/patches/nowhere.mid \(fix: "
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
