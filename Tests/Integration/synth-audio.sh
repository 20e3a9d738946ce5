# Helpers for the built-in synth's kernel-ALSA tests (vm/6*-synth-*.test.sh), on top
# of lib.sh's loopback helpers. Source after lib.sh has been loaded (inside.sh does).

# Larger blocks than a desktop would use: the VM is emulated and 5–20× slower.
SYNTH_AUDIO_OPTIONS=(--device hw:Loopback,0,0 --period 1024 --buffer 4096 --preset-bank "$REPO/patches/presets")

# Waits until the capture side of the loopback is configured (arecord holds it at
# S16_LE), so that midihub, opening the playback side after it, is offered S16_LE only.
wait_for_loopback_capture() { # [SUBDEVICE]
    local card
    card=$(card_number Loopback)
    wait_for_line "/proc/asound/card$card/pcm1c/sub${1:-0}/hw_params" "format: S16_LE"
}

# Writes an SMF (csvmidi) holding A4 (440 Hz) for SECONDS at 120 bpm on the flute
# preset (GM program 74), whose spectrum is dominated by its fundamental.
write_a4_sequence() { # OUT.mid SECONDS
    local ticks=$(($2 * 960))
    csv_to_midi "$1" <<CSV
0, 0, Header, 0, 1, 480
1, 0, Start_track
1, 0, Tempo, 500000
1, 0, Program_c, 0, 73
1, 0, Note_on_c, 0, 69, 100
1, $ticks, Note_off_c, 0, 69, 0
1, $ticks, End_track
0, 0, End_of_file
CSV
}

# Copies IN.wav to OUT.wav without its leading and trailing silence (below 1 %);
# fails when nothing is left: the recording was silent.
trim_silence() { # IN.wav OUT.wav
    sox "$1" "$2" silence 1 0.01 1% reverse silence 1 0.01 1% reverse || fail "sox could not trim $1"
    local length
    length=$(soxi -s "$2" 2>/dev/null || echo 0)
    ((length > 4800)) || fail "the recording $1 is silent (less than 0.1 s above 1 % after trimming)"
}

# The recording is not silent and its dominant pitch is A4 (within 50 cents: sox's
# spectrum has bins about 6 Hz wide).
assert_recorded_a4() { # RECORDING.wav
    local trimmed=${1%.wav}.trimmed.wav
    trim_silence "$1" "$trimmed"
    assert_match '^0\.[0-9]*[1-9]|^1\.' "$(peak_amplitude "$trimmed")" "peak amplitude of $trimmed"
    assert_frequency 440 "$(dominant_frequency "$trimmed")" 50 "dominant frequency of $trimmed"
}

# Plays A4 on the flute (GM 74, a spectrum dominated by its fundamental) for 3 s from the
# first port of the snd-virmidi card CARD, with its note-off.
play_flute_a4() { # CARD
    amidi -p "hw:$1,0" -S 'C0 49 90 45 64' || fail "amidi -S failed"
    sleep 3
    amidi -p "hw:$1,0" -S '80 45 00' || fail "amidi -S failed"
}
