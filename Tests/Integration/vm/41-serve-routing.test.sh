# Issue 4, kernel test: routing and hot-plug through `midihub serve` (MIDI-only).
# A snd-virmidi "controller" → midihub (rule connects it) → transpose +12 → an
# external node (aseqdump, registered by name) receives the transposed notes, and so
# does a kernel MIDI port as external node (snd-virmidi's second port, read back from its
# rawmidi device with amidi -d): the daemon connects midihub:out to it, since kernel
# ports drop events from unconnected senders.
# Unplugging the controller (sysfs unbind, as a USB disconnect; rmmod is refused
# while subscribed) with a note held gives aseqdump the exact
# note-off at once; plugging it back (bind) brings the route back. Eight
# cycles keep the daemon's fds flat and its memory within 4 MB (vm/42 watches memory over
# twenty cycles of the same unplug, with audio). A graph edit over the control
# socket survives `kill -9` and a restart. Started as systemd's Type=notify does
# (NOTIFY_SOCKET, WATCHDOG_USEC), the daemon sends READY=1 only once its ports, the
# rule's connection and its control socket exist, then watchdog pings, a STATUS= when
# the port count changes, and STOPPING=1 when stopped. Its MIDI input thread ("midihub-input")
# runs at SCHED_FIFO 50 (chrt -p), as root may ask.
# timeout: 600

source "$REPO/Tests/Integration/serve.sh"
start_controller_and_dump
write_transpose_patch 'hwsynth="Virtual Raw MIDI *-1"'

start_notify_listener systemd
notes=$(peer_out systemd)
NOTIFY_SOCKET=$NOTIFY_SOCKET WATCHDOG_USEC=2000000 start_serve hub --no-audio --patch "$WORK/patch.yaml"
hub_pid=${PEER_PIDS[hub]}
hub_client=$(client_number midihub)

step "systemd: READY=1 comes once the ports, the rule's connection and the control socket exist"
wait_for_line "$notes" "^READY=1 STATUS=serving [0-9]+ ports, 4 nodes; MIDI-only: no audio$"
ready_ports=$(sed -nE 's/^READY=1 STATUS=serving ([0-9]+) ports.*/\1/p' "$notes")
controller=$(client_number "Virtual Raw MIDI $card-0")
seq_client_block "$WORK/systemd.at-ready" midihub >"$WORK/midihub-at-ready.txt"
assert_file_has "$WORK/midihub-at-ready.txt" '^  Port +0 : "in"' "midihub:in at READY=1"
assert_file_has "$WORK/midihub-at-ready.txt" '^  Port +1 : "out"' "midihub:out at READY=1"
assert_file_has "$WORK/midihub-at-ready.txt" "Connected From: .*\\b$controller:0\\b" "the rule's connection at READY=1"
assert_file_has "$WORK/systemd.at-ready" "^control socket: yes$" "the control socket at READY=1"

step "the MIDI input thread runs at SCHED_FIFO 50 (root may ask for it), below the render thread"
input_tid=$(grep -lx "midihub-input" /proc/"$hub_pid"/task/*/comm | head -n 1 | cut -d/ -f5)
[[ -n $input_tid ]] || fail "no thread named midihub-input in $hub_pid: $(cat /proc/"$hub_pid"/task/*/comm | tr '\n' ' ')"
chrt -p "$input_tid" >"$WORK/input-thread.sched" || fail "chrt -p $input_tid failed"
assert_file_has "$WORK/input-thread.sched" "policy: SCHED_FIFO$" "input thread's scheduling policy"
assert_file_has "$WORK/input-thread.sched" "priority: 50$" "input thread's realtime priority"
assert_file_has "$(peer_err hub)" "MIDI input thread: realtime priority 50 \\(SCHED_FIFO\\)" "the priority's log line"

step "the rule connected the controller; a note arrives transposed, at aseqdump and at the kernel port"
wait_for "virmidi -> midihub" 20 bash -c "aconnect -l | grep -A3 \"'Virtual Raw MIDI $card-0'\" | grep -q \"Connecting To: .*$hub_client:0\""
wait_for "midihub:out -> virmidi port 1 (external node)" 20 bash -c \
    "aconnect -l | grep -A3 \"'Virtual Raw MIDI $card-1'\" | grep -q \"Connected From: .*$hub_client:1\""
start_peer hwsynth amidi -p "hw:$card,1" -d
wait_for_rawmidi_reader "$card" 1 "${PEER_PIDS[hwsynth]}"
amidi -p "hw:$card,0" -S '90 3C 64' || fail "amidi -S failed"
wait_for_line "$dump" "^ *$hub_client:1 +Note on +0, note 72, velocity 100$"
wait_for_bytes hwsynth 3
assert_eq "90 48 64" "$(hex_bytes "$(peer_out hwsynth)")" "bytes at the external kernel port (amidi -d)"
stop_peer hwsynth

step "systemd: WATCHDOG=1 every second (half of WATCHDOG_USEC) from the input loop"
wait_for "two watchdog pings" 30 bash -c "((\$(grep -c '^WATCHDOG=1' '$notes') >= 2))"

step "unplug with the note held: aseqdump gets its note-off"
unplug_virmidi
wait_for_line "$dump" "^ *$hub_client:1 +Note off +0, note 72"
wait_for_peer_line hub "$(peer_err hub)" "port left: .*Virtual Raw MIDI.*released notes at dump"
wait_for "STATUS= without the controller's ports" 30 bash -c \
    "grep -Eo '^(WATCHDOG=1 )?STATUS=serving [0-9]+' '$notes' | grep -Eqv ' $ready_ports\$'"

step "plug back: the route returns"
for cycle in $(seq 1 8); do
    plug_virmidi
    card=$(card_number VirMIDI)
    wait_for "route back (cycle $cycle)" 20 bash -c "aconnect -l | grep -A3 \"'Virtual Raw MIDI $card-0'\" | grep -q \"Connecting To: .*$hub_client:0\""
    note=$(printf '%02X' $((40 + cycle)))
    amidi -p "hw:$card,0" -S "90 $note 64" || fail "amidi -S failed"
    wait_for_line "$dump" "Note on +0, note $((52 + cycle)), velocity 100$"
    unplug_virmidi
    wait_for_line "$dump" "Note off +0, note $((52 + cycle))"
    if ((cycle == 2)); then fds_start=$(fd_count "$hub_pid"); rss_start=$(rss_kb "$hub_pid"); fi
done
fds_end=$(fd_count "$hub_pid"); rss_end=$(rss_kb "$hub_pid")
assert_eq "$fds_start" "$fds_end" "open fds after cycle 2 and after cycle 8"
((rss_end < rss_start + 4096)) || fail "RSS grew from $rss_start kB to $rss_end kB over 6 cycles"

step "control socket: replace the transpose (+7), then kill -9 and restart"
plug_virmidi
card=$(card_number VirMIDI)
control_requests '{"id":1,"request":"nodes.replace","params":{"node":"up","with":{"type":"transpose","parameters":{"semitones":7}}}}' \
    >"$WORK/replace.out"
grep -q '"id":1' "$WORK/replace.out" && ! grep -q '"error"' "$WORK/replace.out" || fail "nodes.replace failed: $(cat "$WORK/replace.out")"
stat -c %a "$SERVE_SOCKET" | grep -qx 600 || fail "socket mode is $(stat -c %a "$SERVE_SOCKET"), not 600"
kill -9 "$hub_pid"
wait "$hub_pid" 2>/dev/null
unset "PEER_PIDS[hub]"
NOTIFY_SOCKET=$NOTIFY_SOCKET start_serve hub2 --no-audio
wait_for_peer_line hub2 "$(peer_err hub2)" "restored state from"
hub_client=$(client_number midihub)
wait_for "route after restart" 20 bash -c "aconnect -l | grep -A3 \"'Virtual Raw MIDI $card-0'\" | grep -q \"Connecting To: .*$hub_client:0\""
amidi -p "hw:$card,0" -S '90 3C 64' || fail "amidi -S failed"
wait_for_line "$dump" "^ *$hub_client:1 +Note on +0, note 67, velocity 100$"
midihub graph >"$WORK/graph.txt" || fail "midihub graph failed"
assert_file_has "$WORK/graph.txt" "^# daemon$" "graph origin"
assert_file_has "$WORK/graph.txt" "up  midiProcessor transpose" "graph after restart"
stop_peer hub2
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
assert_file_has "$notes" "^STOPPING=1 STATUS=stopping" "systemd told of the stop"
stop_peer dump
