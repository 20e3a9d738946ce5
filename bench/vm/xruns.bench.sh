# The xruns row, run in the VM by bench/run-vm (issue 41): a dense song, real-shaped (the
# bench's `game` shape: muted guitar, clavinet, slap bass and drums, about 20 notes a second;
# `midihub-bench --write-song`), played by aplaymidi for XRUN_SECONDS into a player in JACK
# (jackd -d dummy, 48 kHz, periods of 256 frames: on snd-aloop, whose period timer runs on
# the kernel's ticks in the VM, jackd reported about 80 xruns a second whatever played), while
# jack-xrun-count (bench/Sources/jack-xrun-count) counts the xruns the server reports:
# `midihub serve --audio jack` with a patch aplaymidi → soundfont → output, against
# `fluidsynth -a jack -m alsa_seq` with aplaymidi playing into it; the same font (FluidR3_GM),
# no reverb or chorus; each its own jackd.
# Writes $WORK/xruns.results, one line per player:
#   NAME xruns=N periods=N seconds=S   (NAME: hub, fluidsynth)
# Settings: XRUN_SECONDS (300), from .build-bench/vm-settings.env.
# timeout: 900

source "$REPO/Tests/Integration/serve.sh"
[[ -f $REPO/.build-bench/vm-settings.env ]] && source "$REPO/.build-bench/vm-settings.env"
XRUN_SECONDS=${XRUN_SECONDS:-300}
RESULTS_FILE=$WORK/xruns.results
COUNTER=$REPO/.build-bench/release/jack-xrun-count
BENCH=$REPO/.build-bench/release/midihub-bench
SOUNDFONT=/usr/share/sounds/sf2/FluidR3_GM.sf2
[[ -x $COUNTER && -x $BENCH ]] || fail "no jack-xrun-count or midihub-bench in $REPO/.build-bench/release (fix: run bench/run-vm, which builds them)"
[[ -f $SOUNDFONT ]] || fail "no $SOUNDFONT in the VM (fix: apt-get install fluid-soundfont-gm on the host)"
: >"$RESULTS_FILE"
export JACK_NO_START_SERVER=1 JACK_NO_AUDIO_RESERVATION=1  # no D-Bus in the VM
load_modules snd-seq
SONG=$("$BENCH" --write-song game "$WORK") || fail "midihub-bench --write-song game failed"

cat >"$WORK/patch.yaml" <<'YAML'
nodes:
  player: { source: 'app:"aplaymidi:*"' }
  gm: { instrument: midihub soundfont }
  out: { output: default }
routes:
  - player -> gm
  - gm -> out
YAML

start_jackd() {
    start_peer jackd jackd --no-realtime -t 10000 -d dummy -r 48000 -p 256
    wait_for "jackd answers" 60 jack_lsp
}

# Plays the song into PORT (a sequencer port) for XRUN_SECONDS while counting the server's
# xruns; appends "NAME <the counter's line>".
measure() { # NAME PORT
    step "$1: $XRUN_SECONDS s of the song"
    start_peer song aplaymidi -p "$2" "$SONG"
    "$COUNTER" "$XRUN_SECONDS" >"$WORK/count-$1.out" || fail "jack-xrun-count failed: $(cat "$WORK/count-$1.out")"
    stop_peer song KILL
    echo "$1 $(cat "$WORK/count-$1.out")" | tee -a "$RESULTS_FILE"
}

start_jackd
start_serve hub --audio jack --patch "$WORK/patch.yaml" --soundfont "$SOUNDFONT"
wait_for_peer_line hub "$(peer_err hub)" "playing into JACK as " 60
poll_until 60 bash -c "jack_lsp -c | grep -qx '   system:playback_1'" || fail "nothing feeds system:playback_1: $(jack_lsp -c | tr '\n' ' ')"
measure hub midihub:0
stop_peer hub
stop_peer jackd KILL  # jackd takes SIGINT slowly under emulation

start_jackd
start_peer fluid fluidsynth -si -a jack -m alsa_seq -R 0 -C 0 -o audio.jack.autoconnect=1 "$SOUNDFONT"
wait_for "FluidSynth in JACK" 120 bash -c "jack_lsp -c fluidsynth:left | grep -qx '   system:playback_1' && aconnect -l | grep -q \"^client [0-9]*: 'FLUID Synth\""
measure fluidsynth "$(client_number "FLUID Synth (${PEER_PIDS[fluid]})"):0"
stop_peer fluid KILL
stop_peer jackd KILL
