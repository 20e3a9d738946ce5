# The cc-frame rows, run in the VM by bench/run-vm: on snd-dummy, a sound card that takes
# audio at real-time pace, the benchmark binary plays a frame probe through the daemon's
# render path and pushes note + controller pairs as the daemon's MIDI thread does
# (bench/Sources/midihub-bench/ControllerFrameProbe.swift), at periods of 64, 256 and 1024
# frames; then the same with each move sent as a remote's widgets.set, over a WebSocket and
# over the control socket (RemoteFrameProbe.swift), at 256 frames. Writes
# $WORK/cc-frame.results, one line per period and one per remote path:
#   period-P period=P pairs=N max_delta=FRAMES median_delta=FRAMES mean_offset=FRAMES
#   remote-ws ... and remote-socket ...   (the same keys)
# timeout: 300

BENCH=$REPO/.build-bench/release/midihub-bench
[[ -x $BENCH ]] || fail "no midihub-bench at $BENCH (fix: run bench/run-vm, which builds it)"
load_modules snd-dummy
"$BENCH" --cc-frame-probe hw:Dummy "$WORK/cc-frame.results" || fail "the controller frame probe failed"
cat "$WORK/cc-frame.results"
