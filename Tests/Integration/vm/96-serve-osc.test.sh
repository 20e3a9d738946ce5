# Issue 42, kernel test: OSC over UDP into `midihub serve --osc`, with Debian's liblo tools
# as the surfaces. `oscsend` sets a processor's parameter (nodes.list shows it) and switches
# a scene; two `oscdump`s registered with `/register PORT` each get a controller's move
# (CC 1 on a snd-virmidi keyboard, mapped to the parameter) once, on the address a surface
# sends; a surface's own move is not echoed back to it; a packet that is not OSC, and an
# address the patch lacks, are answered with `/error` and the hub goes on. Over TCP:
# `oscsend osc.tcp://` (size-prefixed) sets the parameter and switches the scene; python-osc from PyPI (SLIP over
# TCP) sets it by a pattern and reads it back with /dump on its connection, and a UDP
# bundle timed 3 s ahead is held until its time. MIDI: `/midi m` plays out of the port
# "midihub osc:osc" through the patch's transpose into aseqdump, `/midi/aseqdump m` goes
# straight to it, /disconnect and /connect take the route from that port away and back, and
# a note sent to "midihub osc:osc" reaches both oscdumps as `/midi m`.
# `serve --allow` (docs/daemon.md's line, as written, with 192.168.1.5 and 10.7.7.7 added to
# lo): OSC from 10.7.7.7 is dropped unanswered and an RTP-MIDI invitation from it gets NO;
# from 192.168.1.5 both are taken. A patch's `osc:` (docs/osc.md's block) starts the server
# without --osc; edited to another port, the daemon moves it; removed, it stops.
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-control.sh"
load_modules snd-virmidi
CARD=$(card_number VirMIDI)
OSC_PORT=9000

doc_block docs/osc.md osc-patch >"$WORK/patch.yaml"
start_aseqdump synth

# Whether the transpose's semitones are VALUE (nodes.list).
semitones_are() { # VALUE
    [[ $(node_parameter up semitones) == "$1" ]]
}

start_serve hub --no-audio --osc "$OSC_PORT" --patch "$WORK/patch.yaml"
assert_file_has "$(peer_err hub)" "osc: taking OSC over UDP and TCP on 127.0.0.1:$OSC_PORT" "the daemon's line for OSC"

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

step "over TCP: oscsend (size-prefixed); python-osc (SLIP) by a pattern, /dump on its connection; a bundle for later"
doc_block docs/osc.md osc-tcp >"$WORK/tcp.sh"
assert_file_has "$WORK/tcp.sh" "oscsend osc.tcp://127.0.0.1:9000 /node/up/semitones f 7" "the doc's TCP send"
assert_file_has "$WORK/tcp.sh" "oscsend osc.tcp://127.0.0.1:9000 /scene s low" "the doc's TCP scene switch"
head -n 1 "$WORK/tcp.sh" | bash || fail "the doc's oscsend over TCP failed"
wait_for "semitones 7 (over TCP) in nodes.list" 10 semitones_are 7
tail -n +2 "$WORK/tcp.sh" | bash || fail "the doc's scene switch over TCP failed"
wait_for "semitones -5 (the scene's, switched over TCP) in nodes.list" 10 semitones_are -5
/opt/pymidi-venv/bin/python - "$OSC_PORT" >"$WORK/python-osc.out" 2>&1 <<'PY' || fail "python-osc failed: $(cat "$WORK/python-osc.out")"
import sys, time
from pythonosc import osc_bundle_builder, osc_message_builder, tcp_client, udp_client
port = int(sys.argv[1])

def semitones(client):
    client.send_message("/dump", [])
    for message in client.get_messages(5):
        if message.address == "/node/up/semitones":
            return message.params[0]
    return None

surface = tcp_client.SimpleTCPClient("127.0.0.1", port)  # OSC 1.1: SLIP
surface.send_message("/node/*/semitones", -7.0)
print("after the pattern:", semitones(surface))
later = osc_bundle_builder.OscBundleBuilder(time.time() + 3)
move = osc_message_builder.OscMessageBuilder(address="/node/up/semitones")
move.add_arg(9.0)
later.add_content(move.build())
udp_client.SimpleUDPClient("127.0.0.1", port).send(later.build())
print("right after the bundle:", semitones(surface))
PY
cat "$WORK/python-osc.out"
assert_file_has "$WORK/python-osc.out" "^after the pattern: -7.0$" "the semitones python-osc read back over SLIP"
assert_file_has "$WORK/python-osc.out" "^right after the bundle: -7.0$" "the value before the bundle's time"
wait_for "semitones 9 (the bundle's, at its time) in nodes.list" 10 semitones_are 9

step "MIDI by OSC: /midi m plays through the hub's transpose into aseqdump, /midi/PORT m goes straight to it"
doc_block docs/osc.md osc-midi >"$WORK/midi.sh"
assert_file_has "$WORK/midi.sh" "oscsend 127.0.0.1 9000 /midi m 00903c64" "the doc's note into the hub"
bash "$WORK/midi.sh" || fail "the doc's MIDI sends failed"
wait_for_line "$(peer_out synth)" "Note on +0, note 69, velocity 100"  # 60 + 9 semitones
wait_for_line "$(peer_out synth)" "Note on +0, note 60, velocity 100"  # straight to the port
sleep 0.3
assert_eq 2 "$(grep -cE 'Note on +0, note (60|69)' "$(peer_out synth)")" "notes at aseqdump (each once)"
step "/disconnect and /connect the route from OSC's port to the transpose"
oscsend 127.0.0.1 9000 /disconnect ss node:surface node:up || fail "oscsend /disconnect failed"
oscsend 127.0.0.1 9000 /midi m 00903e64 || fail "oscsend /midi failed"  # 62: no route, no note
oscsend 127.0.0.1 9000 /connect ss node:surface node:up || fail "oscsend /connect failed"
oscsend 127.0.0.1 9000 /midi m 00903f64 || fail "oscsend /midi failed"  # 63 + 9 semitones
wait_for_line "$(peer_out synth)" "Note on +0, note 72, velocity 100"
assert_eq 0 "$(grep -cE 'Note on +0, note 71,' "$(peer_out synth)")" "notes played while the route was disconnected"

step "what reaches midihub osc:osc goes to the surfaces as /midi m"
assert_exit 0 midihub send "midihub osc" 80 3c 00
wait_for "the note-off that reached midihub osc:osc at both surfaces as /midi m" 10 bash -c \
    "grep -q '/midi m MIDI \\[0x00 0x80 0x3c 0x00\\]' $(peer_out dump-a) && grep -q '/midi m MIDI \\[0x00 0x80 0x3c 0x00\\]' $(peer_out dump-b)"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"

step "serve --allow: OSC and RTP-MIDI invitations from outside the network are refused, from inside taken"
ip addr add 192.168.1.5/32 dev lo && ip addr add 10.7.7.7/32 dev lo || fail "cannot add addresses to lo"
{ doc_block docs/osc.md osc-patch; printf '%s\n' "network:" "  listen: 5004"; } >"$WORK/allow.yaml"
doc_block docs/daemon.md allow-serve >"$WORK/allow-serve.sh"
read -ra allow_serve <"$WORK/allow-serve.sh"
assert_eq "midihub serve --osc 0.0.0.0:9000 --allow 192.168.1.0/24" "${allow_serve[*]}" "the doc's command"
start_serve allowhub "${allow_serve[@]:2}" --no-audio --patch "$WORK/allow.yaml"
assert_file_has "$(peer_err allowhub)" "osc, network: taking peers only from 192.168.1.0/24 and this machine" "the daemon's line (docs/daemon.md)"
wait_for_line "$(peer_err allowhub)" "network: listening as"
python3 - "$OSC_PORT" >"$WORK/allow.out" <<'PY' || fail "the allow-list peers failed: $(cat "$WORK/allow.out")"
import socket, struct, sys
port = int(sys.argv[1])
def pad(b): return b + b"\0" * (4 - len(b) % 4)
def osc(address, *values):
    return pad(address.encode()) + pad(("," + "f" * len(values)).encode()) + b"".join(struct.pack(">f", v) for v in values)
def peer(source):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((source, 0))
    s.settimeout(2)
    return s
inside, outside = peer("192.168.1.5"), peer("10.7.7.7")
inside.sendto(osc("/node/up/semitones", 5.0), ("192.168.1.5", port))
outside.sendto(osc("/node/up/semitones", 4.0), ("10.7.7.7", port))
outside.sendto(osc("/node/up/nothing", 1.0), ("10.7.7.7", port))
try:
    outside.recv(1024)
    print("outside: answered")
except socket.timeout:
    print("outside: no answer")
inside.sendto(pad(b"/dump") + pad(b","), ("192.168.1.5", port))
while True:
    reply = inside.recv(1024)
    if reply.startswith(pad(b"/node/up/semitones")):
        print("semitones:", struct.unpack(">f", reply[-4:])[0])
        break
def invite(source):
    s = peer(source)
    s.sendto(b"\xff\xffIN" + struct.pack(">III", 2, 77, 0x1234) + b"peer\0", (source, 5004))
    return s.recv(1024)[2:4].decode()
print("invitation from outside:", invite("10.7.7.7"))
print("invitation from inside:", invite("192.168.1.5"))
PY
cat "$WORK/allow.out"
assert_file_has "$WORK/allow.out" "^outside: no answer$" "OSC from outside the allow-list: dropped unanswered"
assert_file_has "$WORK/allow.out" "^semitones: 5.0$" "the inside move taken, the outside one not"
assert_file_has "$WORK/allow.out" "^invitation from outside: NO$" "an RTP-MIDI invitation from outside"
assert_file_has "$WORK/allow.out" "^invitation from inside: OK$" "an RTP-MIDI invitation from inside"
stop_peer allowhub
assert_eq 0 "$PEER_STATUS" "midihub serve --allow exit status after SIGINT"

step "a patch's osc: serves OSC without --osc; another port moves the server, none stops it"
doc_block docs/osc.md osc-section >"$WORK/section.yaml"
assert_file_has "$WORK/section.yaml" "^osc: 9000 " "the doc's osc: line"
start_serve sectionhub --no-audio --patch "$WORK/section.yaml"
wait_for_line "$(peer_err sectionhub)" "osc: taking OSC over UDP and TCP on 127.0.0.1:9000"
oscsend 127.0.0.1 9000 /node/up/semitones f 2 || fail "oscsend to the patch's port failed"
wait_for "semitones 2 (OSC on the patch's port)" 10 semitones_are 2
sed -i 's/^osc: 9000/osc: 9001/' "$WORK/section.yaml"
wait_for_line "$(peer_err sectionhub)" "osc: taking OSC over UDP and TCP on 127.0.0.1:9001"
assert_file_has "$(peer_err sectionhub)" "osc: stopped" "the old server's end"
oscsend 127.0.0.1 9001 /node/up/semitones f 4 || fail "oscsend to the moved port failed"
wait_for "semitones 4 (OSC on the moved port)" 10 semitones_are 4
sed -i '/^osc:/d' "$WORK/section.yaml"
wait_for "the server stopped (a second 'osc: stopped')" 20 bash -c "(( \$(grep -c 'osc: stopped' $(peer_err sectionhub)) == 2 ))"
stop_peer sectionhub
assert_eq 0 "$PEER_STATUS" "midihub serve with osc: exit status after SIGINT"
