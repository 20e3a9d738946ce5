# Issue 3, kernel test: `midihub play FILE --device hw:Loopback,0,0` plays through the
# built-in synth while arecord records the loopback's capture side: the recording is
# not silent and its dominant pitch is the sequence's (A4 held 3 s → 440 Hz).
# Underruns are tolerated (the VM is emulated); no timing is asserted.

source "$REPO/Tests/Integration/synth-audio.sh"
load_modules snd-seq snd-aloop  # load_modules waits for /dev/snd/seq, which snd-aloop alone does not create
write_a4_sequence "$WORK/a4.mid" 3

start_loopback_recording rec "$WORK/recorded.wav" 20
wait_for_loopback_capture
step "play to the loopback"
midihub play "$WORK/a4.mid" "${SYNTH_AUDIO_OPTIONS[@]}" </dev/null >"$WORK/play.out" 2>"$WORK/play.err" \
    || fail "midihub play exited $?: $(head -c 400 "$WORK/play.err")"
[[ -s $WORK/play.out ]] && fail "midihub play printed to stdout: $(head -c 200 "$WORK/play.out")"
assert_file_lacks "$WORK/play.err" '\r' "status line though stderr is not a terminal"
stop_peer rec
assert_recorded_a4 "$WORK/recorded.wav"
