# Issue 30, kernel test: CC 74 learned onto the SoundFont instrument's `cutoff` changes the
# sound. The daemon plays its embedded default (every hardware input → the installed GM
# SoundFont) to hw:Loopback,0,0, recorded from hw:Loopback,1,0. A control client arms learn
# on `synth.cutoff`; the snd-virmidi "controller" moves CC 74 and the daemon answers
# `mapping-learned` (cc 74, the cutoff's whole range, −120…120 semitones). Then the
# controller plays a square lead's A3 twice: with CC 74 at 127 and at 40 (about 44 semitones
# down, where the 440 Hz cutoff's harmonics fall away). The share of the sound above 2 kHz
# of the second note is well under the first's, and `nodes --json` shows the cutoff moved.
# timeout: 600

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
source "$REPO/Tests/Integration/serve-audio.sh"

send() { # HEX: to the controller's port
    amidi -p "hw:$CARD,0" -S "$1" || fail "amidi -S '$1' failed"
}

[[ -r /usr/share/sounds/sf2/FluidR3_GM.sf2 ]] || fail "no General MIDI SoundFont (fix: scripts/install-deps installs fluid-soundfont-gm)"
load_modules snd-aloop snd-virmidi
start_loopback_recording rec "$WORK/recorded.wav" 590
wait_for_loopback_capture
start_serve hub --device hw:Loopback,0,0 --period 1024 --buffer 4096
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
wait_for_controller_route "the controller"

step "learn: CC 74 onto synth.cutoff"
start_peer learn bash -c "{ echo '{\"id\":1,\"request\":\"subscribe\",\"params\":{\"events\":[\"mapping-learned\"]}}'; \
    echo '{\"id\":2,\"request\":\"learn\",\"params\":{\"node\":\"synth\",\"parameter\":\"cutoff\",\"seconds\":60}}'; sleep 60; } \
    | socat -t 5 - UNIX-CONNECT:$SERVE_SOCKET"
wait_for_line "$(peer_out learn)" '"id":2,"ok":true'
send 'B0 4A 40'
wait_for_line "$(peer_out learn)" '"event":"mapping-learned"' 20
assert_file_has "$(peer_out learn)" '"control":"cc 74".*"high":120.*"low":-120.*"parameter":"cutoff"' "the learned mapping: cc 74 over the cutoff's range"
# KILL: SIGINT would reach only the pipeline's bash, which waits for its sleep, and
# stop_peer would wait 30 s before killing it anyway.
stop_peer learn KILL

step "a square lead's A3 with CC 74 at 127, then at 40"
send 'C0 50'
send 'B0 4A 7F'
sleep 0.5
send '90 39 64'
sleep 2
send '80 39 00'
sleep 2
send 'B0 4A 28'
sleep 0.5
midihub nodes --json >"$WORK/nodes.json" || fail "midihub nodes --json failed"
cutoff=$(jq -r '.[] | select(.id == "synth") | .parameters[] | select(.name == "cutoff") | .value' "$WORK/nodes.json")
awk -v c="$cutoff" 'BEGIN { exit !(c < -40 && c > -50) }' || fail "nodes.list: the cutoff at CC 74 = 40 is $cutoff semitones, not about -44"
send '90 39 64'
sleep 2
send '80 39 00'
sleep 3
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer rec

step "the second note has far less of its sound above 2 kHz"
read -r open closed < <(first_two_high_shares "$WORK/recorded.wav" 2)
echo "share above 2 kHz: CC 74 at 127 $open, at 40 $closed"
awk -v o="$open" -v c="$closed" 'BEGIN { exit !(o > 0.01 && c < o / 10) }' \
    || fail "the cutoff did not change the spectrum: share above 2 kHz $open at CC 74 = 127, $closed at 40"
