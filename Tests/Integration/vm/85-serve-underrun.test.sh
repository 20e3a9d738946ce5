# Issue 28, kernel test: an underrun caused for real. `midihub serve` plays the built-in
# synth to hw:Loopback,0,0 (recorded from hw:Loopback,1,0) from a snd-virmidi controller.
# Between two flute notes, busy loops at SCHED_FIFO 99 — above the render thread's
# priority, one pinned to each of the VM's CPUs (vng gives it as many as the host has) —
# take every processor for two seconds: the device runs dry.
# The daemon logs the underruns once (how many, on which device), keeps playing, and the
# second note sounds A4 in the recording.
# timeout: 300

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
source "$REPO/Tests/Integration/serve-audio.sh"
load_modules snd-aloop snd-virmidi

start_loopback_recording rec "$WORK/recorded.wav" 120
wait_for_loopback_capture
start_serve hub "${SYNTH_AUDIO_OPTIONS[@]}"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
wait_for_controller_route "the controller"

flute_a4() { # SECONDS
    amidi -p "hw:$CARD,0" -S 'C0 49 90 45 64' || fail "amidi -S failed"
    sleep "$1"
    amidi -p "hw:$CARD,0" -S '80 45 00' || fail "amidi -S failed"
}

step "a note before the stall"
flute_a4 2
sleep 1

step "busy loops at SCHED_FIFO 99 take every CPU for two seconds"
busy_loops=()
for ((cpu = 0; cpu < $(nproc); cpu++)); do
    taskset -c "$cpu" chrt -f 99 python3 -c 'import time
end = time.monotonic() + 2
while time.monotonic() < end: pass' &
    busy_loops+=($!)
done
for loop in "${busy_loops[@]}"; do
    wait "$loop" || fail "a busy loop (taskset, chrt -f 99) failed"
done
wait_for_peer_line hub "$(peer_err hub)" "audio: [0-9]+ underruns on hw:Loopback,0,0 \(the render thread fell behind the device; [0-9]+ since it opened\); the sound goes on" 20

step "the sound comes back"
sleep 1
flute_a4 2
sleep 1
midihub nodes --json >/dev/null || fail "midihub nodes failed after the stall"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer rec
sound_segments "$WORK/recorded.wav" 1 >"$WORK/segments.txt"
cat "$WORK/segments.txt"
mapfile -t segments <"$WORK/segments.txt"
((${#segments[@]} >= 2)) || fail "the recording should hold the note before the stall and the one after: segments ${segments[*]}"
assert_segment_a4 "$WORK/recorded.wav" ${segments[-1]} after-stall
