# The audio helpers work, without midihub: a 440 Hz tone played with aplay to the
# snd-aloop playback side comes back through arecord at 440 Hz (within the
# resolution of sox's spectrum), and silence is recognised as silence.

load_modules snd-aloop
sox -n -r 48000 -c 2 -b 16 "$WORK/tone.wav" synth 3 sine 440 vol 0.5 || fail "sox could not write the tone"

start_loopback_recording rec "$WORK/recorded.wav" 2
aplay -q -D hw:Loopback,0,0 "$WORK/tone.wav" || fail "aplay to the loopback failed"
wait_peer rec 60
assert_eq 0 "$PEER_STATUS" "arecord exit status"
assert_frequency 440 "$(dominant_frequency "$WORK/recorded.wav")" 50 "dominant frequency of the recording"
assert_match '^0\.[1-9]|^1\.' "$(peak_amplitude "$WORK/recorded.wav")" "peak amplitude of the recording"

start_loopback_recording quiet "$WORK/silence.wav" 1
wait_peer quiet 60
assert_eq "0.000000" "$(peak_amplitude "$WORK/silence.wav")" "peak amplitude with nothing playing"
