# timeout: 900
# Every `midihub …` example that needs kernel ALSA runs as written, against real peers:
# the doc blocks marked DocCommandTests.swift (the README's quick tour, docs/live.md's
# commands; the unit tier runs their offline ones) and the "Examples:" of every command's
# --help, read from the binary.
# The docs' port numbers are a typical machine's: Midi Through is 14:0, the first USB
# keyboard is card 1 (client 20, 'Virtual Raw MIDI 1-0' here), the first app is 128
# (fluidsynth here, 'FLUID Synth'), and `--device plughw:1,0` is a sound card at card 1
# (snd-aloop here, in a second set-up). A command ends with status 0; a play is stopped
# with Ctrl-C after 5 s and exits 130; one that runs until
# Ctrl-C (monitor, synth, serve, record, network) is stopped with SIGINT once it says it is ready and then
# exits 0. A connect to 'midihub synth' ("or connect later") runs while `midihub synth`
# does. A learn runs while a daemon serves, and the keyboard moves CC 74 once it waits; a
# scene switch, a trigger, a widget set, pressed or released and a patch load run while a daemon
# serves patches/controller-knobs.yaml; a network status or disconnect while a daemon serves
# a patch whose network: invites 192.168.1.20 (the disconnect's peer);
# a run of transport examples shares one daemon.
source "$REPO/Tests/Integration/serve.sh"

# The unit tier's DocCommandTests run these (DocCommandTests.offline): no kernel ALSA needed.
OFFLINE=" info convert render nodes graph rules mappings widgets soundfont plugins osc help --version --help "
# 95-serve-lv2 runs these against its daemon with LV2 plugin nodes.
ELSEWHERE=" preset "

step "collect the examples"
# The doc blocks whose marker names DocCommandTests.swift, then each --help in turn.
awk '/^<!-- tested-by: Tests\/MidihubCLITests\/DocCommandTests.swift/ { marked = 1; next }
     /^```/ { if (marked && !inside) { inside = 1; next } if (inside) { inside = 0; marked = 0 } next }
     inside && /^midihub / { print }' "$REPO/README.md" "$REPO"/docs/*.md >"$WORK/examples.raw"
# Every command's discussion in one run of the binary (a start costs seconds here).
midihub --experimental-dump-help | jq -r '.. | objects | select(has("commandName")) | .discussion // empty' \
    | awk '/^ *Examples:/ { on = 1; next } on && /^ +midihub / { sub(/^ +/, ""); print; next } on && !/^ +/ { on = 0 }' \
    >>"$WORK/examples.raw"
# The command itself: before a pipe or a comment. In order, each once, but for connect
# and disconnect: those examples are sequences (a connect, then its disconnect).
sed -E 's/ \| .*//; s/ +# .*//; s/ +$//' "$WORK/examples.raw" \
    | awk '$2 == "connect" || $2 == "disconnect" || !seen[$0]++' >"$WORK/examples.all"
while read -r line; do
    read -ra words <<<"$line"
    [[ $line == *" --audio jack"* ]] && continue  # 98-serve-jack-audio runs it, with a JACK server on a card
    [[ $OFFLINE == *" ${words[1]} "* && ! ($line =~ ^midihub\ widgets\ (set|press|release)\ ) || $ELSEWHERE == *" ${words[1]} "* ]] \
        || echo "$line"
done <"$WORK/examples.all" >"$WORK/examples"
grep -v -e '--device' -e 'jack:' "$WORK/examples" >"$WORK/examples.ports"
grep -e '--device' "$WORK/examples" >"$WORK/examples.device"
grep -e 'jack:' "$WORK/examples" >"$WORK/examples.jack"
(($(wc -l <"$WORK/examples") >= 25)) || fail "only $(wc -l <"$WORK/examples") ALSA examples found: $(tr '\n' '|' <"$WORK/examples")"
for file in ports device jack; do
    [[ -s $WORK/examples.$file ]] || fail "no $file examples"
done

# What a long-running command prints when it is ready: on stderr, but `network`'s lines
# (its sessions coming and going) are its output, on stdout.
ready_line() { # SUBCOMMAND
    case $1 in
        monitor) echo "^midihub: monitoring " ;;
        synth) echo "^midihub: synth listening on " ;;
        record) echo "^midihub: recording " ;;
        serve) echo "midihub: serving as [0-9]+:0 \(midihub:in\)" ;;
        network) echo "^listening as '[^']+' on UDP 0\.0\.0\.0:5004 and 5005 " ;;
    esac
}

# What an example needs to run (WORDS: its line, split): a daemon of some kind, Ctrl-C
# after a while, or nothing but itself.
example_kind() { # WORDS...
    if [[ $2 == transport ]]; then
        echo transport
    elif [[ $2 == record && $3 == *.wav ]]; then
        echo audio-daemon
    elif [[ $2 == learn || $2 == remote || $2 == play ]]; then
        echo "$2"
    elif [[ ($2 == scene || $2 == trigger) && $3 != -* || $2 == patch || $2 == widgets ]]; then
        echo daemon
    elif [[ $2 == network && ($3 == status || $3 == disconnect) ]]; then
        echo daemon-network
    elif [[ -n $(ready_line "$2") ]]; then
        echo long-running
    else
        echo plain
    fi
}

# Runs one example line as written (through the shell: quotes as a user types them), in
# the repository (read-only here), where the docs' relative paths lead.
run_example() { # LINE
    local line=$1 words
    read -ra words <<<"$line"
    local ready
    ready=$(ready_line "${words[1]}")
    step "$line"
    [[ $line == "midihub connect "*" 'midihub synth'" ]] && start_synth
    local kind
    kind=$(example_kind "${words[@]}")
    # A daemon shared by a run of examples stops when another kind of example comes.
    if [[ $kind != transport && -n ${PEER_PIDS[transporthub]:-} ]]; then stop_peer transporthub; fi
    if [[ $kind != daemon* && -n ${PEER_PIDS[examplehub]:-} ]]; then stop_peer examplehub; fi
    case $kind in
        transport) run_transport_example "$line" ;;
        audio-daemon) run_audio_daemon_example "$line" ;;
        learn) run_learn_example "$line" ;;
        remote) run_remote_example "$line" ;;
        daemon) run_daemon_example "$line" ;;
        daemon-network)
            printf '%s\n' "network:" '  connect: ["192.168.1.20"]' >"$WORK/network.yaml"
            run_daemon_example "$line" "$WORK/network.yaml"
            ;;
        play) run_play_example "$line" ;;
        long-running)
            start_peer example bash -c "cd \"\$REPO\" && exec $line"
            local said
            said=$(peer_err example)
            [[ ${words[1]} == network ]] && said=$(peer_out example)
            wait_for_peer_line example "$said" "$ready" 120
            stop_peer example
            assert_eq 0 "$PEER_STATUS" "'$line' after Ctrl-C (stderr: $(tail -n 3 "$(peer_err example)" | tr '\n' '|'))"
            ;;
        *)
            # Generous: the debug build's synth under emulation plays slower than real time.
            (cd "$REPO" && timeout -k 5 300 bash -c "$line") >"$WORK/out" 2>"$WORK/err"
            local status=$?
            assert_eq 0 "$status" "'$line' (stderr: $(head -c 400 "$WORK/err"))"
            ;;
    esac
    if [[ -n ${PEER_PIDS[synth]:-} ]]; then stop_peer synth; fi
}

# `midihub play FILE …` plays for `PLAY_SECONDS` (a start takes a second here) and is stopped with Ctrl-C, as a listener
# would: exit 130 (128 + SIGINT; 0 when the song ended first) and nothing on stderr but
# progress. Songs played whole, against aplaymidi, are 30-play's.
PLAY_SECONDS=3
run_play_example() { # LINE
    local status=0
    (cd "$REPO" && timeout -k 5 --preserve-status -s INT "$PLAY_SECONDS" bash -c "$1") >"$WORK/out" 2>"$WORK/err" || status=$?
    [[ $status == 130 || $status == 0 ]] || fail "'$1' after Ctrl-C: exit $status, not 130 (stderr: $(head -c 400 "$WORK/err"))"
    assert_file_lacks "$WORK/err" "^midihub: (error|warning)" "'$1' complains"
}

# `midihub learn` with a daemon serving (its default rules connect the keyboard at card 1):
# the keyboard turns CC 74 once learn says it waits; learn prints the mapping and exits 0.
run_learn_example() { # LINE
    start_serve learnhub --no-audio
    local hub
    hub=$(client_number midihub)
    wait_for "the keyboard reaches midihub:in" 30 bash -c \
        "aconnect -l | grep -A3 \"'Virtual Raw MIDI 1-0'\" | grep -q \"Connecting To: .*$hub:0\""
    start_peer example bash -c "cd \"\$REPO\" && exec $1"
    wait_for_peer_line example "$(peer_err example)" "^midihub: move a control for " 60
    amidi -p hw:1,0 -S 'B0 4A 40 B0 4A 42' || fail "amidi -S failed"
    wait_peer example 60
    assert_eq 0 "$PEER_STATUS" "'$1' (stderr: $(head -c 400 "$(peer_err example)"))"
    assert_file_has "$(peer_out example)" "cc 74" "'$1' prints the learned mapping"
    stop_peer learnhub
}

# `midihub scene NAME`, `midihub trigger NAME`, `midihub widgets set|press|release NAME` and
# `midihub patch load FILE` with a daemon serving the patch whose scenes the examples name
# (or PATCH); each prints what it did. A run of them shares one daemon while the patch stays
# the same (a patch load ends it: the next starts a daemon of its own).
run_daemon_example() { # LINE [PATCH]
    local patch=${2:-$REPO/patches/controller-knobs.yaml}
    if [[ -n ${PEER_PIDS[examplehub]:-} && $EXAMPLEHUB_PATCH != "$patch" ]]; then stop_peer examplehub; fi
    if [[ -z ${PEER_PIDS[examplehub]:-} ]]; then
        start_serve examplehub --no-audio --patch "$patch"
        EXAMPLEHUB_PATCH=$patch
    fi
    local status=0
    (cd "$REPO" && timeout -k 5 60 bash -c "$1") >"$WORK/out" 2>"$WORK/err" || status=$?
    assert_eq 0 "$status" "'$1' (stderr: $(head -c 400 "$WORK/err"))"
    [[ -s $WORK/out ]] || fail "'$1' printed nothing"
    [[ $1 != "midihub patch load "* ]] || stop_peer examplehub
}

# `midihub remote …` with a daemon serving the remote on port 8080, as the docs start it:
# it prints the URL with the daemon's token (one object with --json).
run_remote_example() { # LINE
    start_serve remotehub --no-audio --remote 8080
    local status=0
    (cd "$REPO" && timeout -k 5 60 bash -c "$1") >"$WORK/out" 2>"$WORK/err" || status=$?
    assert_eq 0 "$status" "'$1' (stderr: $(head -c 400 "$WORK/err"))"
    assert_file_has "$WORK/out" "http://127\.0\.0\.1:8080/\?token=$(cat "$(dirname "$SERVE_STATE")/remote-token")" \
        "'$1' prints the URL with the token"
    stop_peer remotehub
}

# `midihub transport …` with one daemon serving the default setup for a run of transport
# examples, MIDI-only, a song loaded before the first (a run's own load may have been
# left out as a repeat); each prints the status line.
run_transport_example() { # LINE
    if [[ -z ${PEER_PIDS[transporthub]:-} ]]; then
        start_serve transporthub --no-audio
        midihub transport load "$REPO/sequences/little-song.mid" >/dev/null || fail "loading a song for the transport examples"
    fi
    local status=0
    (cd "$REPO" && timeout -k 5 60 bash -c "$1") >"$WORK/out" 2>"$WORK/err" || status=$?
    assert_eq 0 "$status" "'$1' (stderr: $(head -c 400 "$WORK/err"))"
    assert_file_has "$WORK/out" "^(stopped|playing|paused) '|^\\{\"" "'$1' prints the status"
}

# `midihub record OUT.wav` with a daemon playing to the default device (snd-dummy), once
# its audio runs: it records the daemon's sound and says so.
run_audio_daemon_example() { # LINE
    start_serve wavhub --instrument synth
    wait_for_peer_line wavhub "$(peer_err wavhub)" "midihub: audio: playing to " 60
    local status=0
    (cd "$REPO" && timeout -k 5 60 bash -c "$1") >"$WORK/out" 2>"$WORK/err" || status=$?
    assert_eq 0 "$status" "'$1' (stderr: $(head -c 400 "$WORK/err"))"
    assert_file_has "$WORK/err" "^midihub: recorded [0-9:.]+ of (the daemon's sound|node '[^']+') to " "'$1' says what it recorded"
    stop_peer wavhub
}

# `midihub synth` on the default device, for a connect that names its port.
start_synth() {
    start_peer synth midihub synth
    wait_for_peer_line synth "$(peer_err synth)" "$(ready_line synth)" 120
}

# The ALSA clients the examples name: fluidsynth first, so it is client 128 ('FLUID Synth').
start_fluidsynth() {
    # Its reverb and chorus off and long periods: it only listens, and the VM is slow.
    # The small GM font: FluidR3's 142 MB take fluidsynth a minute to load in the emulated VM.
    start_peer fluid fluidsynth -si -m alsa_seq -a alsa -o audio.alsa.device=hw:0 -o audio.period-size=4096 \
        -o synth.reverb.active=0 -o synth.chorus.active=0 -p 'FLUID Synth' /usr/share/sounds/sf2/TimGM6mb.sf2
    wait_for_client "FLUID Synth" 120
}

# The state and socket of the daemon examples stay in this test's own folders.
export XDG_STATE_HOME=$WORK/state

step "set-up 1: Midi Through 14, a sound card 0 (snd-dummy), a keyboard at card 1 (snd-virmidi), fluidsynth at 128"
modprobe snd-dummy index=0 || fail "modprobe snd-dummy"
modprobe snd-virmidi index=1 || fail "modprobe snd-virmidi"
load_modules snd-seq-dummy
start_fluidsynth
assert_eq 128 "$(client_number "FLUID Synth")" "fluidsynth's client"
assert_eq 20 "$(client_number "Virtual Raw MIDI 1-0")" "the keyboard's client"
step "midihub ports --json prints the keyboard's line that 'midihub help ports' shows"
midihub help ports | awk '/^  \{"address"/ { on = 1 } on && /^ *$/ { exit } on { sub(/^ +/, ""); printf "%s", $0 }' \
    | sed 's/,$//' >"$WORK/ports-help.json"
midihub ports --json >"$WORK/ports.json" || fail "midihub ports --json failed"
grep -qxF "  $(<"$WORK/ports-help.json")," "$WORK/ports.json" \
    || fail "the help's line '$(<"$WORK/ports-help.json")' is not in: $(grep '"20:0"' "$WORK/ports.json")"
while read -r line; do
    run_example "$line"
done <"$WORK/examples.ports"

step "set-up 2: a sound card at card 1 (snd-aloop) for --device plughw:1,0"
stop_all_peers
rmmod snd_virmidi snd_seq_virmidi 2>/dev/null
modprobe snd-aloop index=1 || fail "modprobe snd-aloop"
card_number Loopback >"$WORK/card"
assert_eq 1 "$(<"$WORK/card")" "the loopback's card"
while read -r line; do
    run_example "$line"
done <"$WORK/examples.device"

step "set-up 3: a JACK server with fluidsynth's JACK MIDI port, the daemon, the keyboard at card 1 again"
stop_all_peers
rmmod snd_aloop 2>/dev/null
modprobe snd-virmidi index=1 || fail "modprobe snd-virmidi"
assert_eq 20 "$(client_number "Virtual Raw MIDI 1-0")" "the keyboard's client"
export JACK_NO_START_SERVER=1
start_peer jackd jackd --no-realtime --sync -d dummy -r 48000 -p 256
wait_for "jackd answers" 60 jack_lsp
start_peer jfluid fluidsynth -si -m jack -a jack -o midi.jack.id=fluidsynth /usr/share/sounds/sf2/TimGM6mb.sf2
wait_for "fluidsynth:midi_00 in JACK" 120 bash -c "jack_lsp | grep -qx fluidsynth:midi_00"
start_serve hub --no-audio
wait_for "the daemon lists jack:fluidsynth:midi_00" 60 bash -c \
    "echo '{\"request\":\"ports.list\"}' | socat - UNIX-CONNECT:$SERVE_SOCKET | grep -q '\"jack:fluidsynth:midi_00\"'"
while read -r line; do
    run_example "$line"
done <"$WORK/examples.jack"
echo '{"request":"connections.list"}' | socat - UNIX-CONNECT:"$SERVE_SOCKET" >"$WORK/connections.json"
assert_file_has "$WORK/connections.json" '"destination":"jack:fluidsynth:midi_00","source":"20:0"' "the daemon keeps the connection"
