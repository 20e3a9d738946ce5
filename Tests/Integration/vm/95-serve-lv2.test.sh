# Issue 39, kernel test: LV2 plugins hosted by `midihub serve`. A snd-virmidi keyboard plays
# through eg-fifths (lv2-examples, a MIDI effect: a MIDI processor node) mda's EPiano
# (Debian's mda-lv2, a plugin node of the patch) into eg-amp (lv2-examples, an
# effect node) on hw:Loopback,0,0, recorded from hw:Loopback,1,0: each note sounds, as long
# after the one before as it was played; a CC mapped to the amp's gain moves it (in
# `midihub nodes --json`); a plugin added over the control socket while notes sound is
# instantiated off the MIDI thread (MIDI goes on through it); a program change switches to
# a scene that loads the EPiano's Mellow preset (its values, as a patch's `preset:` gives
# them); the `midihub preset` examples (docs/plugins.md and `preset --help`) list the
# EPiano's presets, load Mellow while notes sound (no underrun) and save the sound as a
# preset that lilv's lv2info lists and that loads back by its label; a plugin midihub cannot
# host is refused in one line and the daemon goes on; eg-sampler's sample set by
# parameters.set while it plays reaches the state file; its preset "Tone" (a sample
# file in the plugin's own state) loads into the added sampler, the state file keeps it, and a
# daemon restarted from that state has the plugin save the same sample again at its stop.
# timeout: 300

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
source "$REPO/Tests/Integration/serve-audio.sh"
load_modules snd-aloop snd-virmidi

cat >"$WORK/patch.yaml" <<'YAML'
version: 1
nodes:
  keys: { source: hardware:* }
  fifths: { plugin: eg-fifths }
  piano:
    plugin: MDA ePiano
    parameters: { env_decay: 0.2, env_release: 0.1 }
  amp: { plugin: eg-amp }
  out: { output: default }
routes:
  - keys -> fifths
  - fifths -> piano
  - piano -> amp
  - amp -> out
rules:
  - connect hardware:* -> "midihub:in"
mappings:
  - { control: cc 7, from: keys, to: amp.gain, range: [-24, 0] }
  - { control: program change, from: keys, to: scene.program }
scenes:
  mellow: { program: 5, presets: { piano: Mellow } }
YAML
# The Mellow preset's values, as a patch's `preset:` gives them to a node (read offline).
printf '%s\n' 'nodes:' '  piano: { plugin: MDA ePiano, preset: Mellow }' >"$WORK/mellow.yaml"

# eg-sampler's preset "Tone" (in this test's ~/.lv2): the plugin's own state, naming a sample file.
python3 - "$WORK/tone.wav" <<'PY' || fail "cannot write the tone"
import math, struct, sys, wave
with wave.open(sys.argv[1], "wb") as out:
    out.setnchannels(1); out.setsampwidth(2); out.setframerate(48000)
    out.writeframes(b"".join(struct.pack("<h", int(12000 * math.sin(2 * math.pi * 440 * i / 48000))) for i in range(4800)))
PY
mkdir -p "$HOME/.lv2/eg-sampler-tone.preset.lv2"
cat >"$HOME/.lv2/eg-sampler-tone.preset.lv2/manifest.ttl" <<'TTL'
@prefix lv2: <http://lv2plug.in/ns/lv2core#> .
@prefix pset: <http://lv2plug.in/ns/ext/presets#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<tone.ttl> a pset:Preset ; lv2:appliesTo <http://lv2plug.in/plugins/eg-sampler> ; rdfs:seeAlso <tone.ttl> .
TTL
cat >"$HOME/.lv2/eg-sampler-tone.preset.lv2/tone.ttl" <<TTL
@prefix lv2: <http://lv2plug.in/ns/lv2core#> .
@prefix pset: <http://lv2plug.in/ns/ext/presets#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix state: <http://lv2plug.in/ns/ext/state#> .
<> a pset:Preset ; lv2:appliesTo <http://lv2plug.in/plugins/eg-sampler> ; rdfs:label "Tone" ;
    state:state [ <http://lv2plug.in/plugins/eg-sampler#sample> <file://$WORK/tone.wav> ] .
TTL

start_loopback_recording rec "$WORK/recorded.wav" 290
wait_for_loopback_capture
start_serve hub --device hw:Loopback,0,0 --period 512 --buffer 2048 --patch "$WORK/patch.yaml"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60

step "the patch's plugin nodes: a MIDI effect, an instrument and an effect, by URI in nodes --json"
midihub nodes --json >"$WORK/nodes.json" || fail "midihub nodes --json failed"
assert_eq "instrument http://drobilla.net/plugins/mda/EPiano" \
    "$(jq -r '.[] | select(.id == "piano") | "\(.kind) \(.plugin)"' "$WORK/nodes.json")" "the piano node"
assert_eq "effect http://lv2plug.in/plugins/eg-amp" \
    "$(jq -r '.[] | select(.id == "amp") | "\(.kind) \(.plugin)"' "$WORK/nodes.json")" "the amp node"
assert_eq "midiProcessor http://lv2plug.in/plugins/eg-fifths" \
    "$(jq -r '.[] | select(.id == "fifths") | "\(.kind) \(.plugin)"' "$WORK/nodes.json")" "the fifths node"

step "a CC mapped to the amp's gain moves it"
wait_for_controller_route "the keyboard"
amidi -p "hw:$CARD,0" -S 'B0 07 40' || fail "amidi -S failed"
wait_for "amp.gain follows CC 7" 10 bash -c \
    "midihub nodes --json | jq -e '.[] | select(.id == \"amp\") | .parameters[] | select(.name == \"gain\") | .value > -12.5 and .value < -11.5' >/dev/null"

step "the keyboard plays three notes about a second apart, a plugin added over the socket meanwhile"
sent=()
for note in 3C 40 43; do
    amidi -p "hw:$CARD,0" -S "90 $note 70" || fail "amidi -S failed"
    sent+=("$(date +%s.%N)")
    if [[ $note == 40 ]]; then
        control_requests '{"id":1,"request":"nodes.add","params":{"type":"plugin","plugin":"Exampler","id":"sampler"}}' \
            >"$WORK/add.json" &
        adding=$!
    fi
    sleep 0.4
    amidi -p "hw:$CARD,0" -S "80 $note 00" || fail "amidi -S failed"
    sleep 0.6
done
wait "$adding"
assert_eq "sampler instrument" "$(jq -r 'select(.id == 1) | "\(.result.id) \(.result.kind)"' "$WORK/add.json")" "nodes.add of eg-sampler"

step "a program change switches to a scene that loads the EPiano's Mellow preset"
midihub nodes --patch "$WORK/mellow.yaml" --json | jq -c '[.[0].parameters[] | {name, value}]' >"$WORK/mellow.json" \
    || fail "reading the Mellow preset offline failed"
piano_values() { midihub nodes --json | jq -c '[.[] | select(.id == "piano") | .parameters[] | {name, value}]'; }
[[ $(piano_values) != "$(<"$WORK/mellow.json")" ]] || fail "the piano already has the Mellow preset's values"
amidi -p "hw:$CARD,0" -S 'C0 05' || fail "amidi -S failed"
wait_for "the piano takes the Mellow preset" 10 bash -c "[[ \$(midihub nodes --json | jq -c '[.[] | select(.id == \"piano\") | .parameters[] | {name, value}]') == '$(<"$WORK/mellow.json")' ]]"

step "a plugin midihub cannot host is refused in one line; the daemon goes on"
control_requests '{"id":2,"request":"nodes.add","params":{"type":"plugin","plugin":"Control Invert"}}' >"$WORK/refused.json"
assert_eq "unknown-node-type: LV2 plugin 'Control Invert' has neither audio nor MIDI ports, so it plays no part in a graph" \
    "$(jq -r 'select(.id == 2) | "\(.error.code): \(.error.message)"' "$WORK/refused.json")" "the refusal"
midihub nodes --json | jq -e '.[] | select(.id == "piano")' >/dev/null || fail "the daemon stopped answering"
sleep 1
stop_peer rec  # the notes below are not the three the recording is checked for

step "preset examples: list, load while notes sound, save and load back"
# The examples of docs/plugins.md's block and of `midihub preset --help`, as written (48-doc-commands leaves them here).
awk '/^<!-- tested-by: Tests\/Integration\/vm\/95-serve-lv2.test.sh preset examples/ { marked = 1; next }
     /^```/ { if (marked && !inside) { inside = 1; next } if (inside) { inside = 0; marked = 0 } next }
     inside && /^midihub / { print }' "$REPO/docs/plugins.md" >"$WORK/preset-examples"
midihub preset --help | awk '/^ *Examples:/ { on = 1; next } on && /^ +midihub / { sub(/^ +/, ""); print }' >>"$WORK/preset-examples"
mapfile -t examples < <(awk '!seen[$0]++' "$WORK/preset-examples")
((${#examples[@]} == 3)) || fail "expected the 3 preset examples, found: ${examples[*]}"
midihub preset piano Bright >/dev/null || fail "loading the Bright preset failed"
bright=$(piano_values)
underruns() { grep -c "underruns on" "$(peer_err hub)" || true; }
for example in "${examples[@]}"; do
    # The load while two notes sound (the listing reads every LV2 bundle in a process of its
    # own, which under emulation takes the CPU from the daemon for seconds: not then).
    [[ $example == "midihub preset piano Mellow" ]] && { before=$(underruns); amidi -p "hw:$CARD,0" -S '90 30 60 90 37 60' || fail "amidi -S failed"; }
    (cd "$REPO" && bash -c "$example") >"$WORK/example.out" 2>"$WORK/example.err" \
        || fail "'$example' failed: $(head -c 400 "$WORK/example.err")"
    case $example in
        "midihub preset piano") assert_file_has "$WORK/example.out" "^Mellow  http" "'$example' lists Mellow" ;;
        "midihub preset piano Mellow")
            assert_file_has "$WORK/example.out" "^piano: preset 'Mellow' loaded$" "'$example' says so"
            [[ $(piano_values) == "$(<"$WORK/mellow.json")" ]] || fail "'$example': the piano has not the Mellow values"
            sleep 1.5  # the daemon looks at the device's underruns once a second
            amidi -p "hw:$CARD,0" -S '80 30 00 80 37 00' || fail "amidi -S failed"
            assert_eq "$before" "$(underruns)" "underrun reports while the preset loaded under two sounding notes" ;;
        *) assert_file_has "$WORK/example.out" "^piano: preset 'Soft keys' saved in /.*/MDA_ePiano_Soft_keys.preset.lv2$" "'$example' says where" ;;
    esac
done
lv2info http://drobilla.net/plugins/mda/EPiano >"$WORK/lv2info.txt" || fail "lv2info failed"
assert_file_has "$WORK/lv2info.txt" "Soft keys" "lilv's lv2info lists the saved preset"
midihub preset piano Bright >/dev/null || fail "loading the Bright preset failed"
[[ $(piano_values) == "$bright" ]] || fail "Bright did not come back"
midihub preset piano "soft keys" >/dev/null || fail "loading the saved preset by its label failed"
[[ $(piano_values) == "$(<"$WORK/mellow.json")" ]] || fail "the saved preset gives other values than the sound it saved"
midihub preset piano Bright >/dev/null || fail "loading the Bright preset failed"

step "eg-sampler's own state: a preset naming a sample loads into the node, is kept in the state, and is back after a restart"
sampler_state() { jq -r '.nodes[] | select(.id == "sampler") | .descriptor.pluginState // ""' "$SERVE_STATE"; }
sampler_state >"$WORK/sampler-before" || fail "the state file is no JSON"
assert_file_lacks "$WORK/sampler-before" "tone.wav" "the sampler's state before the preset"
# Its file property set while it plays: the plugin loads it, the state file then names it.
cp "$WORK/tone.wav" "$WORK/second-tone.wav"
control_requests "{\"id\":4,\"request\":\"parameters.set\",\"params\":{\"node\":\"sampler\",\"parameter\":\"sample\",\"value\":\"$WORK/second-tone.wav\"}}" >"$WORK/file.json"
assert_eq "path $WORK/second-tone.wav" "$(jq -r 'select(.id == 4) | "\(.result.unit) \(.result.file)"' "$WORK/file.json")" "parameters.set of the sampler's sample"
wait_for "the state file names the sample set" 15 bash -c "jq -r '.nodes[] | select(.id == \"sampler\") | .descriptor.pluginState // \"\"' '$SERVE_STATE' | grep -q 'second-tone.wav'"
midihub preset sampler Tone >"$WORK/tone.out" || fail "loading the Tone preset into the sampler failed"
assert_file_has "$WORK/tone.out" "^sampler: preset 'Tone' loaded$" "the preset load says so"
wait_for "the state file keeps the sampler's sample" 10 bash -c "jq -r '.nodes[] | select(.id == \"sampler\") | .descriptor.pluginState // \"\"' '$SERVE_STATE' | grep -q '$WORK/tone.wav'"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
# Restarted from the state alone: what it saves at its stop is read from the plugin running
# again (a plugin that had not restored the tone would save its default click.wav).
start_serve again --device hw:Loopback,0,0 --period 512 --buffer 2048
wait_for_peer_line again "$(peer_err again)" "midihub: audio: playing to hw:Loopback,0,0" 60
midihub nodes --json >"$WORK/restarted.json" || fail "midihub nodes --json failed after the restart"
jq -e '.[] | select(.id == "sampler" and .plugin == "http://lv2plug.in/plugins/eg-sampler")' "$WORK/restarted.json" >/dev/null \
    || fail "the restarted daemon has no sampler node"
jq -e '.[] | select(.id == "amp") | .parameters[] | select(.name == "gain") | .value > -12.5 and .value < -11.5' "$WORK/restarted.json" \
    >/dev/null || fail "eg-amp's gain, set by CC 7 before the restart, is not -12 dB after it"
midihub preset piano >"$WORK/presets-after.txt" || fail "listing the piano's presets after the restart failed"
assert_file_has "$WORK/presets-after.txt" "^Soft keys  file://" "the preset saved before the restart"
# A value set while it runs: the state is written, each plugin's own state read from it.
control_requests '{"id":3,"request":"parameters.set","params":{"node":"piano","parameter":"env_decay","value":0.3}}' >"$WORK/set.json"
assert_eq true "$(jq -r 'select(.id == 3) | .ok' "$WORK/set.json")" "parameters.set on the restarted daemon"
wait_for "the restarted daemon saves its state" 10 bash -c "jq -e '.nodes[] | select(.id == \"piano\") | .parameters.env_decay > 0.29 and .parameters.env_decay < 0.31' '$SERVE_STATE' >/dev/null"
stop_peer again
assert_eq 0 "$PEER_STATUS" "the restarted daemon's exit status after SIGINT"
sampler_state >"$WORK/sampler-after" || fail "the state file is no JSON"
assert_file_has "$WORK/sampler-after" "$WORK/tone.wav" "the sampler's state as the restarted plugin saves it"
assert_file_lacks "$WORK/sampler-after" "click.wav" "the sampler's state as the restarted plugin saves it"
assert_file_lacks "$(peer_err again)" "saved state could not be read" "the restarted daemon's log"

step "the recording has the three notes, as far apart as they were played"
sound_segments "$WORK/recorded.wav" 0.3 >"$WORK/segments.txt"
mapfile -t segments <"$WORK/segments.txt"
((${#segments[@]} == 3)) || fail "expected 3 notes in the recording, found ${#segments[@]}: ${segments[*]}"
# The onsets are read in 50 ms windows, and the emulated VM's clock and scheduling wobble: within 0.25 s.
python3 - "${sent[*]}" "${segments[@]}" <<'PY' || fail "the notes sound apart otherwise than played (sent ${sent[*]}): ${segments[*]}"
import sys
sent = [float(time) for time in sys.argv[1].split()]
starts = [float(segment.split()[0]) for segment in sys.argv[2:]]
played = [b - a for a, b in zip(sent, sent[1:])]
heard = [b - a for a, b in zip(starts, starts[1:])]
print("played", played, "heard", heard, file=sys.stderr)
sys.exit(0 if all(abs(p - h) <= 0.25 for p, h in zip(played, heard)) else 1)
PY
