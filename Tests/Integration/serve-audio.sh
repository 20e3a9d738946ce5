# Audio helpers for the daemon's hot-plug test (vm/42-*), on top of lib.sh and synth-audio.sh.

# Prints the sound segments of FILE as "START END" lines (seconds): runs of 50 ms windows
# whose RMS is above 1 % of full scale, separated by at least GAP seconds of windows below.
sound_segments() { # FILE.wav GAP
    python3 - "$1" "$2" <<'PY' || fail "cannot analyse $1"
import sys, wave, warnings
warnings.simplefilter("ignore", DeprecationWarning)
import audioop
with wave.open(sys.argv[1]) as w:
    rate, frame = w.getframerate(), w.getnchannels() * w.getsampwidth()
    data = w.readframes(w.getnframes())
window = rate // 20 * frame
loud = [audioop.rms(data[i:i + window], 2) > 327.67 for i in range(0, len(data) - window + 1, window)]
gap = round(float(sys.argv[2]) * 20)
segments, start, quiet = [], None, 0
for index, sounding in enumerate(loud + [False] * gap):
    if sounding:
        start = index if start is None else start
        quiet = 0
    elif start is not None:
        quiet += 1
        if quiet >= gap:
            segments.append((start, index - quiet + 1))
            start, quiet = None, 0
for start, end in segments:
    print(f"{start / 20:.2f} {end / 20:.2f}")
PY
}

# The share (0…1) of FILE's energy between START and END seconds that lies above 2 kHz.
high_share() { # FILE START END
    local all high
    all=$(sox "$1" -n trim "$2" "=$3" stat 2>&1 | awk '/^RMS +amplitude/ { print $3 }')
    high=$(sox "$1" -n trim "$2" "=$3" highpass 2000 stat 2>&1 | awk '/^RMS +amplitude/ { print $3 }')
    [[ -n $all && -n $high ]] || fail "sox could not measure $1 ($2–$3 s)"
    awk -v a="$all" -v h="$high" 'BEGIN { printf "%.4f\n", (h * h) / (a * a) }'
}

# Prints "FIRST SECOND": the share above 2 kHz (`high_share`, the last 0.3 s of each left
# out) of the first two notes of FILE (`sound_segments`, a second of quiet between notes);
# with COUNT, fails unless FILE holds exactly that many notes (else at least two).
first_two_high_shares() { # FILE.wav [COUNT]
    local segments first_start first_end second_start second_end
    mapfile -t segments < <(sound_segments "$1" 1)
    if [[ -n ${2:-} ]]; then
        ((${#segments[@]} == $2)) || fail "expected $2 notes in $1, found: ${segments[*]:-none}"
    fi
    ((${#segments[@]} >= 2)) || fail "expected two notes in $1, found: ${segments[*]:-none}"
    read -r first_start first_end <<<"${segments[0]}"
    read -r second_start second_end <<<"${segments[1]}"
    echo "$(high_share "$1" "$first_start" "$(awk -v e="$first_end" 'BEGIN { print e - 0.3 }')")" \
        "$(high_share "$1" "$second_start" "$(awk -v e="$second_end" 'BEGIN { print e - 0.3 }')")"
}

# Checks that the segment START…END of FILE sounds at A4 (440 Hz within 50 cents).
assert_segment_a4() { # FILE.wav START END NAME
    sox "$1" "$WORK/$4.wav" trim "$2" "=$3" || fail "sox could not cut $4 from $1"
    assert_frequency 440 "$(dominant_frequency "$WORK/$4.wav")" 50 "dominant frequency of $4 ($2–$3 s of $1)"
}

# Prints the RMS (0…1 of full scale) of the left and of the right channel of FILE between
# START and END seconds, as "LEFT RIGHT".
channel_levels() { # FILE.wav START END
    python3 - "$1" "$2" "$3" <<'PY' || fail "cannot analyse $1"
import sys, wave, warnings
warnings.simplefilter("ignore", DeprecationWarning)
import audioop
with wave.open(sys.argv[1]) as w:
    rate, frame = w.getframerate(), w.getnchannels() * w.getsampwidth()
    w.setpos(int(float(sys.argv[2]) * rate))
    data = w.readframes(int((float(sys.argv[3]) - float(sys.argv[2])) * rate))
left, right = audioop.tomono(data, 2, 1, 0), audioop.tomono(data, 2, 0, 1)
print(f"{audioop.rms(left, 2) / 32768:.6f} {audioop.rms(right, 2) / 32768:.6f}")
PY
}

# Fails unless LOUD is at least 100 times (40 dB) QUIET.
assert_channel_dominates() { # LOUD QUIET MESSAGE
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0.001 and float(sys.argv[2]) * 100 <= float(sys.argv[1]) else 1)" \
        "$1" "$2" || fail "$3: $1 against $2 in the other channel"
}
