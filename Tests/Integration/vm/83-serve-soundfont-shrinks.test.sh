# Issue 28, kernel test: the SoundFont file shrinks under a running daemon. `midihub serve
# --soundfont` plays a copy of TimGM6mb to hw:Loopback,0,0 from a snd-virmidi controller;
# the copy is cut to its first 64 KiB (as an editor saving in place, or a package upgrade
# rewriting it, leaves it for a moment) while the daemon runs, and the controller then
# plays notes on sixteen programs, whose samples lie past the cut. Mapped, those pages
# would raise SIGBUS and kill the daemon; it plays silence there, logs one line naming
# the font, and goes on: it answers requests and stops cleanly.
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
load_modules snd-aloop snd-virmidi
[[ -r /usr/share/sounds/sf2/TimGM6mb.sf2 ]] || fail "no TimGM6mb SoundFont (fix: scripts/install-deps installs timgm6mb-soundfont)"
cp /usr/share/sounds/sf2/TimGM6mb.sf2 "$WORK/font.sf2" || fail "cannot copy the font"

start_serve hub --device hw:Loopback,0,0 --soundfont "$WORK/font.sf2"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
wait_for_controller_route "the controller"

# A note on each of sixteen programs spread over the font (8 apart), each 0.2 s.
play_programs() {
    local program
    for program in $(seq 0 8 127); do
        amidi -p "hw:$CARD,0" -S "$(printf 'C0 %02X 90 45 64' "$program")" || fail "amidi -S failed"
        sleep 0.2
        amidi -p "hw:$CARD,0" -S '80 45 00' || fail "amidi -S failed"
    done
}

step "the font plays whole"
play_programs
assert_file_lacks "$(peer_err hub)" "changed on disk" "no change reported before the cut"

step "the font cut to 64 KiB under the running daemon"
truncate -s 65536 "$WORK/font.sf2" || fail "truncate failed"
play_programs
wait_for_peer_line hub "$(peer_err hub)" "the SoundFont $WORK/font.sf2 changed on disk while in use: .*\(fix: " 20
assert_eq 1 "$(grep -c 'changed on disk' "$(peer_err hub)")" "the change is logged once"
midihub nodes --json >"$WORK/nodes.json" || fail "midihub nodes --json failed after the cut: the daemon is gone"
assert_eq "midihub soundfont" "$(jq -r '.[] | select(.id == "synth") | .name' "$WORK/nodes.json")" \
    "the SoundFont instrument still in place"
play_programs
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT (no SIGBUS: 135)"
