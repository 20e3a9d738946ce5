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

# Checks that the segment START…END of FILE sounds at A4 (440 Hz within 50 cents).
assert_segment_a4() { # FILE.wav START END NAME
    sox "$1" "$WORK/$4.wav" trim "$2" "=$3" || fail "sox could not cut $4 from $1"
    assert_frequency 440 "$(dominant_frequency "$WORK/$4.wav")" 50 "dominant frequency of $4 ($2–$3 s of $1)"
}
