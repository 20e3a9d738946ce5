# Issue 40, kernel test: isolated plugin nodes (docs/plugins.md, "Isolated plugins"). A
# snd-virmidi keyboard plays mda's EPiano (isolated: in a `midihub plugin-child` process of
# its own) and the built-in synth into hw:Loopback,0,0, recorded from hw:Loopback,1,0; the
# tests' fault plugin (Tests/Fixtures/lv2, built here with cc), isolated too, sits on the
# synth's sound at gain 0. Mid-song it is made to crash (SIGSEGV), then to hang, then its
# process is killed with `kill -9` from outside: each time `node-gone` comes with the reason
# (`crashed` with the signal, `hung`), one log line names the plugin, and a new process runs
# it again with its values (its gain still 0); the recording has every note. The same patch
# without `isolate` shows what it saves: the plugin's crash ends the daemon.
# timeout: 240

source "$REPO/Tests/Integration/synth-audio.sh"
source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
source "$REPO/Tests/Integration/serve-audio.sh"
load_modules snd-aloop snd-virmidi

# The fault plugin, built as the unit tests build it.
bundle=$WORK/lv2/midihub-fixture.lv2
mkdir -p "$bundle" && cp "$REPO"/Tests/Fixtures/lv2/midihub-fixture.lv2/*.ttl "$bundle/" || fail "cannot copy the fixture's bundle"
cc -shared -fPIC -O2 -o "$bundle/fixture.so" "$REPO/Tests/Fixtures/lv2/midihub-fixture.lv2/fixture.c" || fail "cc could not build the fixture"
export LV2_PATH=$WORK/lv2:/usr/lib/lv2

write_patch() { # ISOLATE FILE
    cat >"$2" <<YAML
version: 1
nodes:
  keys: { source: hardware:* }
  piano: { plugin: MDA ePiano, isolate: $1, parameters: { env_decay: 0.2, env_release: 0.1 } }
  lead: { instrument: midihub synth }
  fx: { plugin: "midihub fixture: fault", isolate: $1, parameters: { gain: 0 } }
  out: { output: default }
routes:
  - keys -> piano
  - keys -> lead
  - piano -> out
  - lead -> out
  - lead -> fx
  - fx -> out
rules:
  - connect hardware:* -> "midihub:in"
YAML
}
write_patch true "$WORK/isolated.yaml"
write_patch false "$WORK/in-process.yaml"

# The daemon's plugin-child processes (not a shell whose command line names them).
children() { pgrep -f "^[^ ]*/midihub plugin-child$"; }
# The plugin-child process running the fault plugin (the one that mapped fixture.so).
fault_child() {
    local pid
    for pid in $(children); do
        grep -q fixture.so "/proc/$pid/maps" 2>/dev/null && { echo "$pid"; return; }
    done
    return 1
}
set_fault() { # VALUE  (as control_requests does, but waiting at most about a second for the answer)
    { echo '{"id":0,"request":"hello","params":{"protocolVersion":1}}'
      echo "{\"id\":5,\"request\":\"parameters.set\",\"params\":{\"node\":\"fx\",\"parameter\":\"fault\",\"value\":\"$1\"}}"
      sleep 0.5; } | socat -t 0.5 - "UNIX-CONNECT:$SERVE_SOCKET" | jq -e 'select(.id == 5) | .ok' >/dev/null \
        || fail "parameters.set fault $1 failed"
}
note() { # NOTE
    amidi -p "hw:$CARD,0" -S "90 $1 70" || fail "amidi -S failed"
    sleep 0.4
    amidi -p "hw:$CARD,0" -S "80 $1 00" || fail "amidi -S failed"
    sleep 0.8
}

start_loopback_recording rec "$WORK/recorded.wav" 200
wait_for_loopback_capture
start_serve hub --device hw:Loopback,0,0 --period 256 --buffer 1024 --patch "$WORK/isolated.yaml"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
start_peer events bash -c "{ echo '{\"id\":1,\"request\":\"subscribe\",\"params\":{\"events\":[\"node-gone\"]}}'; sleep 200; } \
    | socat -t 200 - UNIX-CONNECT:$SERVE_SOCKET"
wait_for_line "$(peer_out events)" '"ok":true'

step "each isolated plugin runs in a midihub plugin-child process of its own"
wait_for "two plugin-child processes" 30 bash -c '(( $(pgrep -fc "^[^ ]*/midihub plugin-child$") == 2 ))'
first=$(fault_child) || fail "no plugin-child process runs the fault plugin"
wait_for_controller_route "the keyboard"

step "a song plays; the fault plugin crashes, hangs and is killed in the middle of it"
note 3C
note 40
set_fault crash
wait_for_line "$(peer_out events)" '"reason":"crashed"' 10
note 43
wait_for_peer_line hub "$(peer_err hub)" "LV2 plugin 'midihub fixture: fault' \(isolated\) runs again" 20
second=$(fault_child) || fail "the fault plugin did not come back in a new process"
[[ $second != "$first" ]] || fail "the fault plugin's process is the one that crashed"
note 48
set_fault hang
wait_for_line "$(peer_out events)" '"reason":"hung"' 10
note 4C
wait_for_line_count "$(peer_err hub)" "LV2 plugin 'midihub fixture: fault' \(isolated\) runs again" 2 20
kill -KILL "$(fault_child)" || fail "no fault plugin process to kill"
wait_for_line_count "$(peer_out events)" '"reason":"crashed"' 2 10
note 4F
wait_for_line_count "$(peer_err hub)" "LV2 plugin 'midihub fixture: fault' \(isolated\) runs again" 3 20
note 54
sleep 1
stop_peer rec
# The events stream stays open (its pipe's sleep does not take SIGINT); the test's end kills it.

step "node-gone told each end with its reason; the log named the plugin each time"
grep -F '"node-gone"' "$(peer_out events)" | jq -c -S . >"$WORK/gone.txt"
assert_same_files <(printf '%s\n' '{"event":"node-gone","node":"fx","reason":"crashed","signal":"SIGSEGV"}' \
    '{"event":"node-gone","node":"fx","reason":"hung"}' '{"event":"node-gone","node":"fx","reason":"crashed","signal":"SIGKILL"}') \
    "$WORK/gone.txt" "the node-gone events"
assert_file_has "$(peer_err hub)" "LV2 plugin 'midihub fixture: fault' \(isolated\) crashed \(SIGSEGV\); its node is silent until it runs again" "the crash's line"
assert_file_has "$(peer_err hub)" "LV2 plugin 'midihub fixture: fault' \(isolated\) stopped answering for 0.5 s and was killed" "the hang's line"
grep -o "runs again, with its last state and values ([0-9.]* s after it stopped)" "$(peer_err hub)" >&2
midihub nodes --json | jq -e '.[] | select(.id == "fx") | .parameters[] | select(.name == "gain") | .value == 0' >/dev/null \
    || fail "the fault plugin's gain is not 0 after its restarts"
(( $(children | wc -l) == 2 )) || fail "not two plugin-child processes after the restarts"

step "the recording has every note of the song"
sound_segments "$WORK/recorded.wav" 0.3 >"$WORK/segments.txt"
mapfile -t segments <"$WORK/segments.txt"
((${#segments[@]} == 7)) || fail "expected the 7 notes in the recording, found ${#segments[@]}: ${segments[*]}"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
wait_for "the plugin-child processes end with the daemon" 10 bash -c '! pgrep -f "^[^ ]*/midihub plugin-child$" >/dev/null'

step "without isolate, the same crash ends the daemon"
# Without Swift's backtracer, which takes minutes to print the crash under emulation.
export SWIFT_BACKTRACE=enable=no
start_serve inproc --device hw:Loopback,0,0 --period 256 --buffer 1024 --patch "$WORK/in-process.yaml"
wait_for_peer_line inproc "$(peer_err inproc)" "midihub: audio: playing to hw:Loopback,0,0" 60
! children >/dev/null || fail "a plugin-child process runs without isolate"
set_fault crash
wait_peer inproc 30
((PEER_STATUS >= 128)) || fail "the daemon without isolate ended with status $PEER_STATUS, not on a signal"
