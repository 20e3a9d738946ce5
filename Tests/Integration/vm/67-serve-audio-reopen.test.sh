# Issue 9, kernel test: the daemon's sound card goes away and comes back while MIDI flows.
# `midihub serve` plays the built-in synth to hw:Loopback,0,0 and routes a snd-virmidi
# controller to it and to aseqdump. The loopback card is unbound (a USB card unplugged):
# the daemon logs `audio stopped: …; opening the device again`, the reopening fails on a
# worker and is retried every 5 s (logged once), and MIDI goes on meanwhile (a note reaches aseqdump). The
# card is bound again: the daemon plays to it again, and a note sounds in a new recording.
# timeout: 600

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
load_modules snd-aloop
start_controller_and_dump
cat >"$WORK/reopen.yaml" <<'YAML'
nodes:
  keys: { source: hardware:* }
  synth: { instrument: midihub synth }
  dump: { external: '"aseqdump"' }
routes:
  - keys -> synth
  - keys -> dump
rules:
  - connect hardware:* -> "midihub:in"
YAML

start_serve hub --patch "$WORK/reopen.yaml" "${SYNTH_AUDIO_OPTIONS[@]}"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
hub=$(client_number midihub)
wait_for_controller_route "the rule"

step "the loopback card unplugged: one line, and MIDI goes on while the device is away"
echo snd_aloop.0 >/sys/bus/platform/drivers/snd_aloop/unbind || fail "cannot unbind snd_aloop.0"
wait_for_peer_line hub "$(peer_err hub)" "midihub: error: audio stopped: .*; opening the device again" 60
wait_for_peer_line hub "$(peer_err hub)" "midihub: warning: cannot open the audio device again: .*; retrying every 5 s" 60
amidi -p "hw:$CARD,0" -S '90 40 64 80 40 00' || fail "amidi -S failed"
wait_for_line "$dump" "^ *$hub:1 +Note on +0, note 64, velocity 100$"

step "the card back: the daemon plays to it again"
sleep 6  # past a retry: the same failure is not logged again
assert_eq 1 "$(grep -c 'cannot open the audio device again' "$(peer_err hub)")" "lines for the failing reopen"
echo snd_aloop.0 >/sys/bus/platform/drivers/snd_aloop/bind || fail "cannot bind snd_aloop.0"
wait_for "the daemon playing to the card again" 60 bash -c \
    "(( \$(grep -c 'midihub: audio: playing to hw:Loopback,0,0' '$(peer_err hub)') >= 2 ))"
# plughw: the daemon chose the card's format (FLOAT_LE) before anyone recorded.
start_peer rec arecord -q -D plughw:Loopback,1,0 -f S16_LE -r 48000 -c 2 -d 4 "$WORK/after.wav"
sleep 1
amidi -p "hw:$CARD,0" -S 'C0 49 90 45 64' || fail "amidi -S failed"
sleep 2
amidi -p "hw:$CARD,0" -S '80 45 00' || fail "amidi -S failed"
wait_peer rec 30
peak=$(peak_amplitude "$WORK/after.wav")
awk -v p="$peak" 'BEGIN { exit !(p > 0.01) }' || fail "no sound recorded after the card came back (peak $peak)"

stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
