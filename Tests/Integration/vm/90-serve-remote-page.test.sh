# Issue 26, kernel test: the web remote in a real browser. The daemon serves
# patches/controller-knobs.yaml (the controller → the synth → hw:Loopback,0,0, recorded from
# hw:Loopback,1,0) with `--remote 127.0.0.1:8080`; `midihub remote --json` gives the URL with
# its token. Headless Chromium, driven by chromium-driver and Selenium
# (Tests/Integration/remote_page.py), opens the page in two tabs — two clients, two
# WebSockets — and: a page without the token (or with a wrong one) gets 401; a WebSocket from
# a foreign Origin is refused; the Filter slider dragged to its left end in the first page
# moves synth.brightness to −48 (nodes.list) and the second page shows it; the panic pad
# fires panic; the synth's osc1 wave chips set it by name (saw: 3 in nodes.list, lit in the other page); the chorus scene button switches the scene (the other page shows its Filter
# value); a song loaded and played from the page advances the position. The controller plays
# A3 before and after the slider's move: the second note has far less sound above 2 kHz.
# Screenshots of each state are kept in .build/vm-results/work/90-serve-remote-page/shots.
# timeout: 900

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
source "$REPO/Tests/Integration/serve-audio.sh"

command -v chromedriver >/dev/null || fail "no chromedriver (fix: scripts/install-deps installs chromium-driver)"
/usr/bin/python3 -c 'import selenium' 2>/dev/null || fail "no Selenium for python3 (fix: scripts/install-deps installs python3-selenium)"
export TMPDIR=/dev/shm HOME=/dev/shm/home
mkdir -p "$HOME"

load_modules snd-aloop snd-virmidi
card=$(card_number VirMIDI)
start_loopback_recording rec "$WORK/recorded.wav" 880
wait_for_loopback_capture
start_serve hub --patch "$REPO/patches/controller-knobs.yaml" --device hw:Loopback,0,0 --period 1024 --buffer 4096 \
    --remote 127.0.0.1:8080
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
wait_for_controller_route "the controller"

step "midihub remote --json gives the URL with the token"
midihub remote --json >"$WORK/remote.json" || fail "midihub remote --json failed"
url=$(jq -r .url "$WORK/remote.json")
token=$(cat "$WORK/remote-token") || fail "no token file beside the state ($WORK/remote-token)"
assert_eq "http://127.0.0.1:8080/?token=$token" "$url" "the URL midihub remote prints"
assert_eq 600 "$(stat -c %a "$WORK/remote-token")" "the token file's mode"
assert_file_lacks "$(peer_err hub)" "$token" "the daemon's log shows the token"

step "the synth at +12 dB, so both notes stand out of the recording"
echo '{"id":1,"request":"parameters.set","params":{"node":"synth","parameter":"master gain","value":12}}' \
    | socat -t 5 - "UNIX-CONNECT:$SERVE_SOCKET" >"$WORK/gain.out" || fail "parameters.set master gain failed"
assert_file_has "$WORK/gain.out" '"ok":true' "the synth's master gain set to 12 dB"

step "the page in a real browser, two tabs"
/usr/bin/python3 -u "$REPO/Tests/Integration/remote_page.py" "$url" "$SERVE_SOCKET" "hw:$card,0" "$WORK/shots" \
    "$REPO/sequences/little-song.mid" >"$WORK/browser.log" 2>&1
browser=$?
cat "$WORK/browser.log"
assert_eq 0 "$browser" "the browser checks' exit status (see browser.log)"
assert_file_lacks "$(peer_err hub)" "$token" "the daemon's log shows the token"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer rec

step "the note after the slider's move has far less of its sound above 2 kHz"
read -r open closed < <(first_two_high_shares "$WORK/recorded.wav")
echo "share above 2 kHz: Filter before $open, at its left end $closed"
awk -v o="$open" -v c="$closed" 'BEGIN { exit !(o > 0.001 && c < o / 3) }' \
    || fail "the slider did not change the sound: share above 2 kHz $open before, $closed after"
