# Issue 28, kernel test: the daemon's `started` and `stopping` events on the control stream.
# A subscriber waits for the socket and connects while the daemon starts: strace holds the
# daemon's main thread for two seconds as listen(2) returns (a slow start made real: the
# socket listens, the daemon has not started its MIDI thread), so the client is there
# before the daemon serves. It gets its `subscribe` answered, then `started` with the
# daemon's version and pid. On SIGTERM it reads `stopping` (reason SIGTERM), then the
# end of the stream; the daemon exits 0.
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
load_modules snd-seq

cat >"$WORK/subscriber.py" <<'PY'
import socket, sys, time
path = sys.argv[1]
deadline = time.monotonic() + 60
while True:
    try:
        client = socket.socket(socket.AF_UNIX)
        client.connect(path)
        break
    except OSError:
        client.close()
        if time.monotonic() > deadline:
            sys.exit("the daemon's socket never took a connection")
        time.sleep(0.002)
print("connected", flush=True)
client.sendall(b'{"id":1,"request":"subscribe","params":{"events":["started","stopping"]}}\n')
for line in client.makefile("rb"):
    print(line.decode().strip(), flush=True)
print("end of stream", flush=True)
PY

step "a subscriber connects while the daemon starts (strace holds it 2 s in listen)"
start_peer subscriber python3 "$WORK/subscriber.py" "$SERVE_SOCKET"
start_peer hub strace -f --seccomp-bpf -qq -o /dev/null -e trace=listen -e inject=listen:delay_exit=2000000 \
    midihub serve --no-audio --state "$SERVE_STATE"
wait_for_peer_line subscriber "$(peer_out subscriber)" "^connected$" 60
hub_pid=$(pgrep -x midihub) || fail "no midihub process under strace"
wait_for_peer_line hub "$(peer_err hub)" "midihub: serving as [0-9]+:0 \(midihub:in\)" 60

step "its subscribe is answered, then started comes with the version and the pid"
wait_for_line "$(peer_out subscriber)" '"event":"started"' 30
sed -n 2,3p "$(peer_out subscriber)" >"$WORK/first.jsonl"
assert_eq 'true' "$(sed -n 1p "$WORK/first.jsonl" | jq -c .ok)" "the subscribe's answer (first line after connecting)"
assert_eq "started $(midihub --version | grep -Eo '[0-9]+\.[0-9]+\.[0-9]+[^ ]*' | head -1) $hub_pid" \
    "$(sed -n 2p "$WORK/first.jsonl" | jq -r '"\(.event) \(.version) \(.pid)"')" "the started event"

step "SIGTERM: stopping (reason SIGTERM), then the end of the stream; exit 0"
kill -TERM "$hub_pid"
wait_for_line "$(peer_out subscriber)" "^end of stream$" 30
assert_eq '{"event":"stopping","reason":"SIGTERM"}' "$(grep -F '"stopping"' "$(peer_out subscriber)" | jq -c -S .)" \
    "the stopping event"
assert_eq "end of stream" "$(tail -n 1 "$(peer_out subscriber)")" "the stream after stopping"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve's exit status after SIGTERM (through strace)"
stop_peer subscriber
