# Issue 12, kernel test: recording what the daemon plays. `midihub serve --instrument synth`
# plays to hw:Loopback,0,0; `midihub record take.wav --seconds 16` records the daemon's sound
# while `midihub play` has the daemon's transport play sequences/c-major-scale.mid. The take
# is a whole WAV of about 16 s (the song lasts 12 s; `midihub play` takes seconds to start
# under emulation), and its loudness envelope (50 ms windows) follows the
# offline render of the same song through the same synth (`midihub render --instrument
# synth`): correlation above 0.9 at the best alignment. Then, with a patch whose synth
# plays into a muted strip (the master silent), `--node synth` records the synth's own
# sound, which follows the render too; a node that makes no sound and an unknown node are
# refused with one line, exit 2; the patch's trigger `unmute: { bypass: strip }` takes the
# strip out of the chain, and the master's recording follows the render; the strip removed
# at runtime, the trigger is disabled and firing it is refused. A daemon without audio refuses with one line, exit 2, and
# writes nothing.
# timeout: 600

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"

# Fails unless TAKE's loudness envelope (50 ms windows) follows RENDER's: correlation above
# 0.9 at the best alignment.
assert_follows_render() { # TAKE RENDER
    python3 - "$1" "$2" <<'PY' || fail "$(basename "$1") does not follow the render"
import sys, wave, warnings
warnings.simplefilter("ignore", DeprecationWarning)
import audioop
def envelope(path):
    with wave.open(path) as w:
        rate, width, channels = w.getframerate(), w.getsampwidth(), w.getnchannels()
        data = w.readframes(w.getnframes())
    if width != 2:
        data = audioop.lin2lin(data, width, 2)
    mono = audioop.tomono(data, 2, 0.5, 0.5) if channels == 2 else data
    window = rate // 20 * 2
    return [audioop.rms(mono[i:i + window], 2) for i in range(0, len(mono) - window + 1, window)]
take, render = envelope(sys.argv[1]), envelope(sys.argv[2])
def correlation(a, b):
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    sa = sum((x - ma) ** 2 for x in a) ** 0.5
    sb = sum((y - mb) ** 2 for y in b) ** 0.5
    return sum((x - ma) * (y - mb) for x, y in zip(a, b)) / (sa * sb) if sa and sb else 0
# The song starts in the take when `midihub play` got it there: try every alignment that
# keeps at least three quarters of the render.
best = (0.0, 0)
for lag in range(len(take)):
    n = min(len(render), len(take) - lag)
    if n < len(render) * 3 // 4:
        break
    best = max(best, (correlation(take[lag:lag + n], render[:n]), lag))
def onset(envelope):
    loud = max(envelope) / 10
    return next((i * 50 for i, level in enumerate(envelope) if level > loud), None)
print(f"best correlation {best[0]:.3f} at {best[1] * 50} ms (sound from {onset(take)} ms in the take, "
      f"{onset(render)} ms in the render; {len(take) * 50} and {len(render) * 50} ms long)")
sys.exit(0 if best[0] > 0.9 else 1)
PY
}

load_modules snd-aloop snd-seq-dummy
# The capture side holds the loopback at S16_LE before the daemon opens playback.
start_loopback_recording loop "$WORK/loop.wav" 500
wait_for_loopback_capture
start_serve hub "${SYNTH_AUDIO_OPTIONS[@]}" --instrument synth
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60

step "record the daemon's sound while its transport plays the scale"
start_peer take midihub record "$WORK/take.wav" --seconds 16
wait_for_peer_line take "$(peer_err take)" "^midihub: recording the daemon's sound to .*take.wav \(Ctrl-C ends it\)$" 30
midihub play "$REPO/sequences/c-major-scale.mid" 2>"$WORK/play.err" || fail "midihub play through the daemon failed: $(head -c 400 "$WORK/play.err")"
wait_peer take 60
assert_eq 0 "$PEER_STATUS" "midihub record take.wav exit status"
assert_file_has "$(peer_err take)" "^midihub: recorded 0:1[56]\.[0-9] of the daemon's sound to .*take.wav$" "the summary line"
assert_file_has "$(peer_err hub)" "recorded 1[56]\.[0-9] s of audio to $WORK/take.wav$" "the daemon's log"
seconds=$(sox --i -D "$WORK/take.wav") || fail "sox cannot read the take"
python3 -c "import sys; sys.exit(0 if 15 <= float(sys.argv[1]) <= 17 else 1)" "$seconds" || fail "the take lasts $seconds s"
ls -a "$WORK" | grep -q 'partial' && fail "a partial file was left: $(ls -a "$WORK")"

step "the take follows the offline render of the same song"
midihub render "$REPO/sequences/c-major-scale.mid" -o "$WORK/render.wav" --instrument synth \
    --preset-bank "$REPO/patches/presets" 2>"$WORK/render.err" || fail "midihub render failed: $(head -c 400 "$WORK/render.err")"
assert_follows_render "$WORK/take.wav" "$WORK/render.wav"

step "--node records one node's sound: the synth behind a muted strip"
cat >"$WORK/muted.yaml" <<'YAML'
version: 1
name: synth into a muted strip
nodes:
  keys: { source: "*" }
  synth: { instrument: midihub synth }
  strip: { effect: mixer strip, parameters: { mute: 1 } }
  out: { output: default }
routes:
  - keys -> synth
  - synth -> strip
  - strip -> out
triggers:
  unmute: { bypass: strip }
YAML
midihub patch load "$WORK/muted.yaml" >/dev/null 2>"$WORK/err" || fail "patch load failed: $(head -c 400 "$WORK/err")"
start_peer node midihub record "$WORK/node.wav" --node synth --seconds 16
wait_for_peer_line node "$(peer_err node)" "^midihub: recording node 'synth' to .*node.wav \(Ctrl-C ends it\)$" 30
midihub play "$REPO/sequences/c-major-scale.mid" 2>"$WORK/play.err" || fail "midihub play through the daemon failed: $(head -c 400 "$WORK/play.err")"
wait_peer node 60
assert_eq 0 "$PEER_STATUS" "midihub record --node synth exit status"
assert_file_has "$(peer_err node)" "^midihub: recorded 0:1[56]\.[0-9] of node 'synth' to .*node.wav$" "the summary line"
assert_follows_render "$WORK/node.wav" "$WORK/render.wav"
assert_exit 2 midihub record "$WORK/keys.wav" --node keys --seconds 1
assert_one_line_error "^midihub: node 'keys' \(source\) makes no sound to record \(fix: name an instrument, an effect or a strip: synth, strip\)$"
assert_exit 2 midihub record "$WORK/none.wav" --node nosuch --seconds 1
assert_one_line_error "^midihub: no node 'nosuch' \(fix: "
[[ ! -e $WORK/keys.wav && ! -e $WORK/none.wav ]] || fail "a refused recording left a file: $(ls "$WORK")"

step "a bypass trigger takes the muted strip out of the chain: the master hears the synth"
midihub trigger unmute >/dev/null 2>"$WORK/err" || fail "midihub trigger unmute: $(head -c 400 "$WORK/err")"
assert_match "^unmute: bypass strip \(selected\)$" "$(midihub trigger | grep '^unmute:')" "the trigger is selected while the strip is bypassed"
start_peer bypassed midihub record "$WORK/bypassed.wav" --seconds 16
wait_for_peer_line bypassed "$(peer_err bypassed)" "^midihub: recording the daemon's sound to " 30
midihub play "$REPO/sequences/c-major-scale.mid" 2>"$WORK/play.err" || fail "midihub play through the daemon failed: $(head -c 400 "$WORK/play.err")"
wait_peer bypassed 60
assert_eq 0 "$PEER_STATUS" "midihub record bypassed.wav exit status"
assert_follows_render "$WORK/bypassed.wav" "$WORK/render.wav"
control_requests '{"id":1,"request":"nodes.remove","params":{"node":"strip"}}' >"$WORK/remove.out"
assert_match "^unmute: bypass strip \(disabled\)$" "$(midihub trigger | grep '^unmute:')" "the trigger is disabled once its strip is removed"
assert_exit 2 midihub trigger unmute
assert_one_line_error "^midihub: trigger 'unmute' is disabled: the patch's effect 'strip' is gone \(fix: "
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"

step "a daemon without audio refuses, one line, exit 2, nothing written"
start_serve quiet --no-audio
assert_exit 2 midihub record "$WORK/none.wav" --seconds 1
assert_one_line_error "^midihub: the daemon plays no audio to record \(fix: "
[[ ! -e $WORK/none.wav ]] || fail "none.wav was written"
