# docs/control-protocol.md against the real daemon: every transcript of the doc (its
# json blocks and "A session") is replayed on a connection of its own, in the doc's
# order, and each answer must be the one the doc shows (replay-transcripts). The setup
# is the doc's: a keyboard at 20:0 (snd-virmidi card 1), fluidsynth as 'FLUID Synth'
# (client 128), a JACK server with jack_midi_dump's port (jack:midi-monitor:input),
# and the daemon running patches/keyboard-synth.yaml.
# timeout: 900

source "$REPO/Tests/Integration/serve.sh"
modprobe snd-dummy index=0 || fail "modprobe snd-dummy"
modprobe snd-virmidi index=1 midi_devs=1 || fail "modprobe snd-virmidi"
# The small GM font: FluidR3's 142 MB take fluidsynth a minute to load in the emulated VM.
start_peer fluid fluidsynth -si -m alsa_seq -a alsa -o audio.alsa.device=hw:0 -o audio.period-size=4096 \
    -o synth.reverb.active=0 -o synth.chorus.active=0 -p 'FLUID Synth' /usr/share/sounds/sf2/TimGM6mb.sf2
wait_for_client "FLUID Synth" 120
assert_eq 128 "$(client_number "FLUID Synth")" "fluidsynth's client"
assert_eq 20 "$(client_number "Virtual Raw MIDI 1-0")" "the keyboard's client"
export JACK_NO_START_SERVER=1
start_peer jackd jackd --no-realtime --sync -d dummy -r 48000 -p 256
wait_for "jackd answers" 60 jack_lsp
start_peer monitor stdbuf -oL jack_midi_dump midi-monitor
wait_for "midi-monitor:input in JACK" 120 bash -c "jack_lsp | grep -qx midi-monitor:input"
start_serve hub --device plughw:0,0 --period 1024 --patch "$REPO/patches/keyboard-synth.yaml"
wait_for "the daemon lists jack:midi-monitor:input" 60 bash -c \
    "echo '{\"request\":\"ports.list\"}' | socat -t 10 - UNIX-CONNECT:$SERVE_SOCKET | tee $WORK/ports.json | grep -q '\"jack:midi-monitor:input\"'"
wait_for "the rule's connection 20:0 -> midihub:in" 20 \
    bash -c "aconnect -l | grep -A3 \"'Virtual Raw MIDI 1-0'\" | grep -q 'Connecting To: 129:0'"

step "replay-transcripts docs/control-protocol.md"
"$REPO/Tests/Integration/replay-transcripts" "$SERVE_SOCKET" "$REPO/docs/control-protocol.md" "49-control-protocol.test.sh replay-transcripts" \
    --replace /home/me/midihub "$REPO" \
    --before '"mapping-learned"' "amidi -p hw:1,0 -S 'B0 4A 40 B0 4A 42'" \
    --before '"log"' "echo $VIRMIDI_DEVICE >/sys/bus/platform/drivers/snd_virmidi/unbind" \
    --before '"parameter-changed"' "echo '{\"request\":\"parameters.set\",\"params\":{\"node\":\"synth\",\"parameter\":\"master gain\",\"value\":-3}}' | socat - UNIX-CONNECT:$SERVE_SOCKET >/dev/null" \
    --before '"node-gone"' "kill ${PEER_PIDS[fluid]}" \
    --tolerate 'underruns on' \
    2>"$WORK/replay.err" || fail "the daemon's answers differ from the doc: $(tail -n 20 "$WORK/replay.err")"
assert_file_has "$WORK/replay.err" "^replay-transcripts: 32 transcripts, 0 mismatches$" "every transcript replayed"

# "Scripting it", line by line, against the same daemon: the follow-events line gets
# SIGINT after 3 s, as from Ctrl-C (its sleep ends too), and the interactive socat gets
# one typed request.
step "scripting: the doc's socat, nc and jq lines"
awk '/tested-by: .*49-control-protocol.test.sh scripting/ { getline; on = 1; next } on && /^```$/ { exit } on' \
    "$REPO/docs/control-protocol.md" \
    | sed -e 's/sleep infinity) | nc -U $SOCK$/sleep 4) | timeout -s INT 3 nc -U $SOCK || [ $? = 124 ]/' -e 's|^socat - UNIX-CONNECT:$SOCK$|socat - UNIX-CONNECT:$SOCK <<<'"'"'{"id":9,"request":"hello","params":{"protocolVersion":1}}'"'"'|' \
    >"$WORK/scripting.sh"
(cd "$WORK" && timeout 60 bash -e scripting.sh) >"$WORK/scripting.out" 2>"$WORK/scripting.err" \
    || fail "the doc's script failed: $(head -c 300 "$WORK/scripting.err")"
assert_eq "1 1 2 1 9" "$(grep '^{' "$WORK/scripting.out" | jq -r 'select(.ok == true) | .id' | paste -sd ' ')" \
    "the answers to nodes.list, nc's two requests, subscribe and the typed hello"
assert_file_has "$WORK/scripting.out" '^14:0$' "jq's hardware sources (Midi Through is left)"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
