# The output blocks of docs/daemon.md from a real `midihub serve`: the log lines of a
# keyboard (snd-virmidi at card 1, client 20) plugged in, holding a note and unplugged
# under the embedded default (a sound card at card 0 for its synth), `midihub graph` of a
# running daemon, and the JACK patch against jackd: each node and rule carries MIDI to or
# between the JACK ports it names. The doc's timestamps are examples: log lines are
# compared without them.
source "$REPO/Tests/Integration/serve.sh"
TIMESTAMP='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z '

step "log-lines: a keyboard comes, plays, holds a note and leaves"
modprobe snd-dummy index=0 || fail "modprobe snd-dummy"
load_modules snd-seq
start_serve hub --period 1024 --buffer 4096
modprobe snd-virmidi index=1 || fail "modprobe snd-virmidi"
# The kernel's side first, so a failure says which side did not see the keyboard.
wait_for "the keyboard's port 20:0 in aconnect -l" 60 bash -c "aconnect -l | grep -q \"^client 20: 'Virtual Raw MIDI 1-0'\""
wait_for_peer_line hub "$(peer_err hub)" "connected 20:0 .* \(by rule\)$" 60
amidi -p hw:1,0 -S '90 45 64' || fail "amidi -S failed"
sleep 3
unplug_virmidi
wait_for_peer_line hub "$(peer_err hub)" "port left: 20:0 .*; released notes at " 60
doc_block docs/daemon.md log-lines >"$WORK/log.doc"
grep -Evq "${TIMESTAMP}midihub: " "$WORK/log.doc" && fail "a doc line without a timestamp: $(<"$WORK/log.doc")"
grep -Evq "${TIMESTAMP}midihub: " "$(peer_err hub)" && fail "a log line without a timestamp: $(grep -Ev "$TIMESTAMP" "$(peer_err hub)" | head -n 3)"
sed -E "s/$TIMESTAMP//" "$(peer_err hub)" >"$WORK/log.real"
while read -r line; do
    line=$(sed -E "s/$TIMESTAMP//" <<<"$line")
    grep -qxF -- "$line" "$WORK/log.real" \
        || fail "the daemon logged no line '$line': $(grep -E 'port|connected' "$WORK/log.real" | head -n 8 | tr '\n' '|')"
done <"$WORK/log.doc"
stop_peer hub

step "graph-output: 'midihub graph' asks the running daemon"
write_transpose_patch
start_serve graph --no-audio --patch "$WORK/patch.yaml"
midihub graph >"$WORK/graph.out" || fail "midihub graph failed"
assert_file_is_doc_block "$WORK/graph.out" docs/daemon.md graph-output
stop_peer graph

step "jack-patch: daemon.md's JACK patch, its JACK ports made by jackd2's tools and fluidsynth"
source "$REPO/Tests/Integration/serve-jack.sh"
export JACK_NO_START_SERVER=1
plug_virmidi
keyboard=$(client_number "Virtual Raw MIDI 1-0")
start_aseqdump dump
start_jackd
start_jack_dump monitor
start_peer recorder stdbuf -oL jack_midi_dump recorder
# The small GM font: FluidR3's 142 MB take fluidsynth a minute to load in the emulated VM.
start_peer fluid fluidsynth -si -m jack -a jack -o midi.jack.id=fluidsynth -o audio.jack.autoconnect=0 \
    /usr/share/sounds/sf2/TimGM6mb.sf2
wait_for "recorder:input and fluidsynth:midi_00" 120 bash -c \
    "jack_lsp | grep -qx recorder:input && jack_lsp | grep -qx fluidsynth:midi_00"
doc_block docs/daemon.md jack-patch >"$WORK/jack-patch.yaml"
start_serve jack --no-audio --patch "$WORK/jack-patch.yaml"
hub_client=$(client_number midihub)
wait_for_peer_line jack "$(peer_err jack)" "JACK MIDI available" 60
# keys -> tojack, and the rule hardware:* -> jack:recorder:input
wait_for_peer_line jack "$(peer_err jack)" "connected $keyboard:0 -> jack:recorder:input \(by rule\)" 90
wait_for_bridge_to_dump
amidi -p hw:1,0 -S '90 3C 64' || fail "amidi -S failed"
wait_for_line "$(peer_out monitor)" "90 3c 64 note on" 30
wait_for_line "$(peer_out recorder)" "90 3c 64 note on" 30
# fromjack -> dump through the rule jack:* -> "midihub:in"; seq:out -> fluidsynth in JACK
start_jack_note seq
wait_for_peer_line jack "$(peer_err jack)" "connected jack:seq:out -> $hub_client:0 .*\(by rule\)" 60
wait_for_line "$(peer_out dump)" "^ *$hub_client:1 +Note on +0, note 62, velocity 64$" 60
wait_for "seq:out -> fluidsynth:midi_00 in JACK" 60 bash -c "jack_lsp -c seq:out | grep -qx ' *fluidsynth:midi_00'"
stop_peer seq
