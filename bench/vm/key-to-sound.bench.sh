# The key-to-sound rows, run in the VM by bench/run-vm (issue 41): a note-on written to a
# snd-virmidi keyboard's raw MIDI port, as a USB keyboard's driver delivers it, timed to its
# onset in what the player plays by key-to-sound-probe (bench/Sources/key-to-sound-probe).
# Both players play the same font (FluidR3_GM, the organ: no attack ramp) with no reverb or
# chorus, at the same settings:
#   - in JACK (jackd -d dummy, 48 kHz, periods of 64, then of 256 frames): `midihub serve
#     --audio jack` with a patch keyboard → soundfont → output, against `fluidsynth -a jack
#     -m alsa_seq` with the keyboard connected to it; the probe listens at the player's left
#     port as a JACK client and adds the server's playback latency. Not on snd-aloop: its
#     period timer runs on the kernel's ticks (4 ms in the VM), and jackd on it at these
#     periods reported about 80 xruns a second whichever player ran (and ran one period in a
#     hundred), so nearly every note was lost;
#   - on ALSA PCM (snd-aloop's hw:Loopback,0,0, captured from hw:Loopback,1,0; 4 periods of
#     256 frames): `midihub serve --device … --period 256 --buffer 1024` against
#     `fluidsynth -a alsa` with the same period and periods.
# Writes $WORK/key-to-sound.results, one line per run:
#   NAME p50=MS avg=MS sd=MS low=MS high=MS timed=N lost=N not_quiet=N sent=N overruns=N [jack_xruns=N]
#   (jack_xruns: the xruns jackd reported from its start, the player's included, until the notes
#   were timed, from jack-xrun-count)
#   (NAME: hub-jack-64 fluidsynth-jack-64 hub-jack-256 fluidsynth-jack-256 hub-alsa fluidsynth-alsa)
# Settings: KEY_TO_SOUND_NOTES (100 a run, about 0.6 s each), from .build-bench/vm-settings.env.
# timeout: 900

source "$REPO/Tests/Integration/serve.sh"
[[ -f $REPO/.build-bench/vm-settings.env ]] && source "$REPO/.build-bench/vm-settings.env"
source "$REPO/Tests/Integration/synth-audio.sh"
KEY_TO_SOUND_NOTES=${KEY_TO_SOUND_NOTES:-100}
RESULTS_FILE=$WORK/key-to-sound.results
PROBE=$REPO/.build-bench/release/key-to-sound-probe
COUNTER=$REPO/.build-bench/release/jack-xrun-count
SOUNDFONT=/usr/share/sounds/sf2/FluidR3_GM.sf2
[[ -x $PROBE && -x $COUNTER ]] || fail "no key-to-sound-probe or jack-xrun-count in $REPO/.build-bench/release (fix: run bench/run-vm, which builds it)"
[[ -f $SOUNDFONT ]] || fail "no $SOUNDFONT in the VM (fix: apt-get install fluid-soundfont-gm on the host)"
: >"$RESULTS_FILE"
export JACK_NO_START_SERVER=1 JACK_NO_AUDIO_RESERVATION=1  # no D-Bus in the VM
load_modules snd-virmidi snd-aloop
card=$(card_number VirMIDI)
KEYBOARD="Virtual Raw MIDI $card-0"

cat >"$WORK/patch.yaml" <<'YAML'
nodes:
  keys: { source: hardware:* }
  gm: { instrument: midihub soundfont }
  out: { output: default }
routes:
  - keys -> gm
  - gm -> out
rules:
  - connect hardware:* -> "midihub:in"
YAML

# Runs key-to-sound-probe around a player, listening at EARS (the loopback's capture, or
# jack:PORT): the probe holds the card to its format first (a player opening the loopback's
# other side must take the capture's), or waits for the JACK port; PLAYER... starts the
# player and waits until the keyboard reaches it and its sound leaves it; then the notes.
measure() { # NAME EARS PLAYER...
    local name=$1 ears=$2
    shift 2
    step "$name: $KEY_TO_SOUND_NOTES notes, keyboard → sound"
    rm -f "$WORK/go"
    start_peer "probe-$name" "$PROBE" "hw:$card,0" "$ears" "$KEY_TO_SOUND_NOTES" "$WORK/go"
    [[ $ears == jack:* ]] || wait_for_loopback_capture
    "$@"
    sleep 2  # the player's first periods (a JACK client's graph settles, a font's first use)
    touch "$WORK/go"
    wait_for_peer_line "probe-$name" "$(peer_out "probe-$name")" '^p50=' 600
    local xruns=""
    if [[ -n ${PEER_PIDS[count]:-} ]]; then
        stop_peer count
        xruns=" jack_$(cut -d' ' -f1 "$(peer_out count)")"
    fi
    echo "$name $(cat "$(peer_out "probe-$name")")$xruns" | tee -a "$RESULTS_FILE"
    stop_peer "probe-$name"
}

keyboard_reaches() { # CLIENT_NAME
    wait_for "$KEYBOARD -> $1" 60 bash -c "aconnect -l | grep -A3 \"'$KEYBOARD'\" | grep -q \"Connecting To: .*$(client_number "$1"):0\""
}

# jackd, and jack-xrun-count as peer "count" until the run's notes are timed.
start_jackd() { # FRAMES
    start_peer jackd jackd --no-realtime -t 10000 -d dummy -r 48000 -p "$1"
    wait_for "jackd answers" 60 jack_lsp
    start_peer count "$COUNTER"
}

feeds_playback() { # JACK_PORT
    poll_until 60 bash -c "jack_lsp -c $1 | grep -qx '   system:playback_1'" \
        || fail "$1 does not feed system:playback_1; jack_lsp -c: $(jack_lsp -c | tr '\n' ' ')"
}

# The hub's audio client is `midihub`, or `midihub-NN` when its JACK MIDI bridge took the
# name first. With the server running when the hub starts, its audio joins first and is
# `midihub` (docs/jack.md's "playing into JACK as midihub:left"); the probe listens there,
# and the run fails (no such line within 60 s) if the hub took another name.
hub_in_jack() {
    start_serve hub --audio jack --patch "$WORK/patch.yaml" --soundfont "$SOUNDFONT"
    wait_for_peer_line hub "$(peer_err hub)" "playing into JACK as midihub:left" 60
    feeds_playback midihub:left
    keyboard_reaches midihub
}

fluidsynth_in_jack() {
    start_peer fluid fluidsynth -si -a jack -m alsa_seq -R 0 -C 0 -o audio.jack.autoconnect=1 "$SOUNDFONT"
    wait_for "FluidSynth in JACK" 120 bash -c "jack_lsp | grep -qx fluidsynth:left && aconnect -l | grep -q \"^client [0-9]*: 'FLUID Synth\""
    feeds_playback fluidsynth:left
    aconnect "$KEYBOARD" "$(client_number "FLUID Synth (${PEER_PIDS[fluid]})"):0" || fail "aconnect $KEYBOARD → FluidSynth failed"
}

hub_on_alsa() {
    start_serve hub --device hw:Loopback,0,0 --period 256 --buffer 1024 --patch "$WORK/patch.yaml" --soundfont "$SOUNDFONT"
    wait_for_peer_line hub "$(peer_err hub)" "audio: playing to hw:Loopback,0,0" 60
    keyboard_reaches midihub
}

fluidsynth_on_alsa() {
    start_peer fluid fluidsynth -si -a alsa -m alsa_seq -R 0 -C 0 -o audio.alsa.device=hw:Loopback,0,0 \
        -o audio.period-size=256 -o audio.periods=4 "$SOUNDFONT"
    wait_for "FluidSynth on ALSA" 120 bash -c "aconnect -l | grep -q \"^client [0-9]*: 'FLUID Synth\""
    aconnect "$KEYBOARD" "$(client_number "FLUID Synth (${PEER_PIDS[fluid]})"):0" || fail "aconnect $KEYBOARD → FluidSynth failed"
}

for frames in 64 256; do
    start_jackd "$frames"
    measure "hub-jack-$frames" jack:midihub:left hub_in_jack
    stop_peer hub
    stop_peer jackd KILL  # jackd takes SIGINT slowly under emulation
    start_jackd "$frames"
    measure "fluidsynth-jack-$frames" jack:fluidsynth:left fluidsynth_in_jack
    stop_peer fluid KILL
    stop_peer jackd KILL
done
measure hub-alsa hw:Loopback,1,0 hub_on_alsa
stop_peer hub
measure fluidsynth-alsa hw:Loopback,1,0 fluidsynth_on_alsa
stop_peer fluid KILL
