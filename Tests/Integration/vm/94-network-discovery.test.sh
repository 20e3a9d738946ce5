# Issue 27, part 5: network sessions announced and found through Avahi (DNS-SD,
# `_apple-midi._udp`), against the real avahi-daemon on a D-Bus system bus of the VM's own
# and avahi-browse / avahi-publish as the other machines: without D-Bus, browse and listen
# say in one line that they cannot use Avahi; a host started before avahi-daemon says it is
# not announced and is announced once the daemon starts; a listening host
# appears in avahi-browse with its name and control port (docs/network.md's `announced`
# lines), and so does a daemon whose patch listens (and its OSC server, as `_osc._udp` and
# `_osc._tcp`); `midihub network browse` lists what the others announce (the doc's `browse-lines`) and `connect` takes a listed name; a name already taken becomes "NAME #2"; Ctrl-C
# withdraws the announcement.
# timeout: 600

source "$REPO/Tests/Integration/two-hosts.sh"
source "$REPO/Tests/Integration/serve.sh"
load_modules snd-seq-dummy
export HOME=/dev/shm/home
mkdir -p "$HOME"

step "without D-Bus: browse fails in one line, listen says it is not announced"
assert_exit 1 midihub network browse
assert_one_line_error "^midihub: cannot look for sessions on the network: Avahi: .* \(fix: apt install avahi-daemon"
start_peer alone midihub network listen --name alone --port 5700
wait_for_peer_line alone "$(peer_out alone)" "listening as 'alone'"
wait_for_peer_line alone "$(peer_err alone)" "^midihub: not announced on the network: Avahi: .* \(fix: apt install avahi-daemon"
stop_peer alone

step "D-Bus's system bus without avahi-daemon: listen says it is not announced yet"
mkdir -p /run/dbus /run/avahi-daemon
dbus-daemon --system --fork >/dev/null || fail "dbus-daemon --system did not start"
start_peer early midihub network listen --name early --port 5600
wait_for_peer_line early "$(peer_out early)" "listening as 'early'"
wait_for_peer_line early "$(peer_err early)" "^midihub: not announced on the network: avahi-daemon is not running; "

step "avahi-daemon on a multicast interface"
ip link add mdns0 type dummy && ip link set mdns0 multicast on && ip addr add 10.78.0.1/24 dev mdns0 \
    && ip link set mdns0 up || fail "cannot make the dummy interface mdns0"
avahi-daemon --daemonize --no-drop-root --no-chroot --no-rlimits || fail "avahi-daemon did not start"
wait_for "avahi-daemon running" 60 avahi-daemon --check

# Every _apple-midi._udp service avahi-browse resolves, as "NAME PORT" lines (IPv4, once each).
announced() {
    timeout 20 avahi-browse -rpt -k _apple-midi._udp | awk -F';' '$1 == "=" && $3 == "IPv4" { print $4, $9 }' | sort -u
}
announced_has() { # NAME PORT
    announced | grep -Fqx "$1 $2"
}

step "the host started before the daemon is announced once it runs"
wait_for "avahi-browse shows 'early' on port 5600" 60 announced_has early 5600
wait_for_peer_line early "$(peer_out early)" "^announced on the network as 'early' \(_apple-midi._udp, port 5600\)$"
stop_peer early

step "a listening host announces itself: docs/network.md's announced lines, and avahi-browse sees it"
start_peer rack midihub network listen --name rack
wait_for_peer_line rack "$(peer_out rack)" "^announced on the network as 'rack'"
doc_block docs/network.md announced >"$WORK/announced.doc"
assert_same_files "$WORK/announced.doc" "$(peer_out rack)" "the rack's lines"
wait_for "avahi-browse shows 'rack' on port 5004" 60 announced_has rack 5004

step "browse lists what the others announce, as the doc's browse lines show them; connect takes a name"
mapfile -t doc_commands < <(doc_block docs/network.md browse)
assert_eq 'midihub network browse' "${doc_commands[0]}" "the doc's browse command"
start_peer mac midihub network listen --name "Studio Mac" --port 5104
wait_for_peer_line mac "$(peer_out mac)" "^announced on the network as 'Studio Mac'"
wait_for "avahi-browse shows 'Studio Mac'" 60 announced_has 'Studio\032Mac' 5104
${doc_commands[0]} >"$WORK/browse.out" 2>"$WORK/browse.err" || fail "browse failed: $(cat "$WORK/browse.err")"
cat "$WORK/browse.out"
# The doc's machines have their own addresses, ports and host names.
normalize() { sed -E 's/[0-9.]+:[0-9]+  [^ ]+$/ADDRESS:PORT  HOST/'; }
doc_block docs/network.md browse-lines | normalize >"$WORK/browse.doc"
normalize <"$WORK/browse.out" >"$WORK/browse.normal"
assert_same_files "$WORK/browse.doc" "$WORK/browse.normal" "browse's lines (addresses, ports and hosts aside)"
grep -Eq "^Studio Mac  10\.78\.0\.1:5104  " "$WORK/browse.out" || fail "browse did not give Studio Mac's address and port"
midihub network browse --json >"$WORK/browse.json" || fail "browse --json failed"
assert_eq '{"address":"10.78.0.1","name":"rack","port":5004}' \
    "$(jq -c '.[] | select(.name == "rack") | {address, name, port}' "$WORK/browse.json")" "browse --json's object for rack"
assert_match '\.local$' "$(jq -r '.[] | select(.name == "rack") | .host' "$WORK/browse.json")" "rack's host name"
# The doc's connect line, with ports of its own (the rack has 5004 here).
start_peer laptop bash -c "exec ${doc_commands[1]} --name laptop --port 5204"
wait_for_peer_line laptop "$(peer_out laptop)" "session up: 'Studio Mac' at 10\.78\.0\.1:5104"
wait_for_peer_line mac "$(peer_out mac)" "session up: 'laptop'"
stop_peer laptop
assert_exit 2 midihub network connect "Nobody Here" --port 5304
assert_one_line_error "^midihub: no host and no session on the network named 'Nobody Here' \(fix: "

step "a name another machine announces becomes 'NAME #2'"
start_peer other avahi-publish -s studio _apple-midi._udp 5300
wait_for "avahi-browse shows avahi-publish's 'studio'" 60 announced_has studio 5300
start_peer studio midihub network listen --name studio --port 5400
wait_for_peer_line studio "$(peer_out studio)" "^announced on the network as 'studio #2' \(_apple-midi._udp, port 5400\)$"
assert_file_has "$(peer_err studio)" "^midihub: another host on the network is 'studio': announced as 'studio #2' instead$" \
    "the rename's line"
stop_peer studio
stop_peer other

step "a daemon whose patch listens is announced too, and says so in its log; so is its OSC server (docs/osc.md)"
printf 'network:\n  listen: { port: 5800, name: hub }\n' >"$WORK/hub.yaml"
start_serve hub --no-audio --patch "$WORK/hub.yaml" --osc 0.0.0.0:9000
wait_for_peer_line hub "$(peer_err hub)" "network: announced on the network as 'hub' \(_apple-midi._udp, port 5800\)" 60
wait_for "avahi-browse shows the daemon's 'hub' on port 5800" 60 announced_has hub 5800
wait_for_peer_line hub "$(peer_err hub)" "osc: announced on the network as 'midihub on $(hostname)' \(_osc._udp, _osc._tcp, port 9000\)" 60
for type in _osc._udp _osc._tcp; do
    timeout 20 avahi-browse -rpt -k "$type" >"$WORK/osc$type.browse"
    assert_file_has "$WORK/osc$type.browse" "^=;[^;]*;IPv4;midihub.032on.032$(hostname);$type;.*;9000;" "avahi-browse's $type line"
done
stop_peer hub
wait_for "avahi-browse no longer shows 'hub'" 60 bash -c "! avahi-browse -rpt -k _apple-midi._udp | grep -q ';hub;'"

step "Ctrl-C withdraws the announcement"
stop_peer rack
assert_eq 0 "$PEER_STATUS" "network listen's exit status after SIGINT"
wait_for "avahi-browse no longer shows 'rack'" 60 bash -c "! avahi-browse -rpt -k _apple-midi._udp | grep -q ';rack;'"
stop_peer mac
