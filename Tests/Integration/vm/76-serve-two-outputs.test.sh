# Issue 9, kernel test: a graph playing to two sound cards. docs/patch-format.md's
# two-outputs patch — the band on the main card, the band and a metronome on the drummer's
# headphones — with the main card hw:Loopback,0,0 (serve --device) and the headphones
# hw:Loopback,0,1, each recorded from its capture side. Before any note, the headphones
# click and the main card is silent; a flute A4 from a snd-virmidi controller sounds on
# both at 440 Hz; the main card never hears a click.
# timeout: 300

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-audio.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
load_modules snd-aloop snd-virmidi
CARD=$(card_number VirMIDI)

doc_block docs/patch-format.md two-outputs-patch | sed 's/plughw:CARD=Headphones,DEV=0/hw:Loopback,0,1/' >"$WORK/two.yaml"
assert_file_has "$WORK/two.yaml" 'output: "hw:Loopback,0,1"' "the example's headphones replaced"

# The recordings hold both capture sides at S16_LE before the daemon opens playback.
start_loopback_recording main "$WORK/main.wav" 40 0
start_loopback_recording phones "$WORK/phones.wav" 40 1
wait_for_loopback_capture 0
wait_for_loopback_capture 1
start_serve hub --patch "$WORK/two.yaml" "${SYNTH_AUDIO_OPTIONS[@]}"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60

step "the click on the headphones alone, then the band's A4 on both"
wait_for_controller_route "start"
sleep 8
play_flute_a4 "$CARD"
sleep 5
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer main
stop_peer phones
assert_file_lacks "$(peer_err hub)" "audio output" "the headphones played without a problem"

step "the recordings: the main card holds the A4 alone, the headphones the clicks and the A4"
sound_segments "$WORK/main.wav" 1 >"$WORK/main-segments.txt"
mapfile -t main_segments <"$WORK/main-segments.txt"
assert_eq 1 "${#main_segments[@]}" "sounds on the main card (the A4, no click): $(tr '\n' ';' <"$WORK/main-segments.txt")"
read -r a4_start a4_end <<<"${main_segments[0]}"
assert_segment_a4 "$WORK/main.wav" "$a4_start" "$a4_end" main-a4
# The same moments on the headphones' recording (both captures started together, each
# device a few periods behind): clicks before the note, the A4 with it.
before_start=$(awk -v s="$a4_start" 'BEGIN { print (s > 5 ? s - 5 : 0) }')
sox "$WORK/phones.wav" "$WORK/phones-before.wav" trim "$before_start" "=$(awk -v s="$a4_start" 'BEGIN { print s - 0.5 }')" \
    || fail "sox could not cut the headphones' recording"
sound_segments "$WORK/phones-before.wav" 0.2 >"$WORK/click-segments.txt"
clicks=$(wc -l <"$WORK/click-segments.txt")
((clicks >= 6)) || fail "expected the metronome's clicks (120 BPM) before the note on the headphones, got $clicks sounds"
echo "$clicks clicks on the headphones in the 4.5 s before the A4"
assert_segment_a4 "$WORK/phones.wav" "$(awk -v s="$a4_start" 'BEGIN { print s + 0.2 }')" "$(awk -v e="$a4_end" 'BEGIN { print e - 0.2 }')" phones-a4
