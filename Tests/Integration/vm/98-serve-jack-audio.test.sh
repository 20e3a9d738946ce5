# Issue 41, kernel test: the hub's sound in JACK (docs/jack.md). jackd runs its ALSA driver
# on snd-aloop's hw:Loopback,0,0 (a real card driver, not the dummy), recorded from
# hw:Loopback,1,0; `midihub serve --audio jack` is a JACK client whose left and right ports
# the patch's `output: default` connects to system:playback_1 and _2. A snd-virmidi
# keyboard plays the built-in synth's flute A4: it is in the recording at 440 Hz. Then
# jackd is killed: one log line says so, `node-gone` comes for the output with
# `jack-stopped`, and MIDI still reaches aseqdump; jackd started again, the hub rejoins on
# its own (connected again) and a second A4 is recorded. Last, `serve --help`'s JACK example
# runs as written before a server does: one line says it waits, and it joins jackd once it
# is started. Between them: FluidSynth in JACK as an external node whose sound comes back
# through the hub's reverb and strip (its A4 captured, with the reverb's tail: longer than
# the same note dry); and the patch's `transport: follow`: jack_transport locates, starts
# and stops JACK's transport, and the hub's song goes with it; and jack_midiseq's notes
# played by the hub's JACK client in its process callback (docs/jack.md's JACK MIDI patch),
# on the synth and on jack_midi_dump's port, each once.
# timeout: 240

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-audio.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
source "$REPO/Tests/Integration/serve-control.sh"
SOUNDFONT=/usr/share/sounds/sf2/FluidR3_GM.sf2
export JACK_NO_START_SERVER=1 JACK_NO_AUDIO_RESERVATION=1  # no D-Bus in the VM
load_modules snd-aloop
start_controller_and_dump

# docs/jack.md's patch, with aseqdump as an external node the keyboard also plays (MIDI
# routed while JACK is gone).
doc_block docs/jack.md jack-audio-patch >"$WORK/doc.yaml"
sed -e "/^  out: /a\\  dump: { external: '\"aseqdump\"' }" -e '/^  - synth -> out$/a\  - keys -> dump' "$WORK/doc.yaml" >"$WORK/jack.yaml"
grep -q '^  - keys -> dump$' "$WORK/jack.yaml" || fail "could not add aseqdump to docs/jack.md's patch: $(cat "$WORK/jack.yaml")"

# jackd on the loopback's playback side, at the rate and format the recording holds it to;
# periods as large as the other audio tests' (the VM is emulated), and a client timeout
# long enough for the VM's stalls.
start_jackd_on_loopback() { # NAME
    start_peer "$1" jackd --no-realtime -t 10000 -d alsa -d hw:Loopback,0,0 -P -r 48000 -p 1024 -n 3
    wait_for "jackd answers" 60 jack_lsp
}
# Waits until the hub's JACK ports feed both playback ports. Its audio client is named
# `midihub`, or `midihub-NN` when the JACK MIDI ports' clients took that name first (as
# they do when a server comes back): the name its last "playing into JACK" line says.
wait_for_hub_in_jack() {
    local client
    client=$(grep -o 'playing into JACK as [^:]*' "$(peer_err hub)" | tail -n 1 | cut -d' ' -f5)
    poll_until 60 bash -c "jack_lsp -c $client:left | grep -qx '   system:playback_1' && jack_lsp -c $client:right | grep -qx '   system:playback_2'" \
        || fail "$client's ports do not feed system:playback_1/2; jack_lsp -c: $(jack_lsp -c | tr '\n' ' ')"
}

start_loopback_recording rec "$WORK/recorded.wav" 120
wait_for_loopback_capture
start_jackd_on_loopback jackd
start_serve hub --audio jack --patch "$WORK/jack.yaml" --preset-bank "$REPO/patches/presets"
hub=$(client_number midihub)
doc_block docs/jack.md jack-playing-line >"$WORK/playing.doc"
poll_until 60 grep -qF -f "$WORK/playing.doc" "$(peer_err hub)" \
    || fail "no line '$(cat "$WORK/playing.doc")'; log: $(cat "$(peer_err hub)")"
wait_for_hub_in_jack
start_peer events bash -c "{ echo '{\"id\":1,\"request\":\"subscribe\",\"params\":{\"events\":[\"node-gone\"]}}'; sleep 200; } \
    | socat -t 200 - UNIX-CONNECT:$SERVE_SOCKET"
wait_for_line "$(peer_out events)" '"ok":true'

step "the keyboard's A4 through JACK into the card"
wait_for_controller_route "the rule"
play_flute_a4 "$card"
wait_for_line "$dump" "^ *$hub:1 +Note off +0, note 69"

step "jackd killed: one line, node-gone, MIDI goes on"
stop_peer jackd KILL
doc_block docs/jack.md jack-gone-lines >"$WORK/gone.doc"
poll_until 30 bash -c "(( \$(grep -cF -f '$WORK/gone.doc' '$(peer_err hub)') == 2 ))" \
    || fail "not docs/jack.md's two lines; log: $(tail -5 "$(peer_err hub)")"
doc_block docs/jack.md jack-node-gone >"$WORK/node-gone.doc"
poll_until 30 grep -qxF -f "$WORK/node-gone.doc" "$(peer_out events)" \
    || fail "no event '$(cat "$WORK/node-gone.doc")'; events: $(cat "$(peer_out events)")"
amidi -p "hw:$card,0" -S '90 3C 64 80 3C 00' || fail "amidi -S failed"
wait_for_line "$dump" "^ *$hub:1 +Note on +0, note 60, velocity 100$"
sleep 6  # a retry of the audio (every 5 s) finds no server
assert_eq 1 "$(grep -c 'audio stopped' "$(peer_err hub)")" "lines saying the audio stopped"

step "jackd back: the hub rejoins and plays again"
start_jackd_on_loopback jackd2
wait_for_line_count "$(peer_err hub)" "midihub: audio: playing into JACK as midihub(-[0-9]+)?:left" 2 60
wait_for_hub_in_jack
play_flute_a4 "$card"
sleep 1
stop_peer rec  # what follows is not part of the recording

step "FluidSynth's sound in JACK through the hub's reverb and strip (an external node's audio:)"
# Its own reverb and chorus off (-R 0 -C 0), and not connected to the playback by itself
# (FluidSynth's audio.jack.autoconnect is off): what is captured came through the hub.
start_peer fluid fluidsynth -si -a jack -m alsa_seq -R 0 -C 0 -g 0.8 "$SOUNDFONT"
wait_for "FluidSynth's JACK ports and sequencer port" 60 bash -c \
    "jack_lsp | grep -qx fluidsynth:left && aconnect -l | grep -q \"^client [0-9]*: 'FLUID Synth\""
doc_block docs/jack.md jack-app-patch >"$WORK/app.yaml"
midihub patch load "$WORK/app.yaml" >/dev/null || fail "midihub patch load of docs/jack.md's FluidSynth patch failed"
client=$(grep -o 'playing into JACK as [^:]*' "$(peer_err hub)" | tail -n 1 | cut -d' ' -f5)
poll_until 60 bash -c "jack_lsp -c fluidsynth:left | grep -qx '   $client:fluid-left' && jack_lsp -c fluidsynth:right | grep -qx '   $client:fluid-right'" \
    || fail "fluidsynth's ports do not feed $client:fluid-left/-right; jack_lsp -c: $(jack_lsp -c | tr '\n' ' ')"
assert_eq "   $client:fluid-left" "$(jack_lsp -c fluidsynth:left | tail -n +2)" "what fluidsynth:left feeds"
wait_for_controller_route "the FluidSynth patch's rule"
start_loopback_recording rec2 "$WORK/app.wav" 12
wait_for_loopback_capture
# A short A4 through the reverb (wet 0.6), then, the reverb made dry, the same A4.
amidi -p "hw:$card,0" -S '90 45 64' && sleep 0.3 && amidi -p "hw:$card,0" -S '80 45 00' || fail "amidi -S failed"
sleep 5
control_ok '{"id":1,"request":"parameters.set","params":{"node":"room","parameter":"wet","value":0}}' >/dev/null
amidi -p "hw:$card,0" -S '90 45 64' && sleep 0.3 && amidi -p "hw:$card,0" -S '80 45 00' || fail "amidi -S failed"
sleep 3
stop_peer rec2
stop_peer fluid KILL
mapfile -t app_segments < <(sound_segments "$WORK/app.wav" 1)
assert_eq 2 "${#app_segments[@]}" "FluidSynth's notes recorded through the hub: ${app_segments[*]:-none}"
read -r wet_start wet_end <<<"${app_segments[0]}"
read -r dry_start dry_end <<<"${app_segments[1]}"
assert_segment_a4 "$WORK/app.wav" "$dry_start" "$dry_end" fluid-a4
awk -v ws="$wet_start" -v we="$wet_end" -v ds="$dry_start" -v de="$dry_end" 'BEGIN { exit !(we - ws > de - ds + 0.5) }' \
    || fail "no reverb tail: the note through the reverb lasts ${wet_start}–${wet_end} s, the dry one ${dry_start}–${dry_end} s"

step "JACK MIDI played at its frame: the hub's JACK client reads jack_midiseq in its process callback"
# docs/jack.md's patch, with jack_midi_dump as an external node on a JACK port the seq
# plays too: the hub's JACK client writes it (to-dump:input) in the same callback, and the
# MIDI thread, which gets every message after, does not send it again.
doc_block docs/jack.md jack-midi-patch >"$WORK/midi-doc.yaml"
sed -e '/^  out: /a\  dump: { external: "jack:dump:input" }' -e '/^  - seq -> synth$/a\  - seq -> dump' "$WORK/midi-doc.yaml" >"$WORK/midi.yaml"
grep -q '^  - seq -> dump$' "$WORK/midi.yaml" || fail "could not add jack_midi_dump to docs/jack.md's JACK MIDI patch: $(cat "$WORK/midi.yaml")"
start_peer dump stdbuf -oL jack_midi_dump dump
wait_for "jack_midi_dump's port" 30 bash -c "jack_lsp | grep -qx dump:input"
midihub patch load "$WORK/midi.yaml" >/dev/null || fail "midihub patch load of docs/jack.md's JACK MIDI patch failed"
start_peer seq jack_midiseq seq 48000 0 69 12000  # docs/jack.md's: an A4 every second
poll_until 60 bash -c "jack_lsp -c '$client:from-seq:out' | grep -qx '   seq:out' && jack_lsp -c dump:input | grep -qx '   $client:to-dump:input'" \
    || fail "no port $client:from-seq:out fed by seq:out and $client:to-dump:input feeding dump:input; jack_lsp -c: $(jack_lsp -c | tr '\n' ' ')"
control_ok '{"id":1,"request":"ports.list"}' >"$WORK/ports.txt"
grep -q '"address":"jack:seq:out"' "$WORK/ports.txt" || fail "ports.list has no jack:seq:out: $(cat "$WORK/ports.txt")"
! grep -q 'from-seq' "$WORK/ports.txt" || fail "ports.list has the hub's own JACK MIDI port: $(cat "$WORK/ports.txt")"
start_loopback_recording rec3 "$WORK/midi.wav" 6
wait_for_loopback_capture
sleep 3.5
stop_peer rec3
stop_peer seq KILL
stop_peer dump KILL
grep -o 'note o[nf]*' "$(peer_out dump)" >"$WORK/dumped.txt"
(( $(grep -c 'note on' "$WORK/dumped.txt") >= 2 )) || fail "jack_midi_dump got fewer than 2 of jack_midiseq's note-ons: $(cat "$(peer_out dump)")"
[[ -z $(uniq -d "$WORK/dumped.txt") ]] || fail "a note-on or note-off reached dump:input twice in a row (the MIDI thread sent what the JACK client had written): $(cat "$(peer_out dump)")"
mapfile -t midi_segments < <(sound_segments "$WORK/midi.wav" 0.2)
(( ${#midi_segments[@]} >= 2 )) || fail "jack_midiseq's A4s recorded through the hub: ${midi_segments[*]:-none}"
assert_segment_a4 "$WORK/midi.wav" ${midi_segments[0]} seq-a4
midihub patch load "$WORK/jack.yaml" >/dev/null || fail "midihub patch load jack.yaml failed"  # transport: follow again

step "JACK's transport locates, starts and stops the hub's song (the patch's transport: follow)"
midihub transport load "$REPO/sequences/little-song.mid" >/dev/null || fail "midihub transport load failed"
# Runs docs/jack.md's jack_transport commands one by one (each as its own jack_transport).
doc_block docs/jack.md jack-transport-commands >"$WORK/transport.doc"
mapfile -t transport_commands <"$WORK/transport.doc"
assert_eq "locate 384000|play|stop" "$(IFS='|'; echo "${transport_commands[*]}")" "docs/jack.md's jack_transport commands"
song_is() { midihub transport --json | jq -e "$1" >/dev/null; }
printf '%s\n' "${transport_commands[0]}" | jack_transport >/dev/null || fail "jack_transport ${transport_commands[0]} failed"
wait_for "the song stopped at 5:1, 0:08.0" 30 song_is '.state != "playing" and .position == "5:1" and .seconds > 7.99 and .seconds < 8.01'
printf '%s\n' "${transport_commands[1]}" | jack_transport >/dev/null || fail "jack_transport ${transport_commands[1]} failed"
wait_for "the song playing on from 0:08.0" 30 song_is '.state == "playing" and .seconds > 8.2'
printf '%s\n' "${transport_commands[2]}" | jack_transport >/dev/null || fail "jack_transport ${transport_commands[2]} failed"
wait_for "the song stopped past 0:08.0" 30 song_is '.state != "playing" and .seconds > 8.2'

step "transport: lead — the hub's transport rolls JACK's, with its bars and beats (jack_showtime)"
sed 's/^transport: follow /transport: lead   /' "$WORK/jack.yaml" >"$WORK/lead.yaml"
midihub patch load "$WORK/lead.yaml" >/dev/null || fail "midihub patch load lead.yaml failed"
wait_for_peer_line hub "$(peer_err hub)" "midihub: transport: leading JACK's transport \(midihub is its timebase master\)" 30
# jack_showtime prints JACK's transport until killed (it ignores SIGTERM).
midihub transport seek 9 >/dev/null && midihub transport play >/dev/null || fail "midihub transport play failed"
wait_for "JACK's transport rolling in bar 9" 30 bash -c "timeout -s KILL 1 stdbuf -oL jack_showtime | grep -Eq 'state: Rolling.*BBT: +9[|]'"
midihub transport stop >/dev/null || fail "midihub transport stop failed"
wait_for "JACK's transport stopped" 30 bash -c "timeout -s KILL 1 stdbuf -oL jack_showtime | tail -n 1 | grep -q 'state: Stopped'"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"

step "serve --help's JACK example, as written, started before a JACK server: it joins one when it runs"
stop_peer jackd2 KILL  # jackd takes SIGINT slowly under emulation; its exit is not what is tested
example=$(midihub serve --help | awk '/^ *Examples:/ { on = 1; next } on && /^ +midihub / { sub(/^ +/, ""); print }' | grep -e '--audio jack')
[[ -n $example ]] || fail "midihub serve --help has no --audio jack example"
start_peer example bash -c "cd \"\$REPO\" && exec $example"
doc_block docs/jack.md jack-waiting-line >"$WORK/waiting.doc"
poll_until 60 grep -qF -f "$WORK/waiting.doc" "$(peer_err example)" \
    || fail "no line '$(cat "$WORK/waiting.doc")'; log: $(cat "$(peer_err example)")"
start_jackd_on_loopback jackd3
wait_for_peer_line example "$(peer_err example)" "midihub: audio: playing into JACK as midihub(-[0-9]+)?:left and midihub(-[0-9]+)?:right .*, connected to system:playback_1, system:playback_2$" 60
assert_eq 1 "$(grep -cF -f "$WORK/waiting.doc" "$(peer_err example)")" "lines saying the hub waits for JACK"
stop_peer example
assert_eq 0 "$PEER_STATUS" "'$example' after Ctrl-C"
stop_peer jackd3 KILL

step "both A4s are in the recording"
sound_segments "$WORK/recorded.wav" 1 >"$WORK/segments.txt"
mapfile -t segments <"$WORK/segments.txt"
assert_eq 2 "${#segments[@]}" "sounds recorded (two A4s): $(tr '\n' ';' <"$WORK/segments.txt")"
assert_segment_a4 "$WORK/recorded.wav" ${segments[0]} first-a4
assert_segment_a4 "$WORK/recorded.wav" ${segments[1]} second-a4
