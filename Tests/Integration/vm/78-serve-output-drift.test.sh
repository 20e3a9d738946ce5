# Issue 9, kernel test: a second card whose clock runs 0.4 % off the main card's follows it.
# snd-aloop's rate shift (100400) makes the headphones' cable (hw:Loopback,0,1 and its
# capture side) run 0.4 % slower than the main card's (hw:Loopback,0,0): 192 frames a second
# fewer, a period every 5 s. docs/patch-format.md's two-outputs patch plays the metronome's
# clicks (120 BPM) to the headphones. Recorded on the headphones' own clock, the clicks after
# the follower has settled (12 s) come 0.5 s / 1.004 apart (23904 frames), each within 1 ms
# of the others (the threads wake late under emulation). A writer that did not follow plays
# them 24000 frames apart on its own clock, falling behind by 192 frames a second until the
# ring overflows and jumps (checked: this test fails with the follower's rate held at 1).
# timeout: 300
# retry: clicks within 1 ms of each other on the emulated VM's clocks

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-audio.sh"
load_modules snd-aloop snd-seq

step "the headphones' cable runs 0.4 % slow"
# snd-aloop shifts each side of a cable by its device's control: both, for the cable.
for side in 0 1; do
    shift_control="iface=PCM,name=PCM Rate Shift 100000,device=$side,subdevice=1"
    amixer -q -c Loopback cset "$shift_control" 100400 || fail "amixer cannot set snd-aloop's rate shift"
    assert_eq 100400 "$(amixer -c Loopback cget "$shift_control" | awk -F= '/: values=/ { print $2 }')" "the rate shift of side $side"
done

doc_block docs/patch-format.md two-outputs-patch | sed 's/plughw:CARD=Headphones,DEV=0/hw:Loopback,0,1/' >"$WORK/two.yaml"
start_loopback_recording phones "$WORK/phones.wav" 30 1
wait_for_loopback_capture 1
start_serve hub --patch "$WORK/two.yaml" "${SYNTH_AUDIO_OPTIONS[@]}"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
sleep 26
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer phones
assert_file_lacks "$(peer_err hub)" "audio output" "the headphones played without a problem"

step "the clicks, after the first 12 s, evenly 0.5 s / 1.004 apart"
python3 - "$WORK/phones.wav" >"$WORK/clicks.txt" <<'PY' || fail "the clicks are not even: $(cat "$WORK/clicks.txt")"
import sys, wave, array
with wave.open(sys.argv[1]) as w:
    rate, channels = w.getframerate(), w.getnchannels()
    samples = array.array("h", w.readframes(w.getnframes()))
left = samples[::channels]
# Onsets: the first frame above a tenth of the click's level after 0.2 s below it.
loudest = max(abs(x) for x in left) or 1
threshold, quiet, onsets, last = loudest / 10, rate // 5, [], -rate
for index, value in enumerate(left):
    if abs(value) > threshold:
        if index - last > quiet:
            onsets.append(index)
        last = index
settled = [o for o in onsets if o > 12 * rate]
intervals = [b - a for a, b in zip(settled, settled[1:])]
if len(intervals) < 20:
    print(f"only {len(intervals) + 1} clicks after 12 s (of {len(onsets)})")
    sys.exit(1)
middle = sorted(intervals)[len(intervals) // 2]
worst = max(abs(i - middle) for i in intervals)
print(f"{len(intervals) + 1} clicks, {middle} frames apart (0.5 s is 24000), the farthest {worst} frames off")
expected = 24000 / 1.004
sys.exit(0 if abs(middle - expected) < 48 and worst <= 48 else 1)
PY
cat "$WORK/clicks.txt"
