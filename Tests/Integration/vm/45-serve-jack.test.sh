# Issue 4, kernel test: JACK MIDI through `midihub serve` (MIDI-only), both directions.
# Without a JACK server the daemon logs exactly one line and keeps serving. With
# `jackd -d dummy`: a snd-virmidi "controller" → midihub → an external node on a JACK
# port (jack_midi_dump) gets the note; a JACK source (jack_midiseq, a long held note)
# → midihub → an external node on an ALSA port (aseqdump) gets it. The JACK source
# leaving with its note held, and jackd dying, each give aseqdump the note-off at
# once; jackd coming back is found again on the daemon's timer. Port to port, by rule:
# the virmidi port → a second jack_midi_dump (ALSA → JACK) and a short jack_midiseq loop
# → that dump (JACK → JACK, made in JACK); the same by hand with `midihub connect` /
# `disconnect` (jack:CLIENT:PORT on either side); unplugging the virmidi card with a note
# held gives the JACK dump its note-off. Plugged back, it streams 1 kHz through the hub to
# aseqdump and the JACK dump, which stops reading (SIGSTOP), while four control clients load
# the hub (issue 38): every message arrives, in order, and every request is answered.
# timeout: 600
# retry: jackd -d dummy gives up on its clients after the emulated VM stalls for seconds (CI: "XRun = 5002406 usec ... engine may now behave abnormally")

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-jack.sh"
source "$REPO/Tests/Integration/serve-control.sh"
export JACK_NO_START_SERVER=1
start_controller_and_dump

cat >"$WORK/patch.yaml" <<YAML
nodes:
  keys: { source: hardware:* }
  tojack: { external: 'jack:midi-monitor:input' }
  fromjack: { source: 'jack:seq:out' }
  dump: { external: '"aseqdump"' }
routes:
  - keys -> tojack
  - fromjack -> dump
rules:
  - connect hardware:* -> "midihub:in"
  - connect jack:* -> "midihub:in"
  - connect hardware:* -> jack:rawdump:input
  - connect jack:jseq:out -> jack:rawdump:input
YAML

step "no JACK server: one log line, the daemon keeps serving"
start_serve nojack --no-audio --patch "$WORK/patch.yaml"
sleep 3  # several turns of the JACK probe timer
assert_eq 1 "$(grep -c 'JACK MIDI unavailable: no JACK server running' "$(peer_err nojack)")" "JACK log lines without a server"
peer_gone "${PEER_PIDS[nojack]}" && fail "the daemon ended without a JACK server: $(cat "$(peer_err nojack)")"
stop_peer nojack
assert_eq 0 "$PEER_STATUS" "exit status without a JACK server"

step "jackd -d dummy: the daemon bridges it"
start_jackd
start_jack_dump jdump
start_serve hub --no-audio --patch "$WORK/patch.yaml"
hub_client=$(client_number midihub)
wait_for_peer_line hub "$(peer_err hub)" "JACK MIDI available"

step "ALSA -> JACK: a virmidi note reaches jack_midi_dump"
wait_for "virmidi -> midihub" 30 bash -c "aconnect -l | grep -A3 \"'Virtual Raw MIDI $card-0'\" | grep -q \"Connecting To: .*$hub_client:0\""
wait_for_bridge_to_dump
amidi -p "hw:$card,0" -S '90 3C 64' || fail "amidi -S failed"
wait_for_line "$(peer_out jdump)" "90 3c 64 note on +\(channel +0\): pitch +60, velocity +100" 30

step "JACK -> ALSA: jack_midiseq's held note reaches aseqdump"
start_jack_note seq
wait_for_peer_line hub "$(peer_err hub)" "connected jack:seq:out -> $hub_client:0 .*\(by rule\)" 30
wait_for_line "$dump" "^ *$hub_client:1 +Note on +0, note 62, velocity 64$" 60

step "the JACK source quits with its note held: aseqdump gets the note-off"
# SIGINT: jack_midiseq closes its client (a SIGKILLed client stalls the --sync server for
# minutes in the emulated VM before it is removed) and sends no note-off of its own.
stop_peer seq
poll_until 30 grep -Eq "^ *$hub_client:1 +Note off +0, note 62" "$dump" \
    || fail "no note-off after jack_midiseq was killed; jack_lsp: $(jack_lsp | tr '\n' ' '); midihub threads waiting in: $(cat /proc/"${PEER_PIDS[hub]}"/task/*/wchan | tr '\0' ' '); log tail: $(tail -3 "$(peer_err hub)")"
wait_for_peer_line hub "$(peer_err hub)" "port left: jack:seq:out; released notes at dump" 30

step "jackd dies with a note held: one line, the note-off, the daemon keeps serving"
notes_on=$(grep -Ec "Note on +0, note 62" "$dump")
start_jack_note seq2
wait_for "a second note-on" 60 bash -c "(( \$(grep -c 'Note on *0, note 62' '$dump') > $notes_on ))"
notes_off=$(grep -Ec "Note off +0, note 62" "$dump")
stop_peer jackd KILL
wait_for_peer_line hub "$(peer_err hub)" "JACK server gone: dropped [0-9]+ JACK ports" 30
wait_for "a second note-off" 30 bash -c "(( \$(grep -c 'Note off *0, note 62' '$dump') > $notes_off ))"
stop_peer seq2 KILL
stop_peer jdump KILL
sleep 3
assert_eq 1 "$(grep -c 'JACK server gone' "$(peer_err hub)")" "log lines for one server loss"
peer_gone "${PEER_PIDS[hub]}" && fail "the daemon ended when jackd died: $(tail -5 "$(peer_err hub)")"

step "jackd comes back: found on the timer, the bridge works again"
start_jackd
wait_for_peer_line hub "$(peer_err hub)" "JACK server back" 30
start_jack_dump jdump2
wait_for_bridge_to_dump
amidi -p "hw:$card,0" -S '90 40 50' || fail "amidi -S failed"
wait_for_line "$(peer_out jdump2)" "90 40 50 note on" 30

step "ALSA -> JACK by rule: the virmidi port feeds a JACK port directly"
virmidi=$(client_number "Virtual Raw MIDI $card-0")
start_peer rawdump stdbuf -oL jack_midi_dump rawdump
raw=$(peer_out rawdump)
# Logged once the daemon's JACK output is connected; the connection takes effect a JACK
# cycle (5 ms) later, long before amidi has started.
wait_for_peer_line hub "$(peer_err hub)" "connected $virmidi:0 -> jack:rawdump:input \(by rule\)" 90
amidi -p "hw:$card,0" -S '90 3B 50' || fail "amidi -S failed"
wait_for_line "$raw" "90 3b 50 note on" 30

step "JACK -> JACK by rule: made in JACK, MIDI flows without midihub"
# A one-second loop: note 64 on for its first half.
start_peer jseq jack_midiseq jseq 48000 0 64 24000
wait_for_peer_line hub "$(peer_err hub)" "connected jack:jseq:out -> jack:rawdump:input \(by rule\)" 90
wait_for "jseq:out -> rawdump:input in JACK" 10 bash -c "jack_lsp -c jseq:out | grep -qx '   rawdump:input'"
# The loop plays every second once JACK runs jack_midiseq's cycle; a --sync server in the
# emulated VM can stall for seconds after the earlier server's clients were killed.
poll_until 60 grep -Eq "90 40 40 note on" "$raw" \
    || fail "no note from jseq:out at rawdump:input; jack_lsp -c: $(jack_lsp -c | tr '\n' ' '); jseq: $(tail -3 "$(peer_err jseq)" | tr '\n' ' '); jackd: $(tail -5 "$(peer_err jackd)" | tr '\n' ' ')"

step "hand edits with JACK ports: one-line errors; JACK -> JACK, JACK -> ALSA, ALSA -> JACK"
assert_exit 2 midihub connect jack:nobody:out jack:rawdump:input
assert_one_line_error "^midihub: no JACK MIDI port 'jack:nobody:out' \(fix: "
assert_exit 2 midihub connect jack:rawdump:input jack:jseq:out
assert_one_line_error "^midihub: 'jack:rawdump:input' is not a JACK MIDI source"
midihub disconnect jack:jseq:out jack:rawdump:input || fail "midihub disconnect jack:jseq:out jack:rawdump:input failed"
jack_lsp -c jseq:out | grep -q rawdump:input && fail "jseq:out still feeds rawdump:input: $(jack_lsp -c | tr '\n' ' ')"
dump_port=$(aseqdump_client dump):0
midihub connect jack:jseq:out "$dump_port" || fail "midihub connect jack:jseq:out $dump_port failed"
wait_for_line "$dump" "^ *$hub_client:1 +Note on +0, note 64, velocity 64$" 30
stop_peer jseq
midihub disconnect "$virmidi:0" jack:rawdump:input || fail "midihub disconnect $virmidi:0 jack:rawdump:input failed"
amidi -p "hw:$card,0" -S '90 3D 50' || fail "amidi -S failed"
wait_for_line "$(peer_out jdump2)" "90 3d 50 note on" 30  # through the graph
midihub connect "$virmidi:0" jack:rawdump:input || fail "midihub connect $virmidi:0 jack:rawdump:input failed"
amidi -p "hw:$card,0" -S '90 3E 50' || fail "amidi -S failed"
wait_for_line "$raw" "90 3e 50 note on" 30
assert_file_lacks "$raw" "90 3d 50" "rawdump got a note sent while disconnected by hand"
assert_file_has "$raw" "80 3b 00 note off" "the hand disconnect released the note held at rawdump"
for edit in "disconnected jack:jseq:out -> jack:rawdump:input" "connected jack:jseq:out -> $dump_port" \
    "disconnected $virmidi:0 -> jack:rawdump:input" "connected $virmidi:0 -> jack:rawdump:input"; do
    assert_file_has "$(peer_err hub)" "$edit \(control request\)" "the daemon's log"
done

step "the virmidi card is unplugged with its note held: the JACK port gets the note-off"
unplug_virmidi
wait_for_line "$raw" "80 3e 00 note off" 30
wait_for_peer_line hub "$(peer_err hub)" "port left: $virmidi:0 .*released notes at .*jack:rawdump:input" 30

step "a JACK client stops reading: MIDI at 1 kHz still arrives whole and in order while four clients load the hub"
# jack_midi_dump is stopped (SIGSTOP) while the hub plays into its port: the --sync server
# waits for it, so the hub's JACK clients stop running too and its JACK output fills. The
# MIDI thread hands JACK output to a thread of its own and never waits for JACK, so ALSA to
# ALSA goes on, while the control clients of vm/44's step list, set mappings and reload.
plug_virmidi
wait_for "the virmidi port back" 30 bash -c "aconnect -l | grep -q \"'Virtual Raw MIDI $card-0'\""
cat >"$WORK/stream.yaml" <<YAML
nodes:
  keys: { source: hardware:* }
  up: { processor: transpose, parameters: { semitones: 2 } }
  dump: { external: '"aseqdump"' }
  tojack: { external: 'jack:midi-monitor:input' }
routes:
  - keys -> up
  - up -> dump
  - keys -> tojack
rules:
  - connect hardware:* -> "midihub:in"
YAML
control_ok "{\"id\":1,\"request\":\"patch.load\",\"params\":{\"path\":\"$WORK/stream.yaml\"}}" >/dev/null
wait_for "virmidi -> midihub" 30 bash -c "aconnect -l | grep -A3 \"'Virtual Raw MIDI $card-0'\" | grep -q \"Connecting To: .*$hub_client:0\""
amidi -p "hw:$card,0" -S '90 30 40 80 30 00' || fail "amidi -S failed"
wait_for_line "$(peer_out jdump2)" "80 30 00 note off" 30
wait_for_line "$dump" "^ *$hub_client:1 +Note off +0, note 50" 30  # counted before the stream, not in it
kill -STOP "${PEER_PIDS[jdump2]}"
python3 "$REPO/Tests/Integration/control_load.py" "$SERVE_SOCKET" "/dev/snd/midiC${card}D0" "$dump" "$(wc -l <"$dump")" \
    "$hub_client" "$WORK/stream.yaml" 5 2 >"$WORK/jack-load.out" 2>"$WORK/jack-load.err" \
    || fail "MIDI with a stopped JACK reader: $(tr '\n' ' ' <"$WORK/jack-load.out") $(head -c 2000 "$WORK/jack-load.err")"
kill -CONT "${PEER_PIDS[jdump2]}"
cat "$WORK/jack-load.out"
read -r sent received in_order < <(sed -n 's/^sent=\([0-9]*\) received=\([0-9]*\) in-order=\([0-9]*\)$/\1 \2 \3/p' "$WORK/jack-load.out")
assert_eq "$sent $sent" "$received $in_order" "messages received, and in the order sent, with the JACK reader stopped"
(( sent >= 2000 )) || fail "the stream fell far short of 1 kHz: $sent messages in 5 s"
assert_eq 4 "$(grep -cE '^client=[a-z.]+ requests=[0-9]+ failed=0$' "$WORK/jack-load.out")" "every request answered"

stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
# jackd first, then its clients, all with SIGKILL, as when jackd died above: the JACK dump
# that was stopped took 20 s to close its client after SIGINT (a VM run).
stop_peer jackd KILL
stop_peer rawdump KILL
stop_peer jdump2 KILL
stop_peer dump
