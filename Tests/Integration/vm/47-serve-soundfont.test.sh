# Issue 10, kernel test: `midihub serve` with no patch, no state and no instrument option
# plays the installed General MIDI SoundFont (the font `render` and `play` choose) through
# its embedded default. A snd-virmidi "controller" picks the flute (GM 74) and plays A4
# for 3 s into the rule's route; the daemon's audio on hw:Loopback,0,0 is recorded from
# hw:Loopback,1,0. The daemon names the font in its log, `midihub nodes --json` lists its
# `synth` node as the SoundFont instrument, and the recording sounds A4 (440 Hz).
# timeout: 600

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
source "$REPO/Tests/Integration/serve-audio.sh"
load_modules snd-aloop snd-virmidi
[[ -r /usr/share/sounds/sf2/FluidR3_GM.sf2 ]] || fail "no General MIDI SoundFont (fix: scripts/install-deps installs fluid-soundfont-gm)"

start_loopback_recording rec "$WORK/recorded.wav" 590
wait_for_loopback_capture
start_serve hub --device hw:Loopback,0,0 --period 1024 --buffer 4096
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60

step "the daemon chose the installed SoundFont"
assert_file_has "$(peer_err hub)" "SoundFont: /usr/share/sounds/sf2/.*\.sf2 \(.*, [0-9]+ presets\)" "the font in the log"
assert_file_has "$(peer_err hub)" "every hardware MIDI input plays the SoundFont " "the default setup's instrument"
midihub nodes --json >"$WORK/nodes.json" || fail "midihub nodes --json failed"
assert_eq "midihub soundfont" "$(jq -r '.[] | select(.id == "synth") | .name' "$WORK/nodes.json")" \
    "the synth node's type in midihub nodes --json"

step "the controller plays A4 on the flute"
wait_for_controller_route "the controller"
play_flute_a4 "$CARD"
sleep 5
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer rec

step "the recording sounds A4"
sound_segments "$WORK/recorded.wav" 2 >"$WORK/segments.txt"
mapfile -t segments <"$WORK/segments.txt"
((${#segments[@]} >= 1)) || fail "the recording is silent"
assert_segment_a4 "$WORK/recorded.wav" ${segments[0]} flute
