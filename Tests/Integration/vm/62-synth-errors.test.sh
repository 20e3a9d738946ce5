# Issue 3, kernel test: audio device errors are one line naming the device and the
# fix — an unknown device (pointing to --device and `midihub render`), and a device
# that disappears while playing (snd-aloop unbound: "is gone").

source "$REPO/Tests/Integration/synth-audio.sh"
load_modules snd-aloop
write_a4_sequence "$WORK/a4.mid" 60
bank=(--preset-bank "$REPO/patches/presets")

step "unknown device"
assert_exit 1 midihub play "$WORK/a4.mid" --device hw:9,0 "${bank[@]}"
assert_one_line_error "^midihub: no audio device 'hw:9,0' .*\(fix: .*--device.*midihub render.*\)$"
assert_exit 1 midihub synth --device nosuchpcm "${bank[@]}"
assert_one_line_error "^midihub: no audio device 'nosuchpcm' .*\(fix: .*--device.*midihub render.*\)$"
assert_exit 2 midihub play "$WORK/a4.mid" --device hw:Loopback,0,0 --period 8 "${bank[@]}"
assert_one_line_error "^midihub: period size 8 frames is out of range \(fix: .*\)$"

step "the device disappears while playing"
card=$(card_number Loopback)
start_peer play midihub play "$WORK/a4.mid" "${SYNTH_AUDIO_OPTIONS[@]}"
wait_for_line "/proc/asound/card$card/pcm0p/sub0/status" "state: RUNNING" 60
echo snd_aloop.0 >/sys/bus/platform/drivers/snd_aloop/unbind || fail "could not unbind snd_aloop"
wait_peer play 60
assert_eq 1 "$PEER_STATUS" "midihub play exit status when its device is gone"
lines=$(wc -l <"$(peer_err play)")
assert_eq 1 "$lines" "lines on stderr: $(head -c 400 "$(peer_err play)")"
assert_file_has "$(peer_err play)" "^midihub: audio device 'hw:Loopback,0,0' is gone .*\(fix: .*--device\)$" "device gone error"

step "Ctrl-C during render leaves no file behind"
# 400 bars at 120 BPM: 800 s of audio, far longer than the signal takes to come.
printf 'ppq 480\ntempo 120\ntrack "Lead" channel 1\n  1:1 C4 1/4\n  400:1 C4 1/4\n' >"$WORK/long.song"
mkdir -p "$WORK/render" || fail "cannot create $WORK/render"
start_peer render midihub render "$WORK/long.song" -o "$WORK/render/long.wav" "${bank[@]}"
# The temporary file has grown past its header: the renderer is writing audio.
partial_has_audio() { [[ $(stat -c %s "$WORK"/render/.long.wav.*.partial 2>/dev/null || echo 0) -gt 100000 ]]; }
wait_for "the render's temporary file to fill" 60 partial_has_audio
stop_peer render INT
assert_eq 130 "$PEER_STATUS" "midihub render exit status after SIGINT"
assert_file_has "$(peer_err render)" "^midihub: render interrupted; .*long.wav was not written$" "interruption line"
left=$(ls -A "$WORK/render")
assert_eq "" "$left" "files left in the output folder after the interrupted render"
