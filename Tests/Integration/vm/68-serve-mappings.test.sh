# Issue 11, kernel test: a controller's knobs mapped to parameters. `midihub serve` plays
# docs/mappings.md's patch to hw:Loopback,0,0; a snd-virmidi "controller" driven by amidi
# moves its controls. CC 74 moves the synth's brightness across the mapped range (nodes.list
# shows it) and the recorded note's spectral centroid rises with it (by half or more); a 14-bit pair reaches
# both ends of the transpose exactly and its MSB alone lands between; each relative encoding
# steps its parameter up and down; NRPN 1000 sets the tempo; the level fader is ignored until
# it crosses the level (pickup); a pad toggles; a program change on channel 16 switches to
# the chorus scene while a note is held, and the note still ends (the recording's last
# second is silent); pads fire triggers: tap tempo sets the tempo from the taps, panic ends a
# note held with no note-off, the patch's own sends its bytes to the "drum machine" (the
# card's second port, read with amidi -d). `midihub mappings`, `scene`, `widgets` and
# `trigger` list the values and states, `midihub trigger play` is refused (disabled), and
# patches/controller-knobs.yaml is the doc's patch.
# timeout: 600

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
source "$REPO/Tests/Integration/serve-control.sh"
load_modules snd-aloop snd-virmidi

# The drum machine whose notes a trigger ends is the card's second port.
doc_block docs/mappings.md knobs-patch | sed 's/TR-8\*/Virtual Raw MIDI*-1/' >"$WORK/knobs.yaml"
assert_file_has "$WORK/knobs.yaml" 'to: .*Virtual Raw MIDI\*-1:\*' "the example's drum machine replaced"
assert_file_is_doc_block "$REPO/patches/controller-knobs.yaml" docs/mappings.md knobs-patch

# Sends hex bytes from the controller and waits until the daemon has read them
# (a `parameter-changed` event is published for each change; a short pause covers the rest).
send() { # HEX
    amidi -p "hw:$CARD,0" -S "$1" || fail "amidi -S '$1' failed"
    sleep 0.3
}

# Fails unless parameter NAME of node ID is VALUE within 0.01.
assert_parameter() { # ID NAME VALUE MESSAGE
    local actual
    actual=$(node_parameter "$1" "$2")
    awk -v a="$actual" -v e="$3" 'BEGIN { exit !(a - e < 0.01 && e - a < 0.01) }' \
        || fail "$4: $1.$2 should be $3, is '$actual'"
}

# Fails unless the tempo, as `midihub mappings --json` shows NRPN 1000's target, is VALUE within 0.01.
assert_mapped_tempo() { # VALUE MESSAGE
    local actual
    actual=$(midihub mappings --json | jq -r '.[] | select(.control == "nrpn 1000") | .targets[0].value')
    awk -v a="$actual" -v e="$1" 'BEGIN { exit !(a - e < 0.01 && e - a < 0.01) }' || fail "$2: the tempo should be $1, is '$actual'"
}

# The spectral centroid (Hz) of FILE between START and END seconds, from sox's spectrum.
spectral_centroid() { # FILE START END
    sox "$1" -n trim "$2" "=$3" remix - stat -freq 2>&1 \
        | awk 'NF == 2 && $1 ~ /^[0-9.]+$/ && $2 ~ /^[0-9.e+-]+$/ { s += $1 * $2; m += $2 } END { if (m == 0) exit 1; printf "%d\n", s / m }'
}

start_loopback_recording rec "$WORK/recorded.wav" 590
wait_for_loopback_capture
start_serve hub --patch "$WORK/knobs.yaml" "${SYNTH_AUDIO_OPTIONS[@]}"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
wait_for_controller_route "the controller"
# A sawtooth lead (program 82, "Lead 2") holds A3 while the knob moves.

step "CC 74 at 0: the brightness at the range's bottom; a note sounds dark"
send 'C0 51 B0 4A 00'
assert_parameter synth brightness -36 "CC 74 = 0"
send '90 39 64'
sleep 3
send 'B0 4A 7F'
assert_parameter synth brightness 36 "CC 74 = 127"
sleep 3
send '80 39 00'

step "cc14 16: both ends of the transpose exactly, the MSB alone between"
send 'B0 10 00 B0 30 00'
assert_parameter up semitones -48 "14-bit pair at 0/0"
send 'B0 10 7F'
assert_parameter up semitones 47.2558 "MSB 127 alone (LSB 0)"
send 'B0 30 7F'
assert_parameter up semitones 48 "14-bit pair at 127/127"

step "relative encoders: +5 then -2 ticks in each encoding (1/128 of the range per tick)"
send 'B0 15 05 B0 16 05 B0 17 45'
send 'B0 15 7E B0 16 42 B0 17 3E'
assert_parameter synth detune 2.34375 "twos-complement (CC 21: 05, 7E)"
assert_parameter synth vibrato 2.34375 "sign-magnitude (CC 22: 05, 42)"
assert_parameter synth resonance 0.046875 "offset-64 (CC 23: 45, 3E)"

step "NRPN 1000: data entry sets the tempo, increment steps it"
send 'B0 63 07 B0 62 68 B0 06 40 B0 26 00'
assert_mapped_tempo 120.0037 "NRPN 1000 = 8192 of 16383 over 60…180"
send 'B0 06 7F B0 26 7F'
assert_mapped_tempo 180 "NRPN 1000 at the top"

step "pickup: the level fader does nothing until it crosses the level (-10 dB = 95 of 127 over -40…0)"
send 'B0 07 14'
assert_parameter synth "master gain" -10 "fader at 20, below the level"
send 'B0 07 30'
assert_parameter synth "master gain" -10 "fader at 48, still below"
send 'B0 07 7F'
assert_parameter synth "master gain" 0 "fader crossed the level to 127"
send 'B0 07 40'
assert_parameter synth "master gain" -19.8425 "fader at 64, following"

step "a pad toggles the vibrato on and off"
send '99 24 64 89 24 00'
assert_parameter synth vibrato 100 "first press"
send '99 24 64 89 24 00'
assert_parameter synth vibrato 0 "second press"

step "program change 1 on channel 16 switches to the chorus scene with A4 held; the note still ends"
send '90 45 64 CF 01'
assert_parameter synth brightness 24 "brightness in the chorus"
assert_parameter up semitones 12 "transpose in the chorus"
assert_parameter synth vibrato 30 "vibrato in the chorus"
midihub scene >"$WORK/scenes.txt" || fail "midihub scene failed"
assert_file_has "$WORK/scenes.txt" '^\* chorus \(program 1\): synth.brightness = 24, up.semitones = 12, synth.vibrato = 30$' "the current scene marked"
midihub widgets >"$WORK/widgets.txt" || fail "midihub widgets failed"
assert_file_has "$WORK/widgets.txt" '^slider Filter: synth.brightness -48…48 semitones = 24$' "the filter slider"
assert_file_has "$WORK/widgets.txt" '^selector scene: scene \[verse, \*chorus\]$' "the scene selector"
assert_file_has "$WORK/widgets.txt" '^meter Voices: synth.active voices count = [1-9][0-9]*$' "the voices meter with A4 held"
send '80 45 00'
sleep 3

step "pads fire triggers: tap tempo (four taps 0.5 s apart), the drum machine's notes off, panic"
# Written to the card's raw MIDI device by one process (an amidi per tap would add its start-up).
python3 - "/dev/snd/midiC${CARD}D0" <<'PY' || fail "cannot tap the pad"
import os, sys, time
device = os.open(sys.argv[1], os.O_WRONLY)
for tap in range(4):
    os.write(device, bytes([0x99, 0x26, 0x64, 0x89, 0x26, 0x00]))
    time.sleep(0.5)
PY
tempo=$(midihub mappings --json | jq -r '.[] | select(.control == "nrpn 1000") | .targets[0].value')
awk -v t="$tempo" 'BEGIN { exit !(t > 110 && t < 130) }' || fail "four taps 0.5 s apart should set about 120 BPM, not $tempo"
start_peer drums amidi -p "hw:$CARD,1" -d
wait_for_rawmidi_reader "$CARD" 1 "${PEER_PIDS[drums]}"
send '99 27 64 89 27 00'
wait_for_bytes drums 3
assert_eq "B9 7B 00" "$(hex_bytes "$(peer_out drums)")" "what the drums-off pad sent the drum machine"
stop_peer drums
send '90 48 64'  # held, never released: the panic pad must end it
sleep 1
send '99 25 64 89 25 00'
assert_file_has "$(peer_err hub)" "panic: every note ended" "the panic pad fired"
midihub trigger >"$WORK/triggers.txt" || fail "midihub trigger failed"
assert_file_has "$WORK/triggers.txt" '^play: transport play \(disabled\)$' "the transport's triggers are disabled"
assert_file_has "$WORK/triggers.txt" '^drums off: send B9 7B 00 to "Virtual Raw MIDI\*-1:\*" \(normal\)$' "the patch's trigger listed"
assert_eq "panic: all notes off (normal)" "$(midihub trigger panic)" "midihub trigger panic"
status=0
midihub trigger play 2>"$WORK/play.err" || status=$?
assert_eq 2 "$status" "midihub trigger play (disabled) exit status"
assert_file_has "$WORK/play.err" "^midihub: trigger 'play' is disabled: the hub plays no sequence \(fix: " "the refusal"
sleep 2

step "midihub mappings lists every mapping with its value"
midihub mappings >"$WORK/mappings.txt" || fail "midihub mappings failed"
assert_eq 12 "$(wc -l <"$WORK/mappings.txt")" "mappings listed: $(tr '\n' '|' <"$WORK/mappings.txt")"
assert_file_has "$WORK/mappings.txt" '^cc 74 from knobs \(absolute\) → synth.brightness -36…36 = 24$' "the filter knob's line (the chorus scene set 24)"
assert_file_has "$WORK/mappings.txt" '^cc 7 \(absolute, pickup\) → synth.master gain -40…0 = -19.843$' "the level fader's line"
assert_file_has "$WORK/mappings.txt" '^program change on channel 16 \(absolute\) → scene.program 0…127 = 1$' "the scene switch's line"

stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
stop_peer rec
assert_file_lacks "$(peer_err hub)" "error" "the daemon ran without errors"

step "the recorded note grows brighter when CC 74 opens the filter"
segments=$(python3 - "$WORK/recorded.wav" <<'PY'
import sys, wave, warnings
warnings.simplefilter("ignore", DeprecationWarning)
import audioop
with wave.open(sys.argv[1]) as w:
    rate, frame = w.getframerate(), w.getnchannels() * w.getsampwidth()
    data = w.readframes(w.getnframes())
window = rate // 20 * frame
loud = [i / 20 for i, p in enumerate(range(0, len(data) - window + 1, window)) if audioop.rms(data[p:p + window], 2) > 100]
print(loud[0] if loud else "none")
PY
)
[[ $segments != none ]] || fail "the recording is silent"
onset=$segments
dark=$(spectral_centroid "$WORK/recorded.wav" "$(awk -v o="$onset" 'BEGIN { print o + 0.5 }')" "$(awk -v o="$onset" 'BEGIN { print o + 2.5 }')")
bright=$(spectral_centroid "$WORK/recorded.wav" "$(awk -v o="$onset" 'BEGIN { print o + 3.8 }')" "$(awk -v o="$onset" 'BEGIN { print o + 5.5 }')")
echo "spectral centroid: $dark Hz with CC 74 at 0, $bright Hz at 127"

step "the note held across the scene switch ended, and the panic ended the one never released: the recording's last second is silent"
python3 - "$WORK/recorded.wav" <<'PY' || fail "the recording still sounds at its end (a note held across the scene switch, or the one the panic should end, sounds on)"
import sys, wave, warnings
warnings.simplefilter("ignore", DeprecationWarning)
import audioop
with wave.open(sys.argv[1]) as w:
    rate, frame = w.getframerate(), w.getnchannels() * w.getsampwidth()
    data = w.readframes(w.getnframes())
tail = data[-rate * frame:]
print(f"RMS of the last second: {audioop.rms(tail, 2)} of 32767")
sys.exit(0 if audioop.rms(tail, 2) < 30 else 1)
PY
((bright * 2 > dark * 3)) || fail "the centroid should rise by half or more when the knob opens the filter: $dark Hz → $bright Hz"
