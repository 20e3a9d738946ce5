# Issue 9, kernel test: an audio input plays a capture device into the patch's graph.
# aplay plays a tone pair to hw:Loopback,0,1 — 250 Hz on the left, 8 kHz on the right, as
# a guitar or a microphone would come in. `midihub serve --patch` (docs/patch-format.md's
# audio input example) captures it from hw:Loopback,1,1 through an `input:` node and an
# equalizer to hw:Loopback,0,0, recorded from hw:Loopback,1,0. The equalizer's high shelf is then turned down 18 dB over the
# control socket: the recorded 8 kHz side falls by more than 12 dB, the 250 Hz side stays.
# timeout: 600

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-audio.sh"
source "$REPO/Tests/Integration/serve-control.sh"
load_modules snd-aloop snd-seq

# docs/patch-format.md's example, its guitar being the loopback's capture side.
doc_block docs/patch-format.md input-patch | sed 's/plughw:CARD=USB,DEV=0/hw:Loopback,1,1/' >"$WORK/input.yaml"
assert_file_has "$WORK/input.yaml" 'input: "hw:Loopback,1,1"' "the example's input device replaced"

step "the tone pair plays into the loopback; the hub captures it"
sox -n -r 48000 -b 16 -c 2 "$WORK/tones.wav" synth 120 sine 250 sine 8000 vol 0.5 || fail "sox could not make the tones"
start_peer tones aplay -q -D hw:Loopback,0,1 "$WORK/tones.wav"
wait_for_line "/proc/asound/card$(card_number Loopback)/pcm0p/sub1/hw_params" "format: S16_LE"
start_loopback_recording rec "$WORK/recorded.wav" 590
wait_for_loopback_capture
start_serve hub --patch "$WORK/input.yaml" "${SYNTH_AUDIO_OPTIONS[@]}"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
sleep 8

step "the equalizer's high shelf down 18 dB"
control_ok '{"id":1,"request":"parameters.set","params":{"node":"tone","parameter":"high gain","value":-18}}' >/dev/null
sleep 8
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer rec
stop_peer tones
assert_file_lacks "$(peer_err hub)" "audio input" "the input captured without a problem"

step "the recording: the tones as captured, then the 8 kHz side 18 dB down"
sound_segments "$WORK/recorded.wav" 1 >"$WORK/segments.txt"
mapfile -t segments <"$WORK/segments.txt"
assert_eq 1 "${#segments[@]}" "sounding segments (the input from start to stop): $(tr '\n' ';' <"$WORK/segments.txt")"
read -r start end <<<"${segments[0]}"
plus() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'; }
read -r low_before high_before <<<"$(channel_levels "$WORK/recorded.wav" "$(plus "$start" 1)" "$(plus "$start" 3)")"
read -r low_after high_after <<<"$(channel_levels "$WORK/recorded.wav" "$(plus "$end" -3)" "$(plus "$end" -1)")"
echo "250 Hz side: $low_before then $low_after; 8 kHz side: $high_before then $high_after (RMS of full scale)"
# Each tone at half of full scale has an RMS near 0.35 before the change.
python3 - "$low_before" "$low_after" "$high_before" "$high_after" <<'PY' || fail "the equalizer did not shape the captured input as set"
import math, sys
low_before, low_after, high_before, high_after = map(float, sys.argv[1:])
db = lambda a, b: 20 * math.log10(b / a)
assert 0.25 < low_before < 0.45 and 0.25 < high_before < 0.45, "the captured tones are not at their level"
assert abs(db(low_before, low_after)) < 1.5, f"the 250 Hz side moved {db(low_before, low_after):.1f} dB"
assert db(high_before, high_after) < -12, f"the 8 kHz side moved only {db(high_before, high_after):.1f} dB"
PY
