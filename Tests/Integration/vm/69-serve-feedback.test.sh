# Issue 11, kernel test: feedback to a controller's lights, ring and motor fader.
# `midihub serve` runs docs/mappings.md's feedback patch with a snd-virmidi card as the
# control surface (its first port for "X-Touch*"); amidi -d reads what the surface is sent.
# At start it is shown every value; a level set over the control socket moves the motor
# fader (pitch bend); the fader's own move changes the level and is not echoed; the
# encoder's own turn updates its ring; a toggle's press lights its button; the tap tempo
# pad lights while it waits for the next tap; unplugged and plugged back, the surface is
# shown every value again and its fader still moves the level; a sweep of the level set
# 1,000 times over the socket reaches the fader at most every 20 ms, ending on its value.
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-control.sh"
load_modules snd-virmidi
card=$(card_number VirMIDI)

doc_block docs/mappings.md feedback-patch | sed 's/X-Touch\*/Virtual Raw MIDI*-0/g' >"$WORK/feedback.yaml"
assert_file_has "$WORK/feedback.yaml" 'source: .*Virtual Raw MIDI\*-0:\*' "the example's surface replaced"

# The value of TARGET (node.parameter) as `midihub mappings --json` shows it.
mapped_value() { # NODE PARAMETER
    midihub mappings --json | jq -r --arg node "$1" --arg parameter "$2" \
        '[.[].targets[] | select(.node == $node and .parameter == $parameter) | .value][0]'
}

# Fails unless the surface has been sent exactly BYTES (hex, one space apart) so far.
assert_sent() { # BYTES MESSAGE
    wait_for_bytes surface "$(wc -w <<<"$1")"
    assert_eq "$1" "$(hex_bytes "$(peer_out surface)")" "$2"
}

start_peer surface amidi -p "hw:$card,0" -d
wait_for_rawmidi_reader "$card" 0 "${PEER_PIDS[surface]}"
start_serve hub --no-audio --patch "$WORK/feedback.yaml"

step "at start the surface is shown every value: the fader at -10 dB, the light off, the ring centred, the pads dark"
# -10 dB over -60…12 is 11377 of 16383 (LSB 0x71, MSB 0x58); brightness 0 over -48…48 is 64.
# The kernel writes the raw bytes with running status: the second pad's note-off has no status byte.
shown="E0 71 58 80 10 00 B0 10 40 80 20 00 21 00"
assert_sent "$shown" "the first feedback"

step "the level set over the socket moves the motor fader"
control_ok '{"id":1,"request":"parameters.set","params":{"node":"synth","parameter":"master gain","value":12}}' >/dev/null
shown="$shown E0 7F 7F"
assert_sent "$shown" "the fader sent to the top"

step "the fader's own move sets the level and is not echoed"
amidi -p "hw:$card,0" -S 'E0 00 40' || fail "amidi -S failed"
# The centre (8192 of 16383) over -60…12 dB: -23.998 dB.
poll_until 10 bash -c "[[ \$(midihub mappings --json | jq -r '.[0].targets[0].value' | cut -c1-6) == -23.99 ]]" \
    || fail "the level should follow the fader to -23.998, is $(mapped_value synth 'master gain')"
sleep 1
assert_eq "$shown" "$(hex_bytes "$(peer_out surface)")" "nothing sent back for the fader's own move"

step "the encoder's own turn (8 ticks down) updates its ring; the toggle lights its button"
amidi -p "hw:$card,0" -S 'B0 10 48' || fail "amidi -S failed"
# brightness 0 - 8/128 of 96 = -6, at 0.4375 of the ring: 56 (0x38).
shown="$shown B0 10 38"
assert_sent "$shown" "the ring after the encoder's turn"
assert_eq -6 "$(mapped_value synth brightness)" "the brightness after 8 ticks down"
amidi -p "hw:$card,0" -S '90 10 7F 80 10 00' || fail "amidi -S failed"
shown="$shown 90 10 7F"
assert_sent "$shown" "the button's light after its toggle"
assert_eq 100 "$(mapped_value synth vibrato)" "the vibrato after the toggle"

step "the tap tempo pad lights while it waits for the next tap, and goes dark after 2 s"
amidi -p "hw:$card,0" -S '90 21 7F 80 21 00' || fail "amidi -S failed"
# After the toggle's light (90 10 7F) the pad's note-on comes with running status: 21 7F.
lit() { [[ $(hex_bytes "$(peer_out surface)") == "$shown"*" 21 7F"* ]]; }
dark_again() { [[ $(hex_bytes "$(peer_out surface)") == "$shown"*" 21 7F"*" 80 21 00" ]]; }
wait_for "the pad lit" 10 lit
wait_for "the pad dark again" 10 dark_again

step "the surface unplugged and plugged back (renumbered or not): it is shown every value again, its maps still work"
stop_peer surface
unplug_virmidi
wait_for_peer_line hub "$(peer_err hub)" "port left: .*Virtual Raw MIDI" 20
# The daemon held while the surface comes back, so its reader is open before the daemon
# can connect to it and send it anything.
kill -STOP "${PEER_PIDS[hub]}"
plug_virmidi
card=$(card_number VirMIDI)
start_peer surface amidi -p "hw:$card,0" -d
wait_for_rawmidi_reader "$card" 0 "${PEER_PIDS[surface]}"
kill -CONT "${PEER_PIDS[hub]}"
hub=$(client_number midihub)
wait_for "the surface connected again" 20 bash -c \
    "aconnect -l | grep -A3 \"'Virtual Raw MIDI $card-0'\" | grep -q \"Connecting To: .*$hub:0\""
# The values now: the fader at the centre (-23.998 dB), the button lit, the ring at 0x38.
shows_again() { [[ $(hex_bytes "$(peer_out surface)") =~ ^E0\ 00\ 40\ 90\ 10\ 7F\ B0\ 10\ 38 ]]; }
wait_for "the surface shown its values again: E0 00 40 90 10 7F B0 10 38 …" 20 shows_again
amidi -p "hw:$card,0" -S 'E0 7F 7F' || fail "amidi -S failed"
poll_until 10 bash -c "[[ \$(midihub mappings --json | jq -r '.[0].targets[0].value') == 12 ]]" \
    || fail "the fader after the replug should set 12 dB, the level is $(mapped_value synth 'master gain')"

step "a sweep of the level, 1,000 sets as fast as the socket takes them: the fader is sent at most every 20 ms, ending where the sweep ends"
: >"$(peer_out surface)"
python3 - "$SERVE_SOCKET" >"$WORK/sweep.txt" <<'PY' || fail "the sweep's client failed"
import json, socket, sys, time
connection = socket.socket(socket.AF_UNIX)
connection.connect(sys.argv[1])
answers = connection.makefile("rb")
started = time.monotonic()
for step in range(1000):  # -60 dB to 12 dB, the last one 12
    value = -60 + 72 * step / 999
    connection.sendall(json.dumps({"id": step, "request": "parameters.set",
                                   "params": {"node": "synth", "parameter": "master gain", "value": value}}).encode() + b"\n")
for _ in range(1000):
    answers.readline()
print(f"{time.monotonic() - started:.3f}")
PY
sweep_seconds=$(cat "$WORK/sweep.txt")
sleep 1  # the last value goes out within 20 ms of the sweep's end
# Pitch-bend messages the surface got (the kernel writes them with running status).
bends=$(hex_bytes "$(peer_out surface)" | python3 -c '
import sys
data = [int(b, 16) for b in sys.stdin.read().split()]
status, count, last = None, 0, None
i = 0
while i < len(data):
    if data[i] >= 0x80:
        status = data[i]
        i += 1
    if status == 0xE0 and i + 1 < len(data):
        count += 1
        last = "%02X %02X" % (data[i], data[i + 1])
    i += 2
print(count, last)')
read -r count last <<<"$bends"
most=$(python3 -c "print(int(($sweep_seconds + 1) / 0.02) + 2)")
echo "sweep: $sweep_seconds s, $count fader messages (at most $most at one per 20 ms), the last $last"
((count >= 2 && count <= most)) || fail "$count fader messages for a $sweep_seconds s sweep: the rate limit allows at most $most"
assert_eq "7F 7F" "$last" "the fader at the sweep's last value (12 dB, the top)"

stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
