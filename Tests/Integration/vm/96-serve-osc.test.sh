# Issue 42, kernel test: OSC over UDP into `midihub serve --osc`, with Debian's liblo tools
# as the surfaces. `oscsend` sets a processor's parameter (nodes.list shows it) and switches
# a scene; two `oscdump`s registered with `/register PORT` each get a controller's move
# (CC 1 on a snd-virmidi keyboard, mapped to the parameter) once, on the address a surface
# sends; a surface's own move is not echoed back to it; a packet that is not OSC, and an
# address the patch lacks, are answered with `/error` and the hub goes on.
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-control.sh"
load_modules snd-virmidi
CARD=$(card_number VirMIDI)
OSC_PORT=9000

doc_block docs/osc.md osc-patch >"$WORK/patch.yaml"

# Whether the transpose's semitones are VALUE (nodes.list).
semitones_are() { # VALUE
    [[ $(node_parameter up semitones) == "$1" ]]
}

start_serve hub --no-audio --osc "$OSC_PORT" --patch "$WORK/patch.yaml"
assert_file_has "$(peer_err hub)" "osc: taking OSC over UDP on 127.0.0.1:$OSC_PORT" "the daemon's line for OSC"

step "oscsend sets the transpose's semitones, then switches to the scene 'low'"
doc_block docs/osc.md osc-send >"$WORK/send.sh"
assert_file_has "$WORK/send.sh" "/node/up/semitones f 5" "the doc's first send"
head -n 1 "$WORK/send.sh" | bash || fail "the doc's first oscsend failed"
wait_for "semitones 5 in nodes.list" 10 semitones_are 5
tail -n +2 "$WORK/send.sh" | bash || fail "the doc's second oscsend failed"
wait_for "semitones -5 (the scene's) in nodes.list" 10 semitones_are -5

step "two oscdumps registered as surfaces get a controller's move once each"
# The doc's two lines, once as written (port 9101) and once for a second surface (9102).
doc_block docs/osc.md osc-register >"$WORK/register.sh"
mapfile -t register <"$WORK/register.sh"
assert_eq "oscdump -L 9101" "${register[0]}" "the doc's listening surface"
read -ra listen <<<"${register[0]}"
start_peer dump-a "${listen[@]}"
start_peer dump-b "${listen[@]/9101/9102}"
sleep 0.5
bash -c "${register[1]}" || fail "the doc's /register failed"
bash -c "${register[1]/9101/9102}" || fail "/register i 9102 failed"
sleep 0.3
amidi -p "hw:$CARD,0" -S 'B0 01 7F' || fail "amidi failed"
wait_for "the move at both surfaces" 10 bash -c \
    "grep -q '/node/up/semitones f 12' $(peer_out dump-a) && grep -q '/node/up/semitones f 12' $(peer_out dump-b)"
sleep 0.5
for dump in dump-a dump-b; do
    assert_eq 1 "$(grep -c '/node/up/semitones f 12' "$(peer_out "$dump")")" "moves of semitones to 12 at $dump"
    assert_file_has "$(peer_out "$dump")" '/node/up/semitones/norm f 0.625' "the normalised address at $dump (docs/osc.md)"
done

step "a surface's own move is not echoed back; bad packets get /error and the hub goes on"
python3 - "$OSC_PORT" >"$WORK/surface.out" <<'PY' || fail "the python surface failed: $(cat "$WORK/surface.out")"
import socket, struct, sys
port = int(sys.argv[1])
def osc(address, tags, *args):
    def pad(b): return b + b"\0" * (4 - len(b) % 4)
    data = pad(address.encode()) + pad(("," + tags).encode())
    for tag, arg in zip(tags, args):
        data += struct.pack(">f", arg) if tag == "f" else pad(arg.encode())
    return data
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(2)
s.sendto(osc("/node/up/semitones", "f", 3.0), ("127.0.0.1", port))
try:
    echoed = s.recv(1024)
    print("echo:", echoed)
except socket.timeout:
    print("no echo")
s.sendto(b"\x00\x01garbage", ("127.0.0.1", port))
print("garbage:", s.recv(1024).split(b"\0")[0].decode())
s.sendto(osc("/node/up/nothing", "f", 1.0), ("127.0.0.1", port))
reply = s.recv(1024)
print("unknown:", reply[reply.index(b",s") + 4:].split(b"\0")[0].decode())
PY
cat "$WORK/surface.out"
assert_file_has "$WORK/surface.out" "^no echo$" "the surface's own move, not sent back to it"
assert_file_has "$WORK/surface.out" "^garbage: /error$" "the reply to a packet that is not OSC"
assert_file_has "$WORK/surface.out" \
    "^unknown: no OSC address /node/up/nothing in this patch \\(fix: send one of the addresses docs/osc.md lists, e.g. /node/NODE/PARAMETER\\)$" \
    "the reply to an unknown address (docs/osc.md)"
assert_eq 3 "$(node_parameter up semitones)" "semitones after the python surface's move"
for dump in dump-a dump-b; do
    assert_file_has "$(peer_out "$dump")" '/node/up/semitones f 3' "the python surface's move at $dump"
done
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
