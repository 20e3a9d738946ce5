# Issue 4, kernel test: routing between applications through `midihub serve`.
# aplaymidi plays an SMF into midihub:in; a patch routes it through a transpose
# processor (+12) to two external nodes addressed by name: aseqdump, which receives
# every event transposed and in order (compared with what aplaymidi sends aseqdump
# directly in the same run), and a real FluidSynth (`fluidsynth -m alsa_seq`, file
# audio driver, which renders in real time), whose rendering sounds at the transposed
# pitch (A3 played → A4, 440 Hz).
# timeout: 600

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/synth-audio.sh"
load_modules snd-seq-dummy
SOUNDFONT=/usr/share/sounds/sf2/FluidR3_GM.sf2
[[ -r $SOUNDFONT ]] || fail "no $SOUNDFONT (fix: scripts/install-deps installs fluid-soundfont-gm)"

# A3 held 2.5 s on the flute (GM 74), then C4 E4 G4; a controller and a centred pitch
# bend travel too. The first note is at tick 0: it leaves as soon as aplaymidi connects.
csv_to_midi "$WORK/song.mid" <<CSV
0, 0, Header, 0, 1, 480
1, 0, Start_track
1, 0, Tempo, 500000
1, 0, Program_c, 0, 73
1, 0, Control_c, 0, 7, 110
1, 0, Note_on_c, 0, 57, 100
1, 2400, Note_off_c, 0, 57, 0
1, 2400, Pitch_bend_c, 0, 8192
1, 2400, Note_on_c, 0, 60, 90
1, 2640, Note_off_c, 0, 60, 0
1, 2640, Note_on_c, 0, 64, 80
1, 2880, Note_off_c, 0, 64, 0
1, 2880, Note_on_c, 0, 67, 70
1, 3120, Note_off_c, 0, 67, 0
1, 3120, End_track
0, 0, End_of_file
CSV

step "reference: aplaymidi straight into aseqdump"
start_aseqdump ref
aplaymidi -p aseqdump "$WORK/song.mid" || fail "aplaymidi -p aseqdump failed"
sleep 0.5
stop_peer ref
aseqdump_events "$(peer_out ref)" >"$WORK/sent.txt"
# The transposed events: every note number 12 higher, the rest unchanged.
awk '{ if (match($0, /note [0-9]+/)) { n = substr($0, RSTART + 5, RLENGTH - 5) + 12; sub(/note [0-9]+/, "note " n) } print }' \
    "$WORK/sent.txt" >"$WORK/expected.txt"
(($(grep -c '^Note on' "$WORK/expected.txt") == 4)) || fail "the reference did not get the 4 notes: $(tr '\n' '|' <"$WORK/sent.txt")"

step "FluidSynth and aseqdump as the hub's external nodes"
start_peer fluid fluidsynth -si -m alsa_seq -a file -r 48000 -o audio.file.name="$WORK/fluid.raw" \
    -o audio.file.type=raw -o audio.file.format=s16 "$SOUNDFONT"
wait_for "FluidSynth's sequencer port" 60 bash -c "aconnect -l | grep -q \"^client [0-9]*: 'FLUID Synth\""
start_aseqdump dump
cat >"$WORK/patch.yaml" <<YAML
nodes:
  player: { source: 'app:"aplaymidi:*"' }
  up:
    processor: transpose
    parameters: { semitones: 12 }
  dump: { external: '"aseqdump"' }
  fluid: { external: '"FLUID Synth*"' }
routes:
  - player -> up
  - up -> dump
  - up -> fluid
YAML
start_serve hub --no-audio --patch "$WORK/patch.yaml"
hub_client=$(client_number midihub)

step "aplaymidi plays into midihub:in"
aplaymidi -p midihub:0 "$WORK/song.mid" || fail "aplaymidi -p midihub:0 failed"
wait_for_line "$(peer_out dump)" "Note off +0, note 79" 30
sleep 0.5
stop_peer dump
assert_file_has "$(peer_out dump)" "^ *$hub_client:1 +Note on" "events come from midihub:out"
aseqdump_events "$(peer_out dump)" >"$WORK/received.txt"
assert_same_files "$WORK/expected.txt" "$WORK/received.txt" "aseqdump's events through the hub"

step "FluidSynth rendered the transposed notes"
sleep 1.5
stop_peer fluid TERM
sox -t raw -r 48000 -e signed -b 16 -c 2 "$WORK/fluid.raw" "$WORK/fluid.wav" || fail "sox could not read FluidSynth's rendering"
trim_silence "$WORK/fluid.wav" "$WORK/fluid.trimmed.wav"
assert_frequency 440 "$(dominant_frequency "$WORK/fluid.trimmed.wav")" 50 "dominant frequency of FluidSynth's rendering"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
