# Issue 9, kernel test: `midihub serve --patch` plays the patch's audio graph as written.
# Two synths on two mixer strips — channel 1 plays the piano, through a reverb insert, on
# a strip panned hard left; channel 2 the bass, on a strip panned hard right. A snd-virmidi
# controller plays A4 on each channel in turn, then on channel 1 again after the piano's
# strip is muted over the control socket. Recorded from hw:Loopback,1,0: the first note is
# heard only on the left, the second only on the right, the muted third not at all.
# timeout: 600

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
source "$REPO/Tests/Integration/serve-audio.sh"
source "$REPO/Tests/Integration/serve-control.sh"
load_modules snd-aloop snd-virmidi

cat >"$WORK/strips.yaml" <<'YAML'
version: 1
name: piano left with reverb, bass right
nodes:
  keys: { source: hardware:* }
  piano: { instrument: midihub synth }
  bass: { instrument: midihub synth }
  room: { effect: reverb, parameters: { wet: 0.4 } }
  piano-strip: { effect: mixer strip, parameters: { pan: -1 } }
  bass-strip: { effect: mixer strip, parameters: { pan: 1 } }
  out: { output: default }
routes:
  - { from: keys, to: piano, channels: [1] }
  - { from: keys, to: bass, channels: [2] }
  - piano -> room
  - room -> piano-strip
  - bass -> bass-strip
  - piano-strip -> out
  - bass-strip -> out
rules:
  - connect hardware:* -> "midihub:in"
YAML

start_loopback_recording rec "$WORK/recorded.wav" 590
wait_for_loopback_capture
start_serve hub --patch "$WORK/strips.yaml" "${SYNTH_AUDIO_OPTIONS[@]}"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
assert_file_lacks "$(peer_err hub)" "is not heard" "every node of the patch reaches the output"

step "A4 on channel 1 (the piano, left), then on channel 2 (the bass, right)"
wait_for_controller_route "the controller"
amidi -p "hw:$CARD,0" -S 'C0 49 C1 49 90 45 64' || fail "amidi -S failed"
sleep 2
amidi -p "hw:$CARD,0" -S '80 45 00' || fail "amidi -S failed"
sleep 5
amidi -p "hw:$CARD,0" -S '91 45 64' || fail "amidi -S failed"
sleep 2
amidi -p "hw:$CARD,0" -S '81 45 00' || fail "amidi -S failed"
sleep 5

step "the piano's strip muted: its A4 is not heard"
control_ok '{"id":1,"request":"parameters.set","params":{"node":"piano-strip","parameter":"mute","value":1}}' >/dev/null
amidi -p "hw:$CARD,0" -S '90 45 64' || fail "amidi -S failed"
sleep 2
amidi -p "hw:$CARD,0" -S '80 45 00' || fail "amidi -S failed"
sleep 5
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer rec

step "the recording: the piano on the left only, the bass on the right only, the muted piano silent"
sound_segments "$WORK/recorded.wav" 2 >"$WORK/segments.txt"
mapfile -t segments <"$WORK/segments.txt"
assert_eq 2 "${#segments[@]}" "sounding segments (piano, bass; the muted piano silent): $(tr '\n' ';' <"$WORK/segments.txt")"
read -r piano_left piano_right <<<"$(channel_levels "$WORK/recorded.wav" ${segments[0]})"
assert_channel_dominates "$piano_left" "$piano_right" "the piano on the left"
read -r bass_left bass_right <<<"$(channel_levels "$WORK/recorded.wav" ${segments[1]})"
assert_channel_dominates "$bass_right" "$bass_left" "the bass on the right"
assert_segment_a4 "$WORK/recorded.wav" ${segments[1]} bass
