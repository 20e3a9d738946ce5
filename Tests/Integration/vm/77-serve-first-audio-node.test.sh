# Issue 9, kernel test: the first audio node added at runtime opens the sound card on a
# worker. `midihub serve` starts with a MIDI-only patch (a snd-virmidi controller to
# aseqdump) and --device hw:Loopback,0,0: no audio. A synth and an output are added over
# the control socket and routed from the controller: the daemon opens the card on a worker
# (MIDI goes on: a note reaches aseqdump), logs `audio: playing to`, and the controller's
# flute A4 is recorded at 440 Hz.
# timeout: 300

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-audio.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
source "$REPO/Tests/Integration/serve-control.sh"
load_modules snd-aloop
start_controller_and_dump
cat >"$WORK/midi-only.yaml" <<'YAML'
nodes:
  keys: { source: hardware:* }
  dump: { external: '"aseqdump"' }
routes:
  - keys -> dump
rules:
  - connect hardware:* -> "midihub:in"
YAML

start_loopback_recording rec "$WORK/recorded.wav" 60
wait_for_loopback_capture
start_serve hub --patch "$WORK/midi-only.yaml" "${SYNTH_AUDIO_OPTIONS[@]}"
hub=$(client_number midihub)
wait_for_controller_route "the rule"
assert_file_lacks "$(peer_err hub)" "audio: playing" "no audio before the graph has an audio node"

step "a synth and an output added and routed: the card opens while MIDI goes on"
control_ok '{"id":1,"request":"nodes.add","params":{"type":"midihub synth","id":"synth"}}' >/dev/null
control_ok '{"id":1,"request":"nodes.add","params":{"type":"output","id":"out","port":"default"}}' >/dev/null
control_ok '{"id":1,"request":"connect","params":{"source":"node:synth","destination":"node:out"}}' >/dev/null
amidi -p "hw:$CARD,0" -S '90 40 64 80 40 00' || fail "amidi -S failed"
wait_for_line "$dump" "^ *$hub:1 +Note on +0, note 64, velocity 100$"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
control_ok '{"id":1,"request":"connect","params":{"source":"node:keys","destination":"node:synth"}}' >/dev/null

step "the controller's A4 sounds"
sleep 2
play_flute_a4 "$CARD"
sleep 3
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer rec
sound_segments "$WORK/recorded.wav" 1 >"$WORK/segments.txt"
mapfile -t segments <"$WORK/segments.txt"
assert_eq 1 "${#segments[@]}" "sounds recorded (the A4): $(tr '\n' ';' <"$WORK/segments.txt")"
assert_segment_a4 "$WORK/recorded.wav" ${segments[0]} a4
