# Issue 4, kernel test: audio hot-plug through `midihub serve` with its embedded default
# (no patch: every hardware input plays the built-in synth) on hw:Loopback,0,0, recorded
# from hw:Loopback,1,0. A snd-virmidi "controller" holds A4 (no note-off); unplugging it
# (sysfs unbind, as a USB disconnect) silences the recording after the release tail;
# plugging it back (bind) brings the route back and a new A4 sounds at 440 Hz. Twenty
# more unplug/plug cycles each release the held note and keep the daemon's fds and
# memory flat; after the last one the synth still sounds. Underruns are tolerated.
# timeout: 900

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
load_modules snd-aloop snd-virmidi
# A4 on the flute preset (GM program 74), whose spectrum is dominated by its fundamental.
A4_ON='C0 49 90 45 64'
RELEASED="port left: .*'Virtual Raw MIDI [0-9]+-0:.*; released notes at synth$"

# The RMS amplitude (0…1) of FILE, from sox.
rms_amplitude() { # FILE
    sox "$1" -n stat 2>&1 | awk '/^RMS +amplitude/ { print $3 }'
}

# Records from the loopback while the controller plays A4 for 3 s (with its note-off),
# and checks the recording holds A4.
assert_new_note_sounds() { # NAME
    start_loopback_recording "$1" "$WORK/$1.wav" 600
    wait_for_loopback_capture
    amidi -p "hw:$CARD,0" -S "$A4_ON" || fail "amidi -S failed"
    sleep 3
    amidi -p "hw:$CARD,0" -S '80 45 00' || fail "amidi -S failed"
    sleep 1.5
    stop_peer "$1"
    assert_recorded_a4 "$WORK/$1.wav"
}

# The first recording holds the capture side at S16_LE before the daemon opens playback.
start_loopback_recording held "$WORK/held.wav" 600
wait_for_loopback_capture
start_serve hub "${SYNTH_AUDIO_OPTIONS[@]}"
hub_pid=${PEER_PIDS[hub]}
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
assert_file_lacks "$(peer_err hub)" "no audio" "audio start"

step "the rule connects the controller; it holds A4, then is unplugged"
wait_for_controller_route "first plug"
amidi -p "hw:$CARD,0" -S "$A4_ON" || fail "amidi -S failed"
sleep 3
unplug_virmidi
wait_for_peer_line hub "$(peer_err hub)" "$RELEASED"
sleep 3
stop_peer held

step "the held note sounded, then the recording fell silent"
assert_recorded_a4 "$WORK/held.wav"
sound_length=$(soxi -D "$WORK/held.trimmed.wav")
awk -v s="$sound_length" 'BEGIN { exit !(s >= 1) }' || fail "the held note sounded only ${sound_length} s (expected it held until the unplug)"
# The last 1.5 s of the recording began about 1.5 s after the unplug had been logged.
sox "$WORK/held.wav" "$WORK/after-unplug.wav" trim -1.5 || fail "sox could not cut the end of held.wav"
sound_rms=$(rms_amplitude "$WORK/held.trimmed.wav")
silence_rms=$(rms_amplitude "$WORK/after-unplug.wav")
silence_peak=$(peak_amplitude "$WORK/after-unplug.wav")
awk -v s="$sound_rms" -v q="$silence_rms" -v p="$silence_peak" 'BEGIN { exit !(s > 0.005 && q * 100 < s && p < 0.001) }' \
    || fail "not silent after the unplug: RMS $silence_rms (peak $silence_peak) against $sound_rms while the note was held"

step "plug back: the route returns and a new note sounds"
plug_virmidi
wait_for_controller_route "replug"
assert_new_note_sounds replugged

step "20 unplug/plug cycles, each releasing a held note"
for cycle in $(seq 1 20); do
    amidi -p "hw:$CARD,0" -S "90 $(printf '%02X' $((40 + cycle))) 64" || fail "amidi -S failed"
    unplug_virmidi
    wait_for_line_count "$(peer_err hub)" "$RELEASED" $((cycle + 1))
    plug_virmidi
    wait_for_controller_route "cycle $cycle"
    if ((cycle == 2)); then fds_start=$(fd_count "$hub_pid"); rss_start=$(rss_kb "$hub_pid"); fi
done
fds_end=$(fd_count "$hub_pid"); rss_end=$(rss_kb "$hub_pid")
assert_eq "$fds_start" "$fds_end" "open fds after cycle 2 and after cycle 20"
((rss_end < rss_start + 4096)) || fail "RSS grew from $rss_start kB to $rss_end kB over 18 cycles"

step "after the last cycle a new note still sounds"
assert_new_note_sounds last
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
