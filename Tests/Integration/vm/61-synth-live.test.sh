# Issue 3, kernel test: live MIDI into the synth. `midihub synth` plays to the
# loopback with a snd-virmidi port connected to its input; a note sent with amidi
# (A4 on the flute preset) comes out of the loopback's capture side at 440 Hz.
# Ctrl-C ends it with status 0.

source "$REPO/Tests/Integration/synth-audio.sh"
load_modules snd-aloop snd-virmidi
card=$(card_number VirMIDI)

start_loopback_recording rec "$WORK/recorded.wav" 30
wait_for_loopback_capture
start_peer synth midihub synth "${SYNTH_AUDIO_OPTIONS[@]}" --connect "Virtual Raw MIDI $card-0"
wait_for_peer_line synth "$(peer_err synth)" "^midihub: synth listening on [0-9]+:[0-9]+ \(midihub synth:in\)"
connection="$(client_number "Virtual Raw MIDI $card-0"):0>$(client_number "midihub synth"):0"
connections_by_aconnect | grep -qx "$connection" || fail "no connection $connection: $(connections_by_aconnect | tr '\n' ' ')"

step "A4 from the virmidi port"
play_flute_a4 "$card"
sleep 1
stop_peer synth
assert_eq 0 "$PEER_STATUS" "midihub synth exit status after Ctrl-C"
stop_peer rec
assert_recorded_a4 "$WORK/recorded.wav"
