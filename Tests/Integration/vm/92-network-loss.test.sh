# Issue 27: two hubs on two hosts — network namespaces joined by a veth pair, one
# `midihub network` in each, `tc netem` losing 5 % of the packets each way and delaying them
# 2 ms ± 1 ms. A real song (Freedoom's "On the Next Day", Tests/Integration/songs, played
# four times as fast: 1005 notes, 274 controller changes in 38 s) goes by aplaymidi through
# Midi Through into the laptop's session port and arrives at the rack's (aseqdump): every
# note that started has ended, every controller's last value and every program is the
# song's, the notes keep their order (but for notes of a lost packet replayed from the
# journal, by key). The same run with --no-journal leaves notes hanging; how many is printed.
# (Tests/Integration/stream_compare.py compares the two aseqdumps.)

load_modules snd-seq-dummy veth sch_netem

step "two hosts: namespaces laptop (10.77.0.1) and rack (10.77.0.2), 5 % loss, 2 ms ± 1 ms each way"
ip netns add laptop && ip netns add rack || fail "ip netns add failed"
ip link add veth-laptop netns laptop type veth peer name veth-rack netns rack || fail "no veth pair"
for side in laptop:10.77.0.1 rack:10.77.0.2; do
    ns=${side%%:*} address=${side#*:}
    ip -n "$ns" addr add "$address/24" dev "veth-$ns" && ip -n "$ns" link set "veth-$ns" up \
        && ip -n "$ns" link set lo up || fail "cannot set up $ns"
    ip netns exec "$ns" tc qdisc add dev "veth-$ns" root netem loss 5% delay 2ms 1ms \
        || fail "tc netem refused in $ns"
done

midicsv "$REPO/Tests/Integration/songs/on-the-next-day.mid" \
    | awk -F', ' 'BEGIN { OFS = ", " } $3 == "Tempo" { $4 = int($4 / 4) } { print }' \
    | csvmidi >"$WORK/song.mid" || fail "cannot speed the song up"
through=$(client_number "Midi Through")

# Plays the song from laptop to rack; leaves stream_compare.py's lines in $WORK/NAME.compare.
run_song() { # NAME [--no-journal]
    local name=$1 journal=${2:-}
    start_peer "rack-$name" ip netns exec rack midihub network listen --name rack --address 10.77.0.2 $journal
    wait_for_peer_line "rack-$name" "$(peer_out "rack-$name")" "listening as 'rack'"
    start_peer "laptop-$name" ip netns exec laptop midihub network connect 10.77.0.2 --name laptop --address 10.77.0.1 $journal
    wait_for_peer_line "laptop-$name" "$(peer_out "laptop-$name")" "session up: 'rack'" 60
    wait_for_peer_line "rack-$name" "$(peer_out "rack-$name")" "session up: 'laptop'" 60
    local laptop_port rack_port
    laptop_port=$(grep -oE "port [0-9]+:[0-9]+" "$(peer_out "laptop-$name")" | head -n 1 | cut -d' ' -f2)
    rack_port=$(grep -oE "port [0-9]+:[0-9]+" "$(peer_out "rack-$name")" | head -n 1 | cut -d' ' -f2)
    start_aseqdump "sent-$name" -p "$through:0"
    start_aseqdump "received-$name" -p "$rack_port"
    aconnect "$through:0" "$laptop_port" || fail "aconnect to the laptop's session port failed"
    aplaymidi -p "$through:0" "$WORK/song.mid" || fail "aplaymidi failed"
    sleep 4  # the journal sent again after the last packet, if that one was lost
    aconnect -d "$through:0" "$laptop_port"
    python3 "$REPO/Tests/Integration/stream_compare.py" "$(peer_out "sent-$name")" "$(peer_out "received-$name")" \
        >"$WORK/$name.compare" || fail "stream_compare.py failed"
    sed "s/^/        $name: /" "$WORK/$name.compare"
    for peer in "sent-$name" "received-$name" "laptop-$name" "rack-$name"; do stop_peer "$peer" KILL; done
}

value() { # NAME KEY
    awk -v key="$2" '$1 == key { print $2 }' "$WORK/$1.compare"
}

step "with the journal: nothing hangs, every controller and program ends where the song's does"
run_song journal
assert_eq 0 "$(value journal sent-hanging)" "notes the song itself leaves hanging"
assert_eq 0 "$(value journal hanging)" "notes left hanging at the rack"
assert_eq 0 "$(value journal controllers-differing)" "controllers whose last value differs"
assert_eq 0 "$(value journal programs-differing)" "programs that differ"
# A note replayed from the journal after a loss comes in the journal's order (by key) among
# the notes of its lost packet, which sounded together; every other note keeps its place.
(($(value journal out-of-order) * 50 <= $(value journal received-notes))) \
    || fail "more than 2 % of the notes out of order: $(value journal out-of-order)"
(($(value journal received-notes) > $(value journal sent-notes) * 8 / 10)) || fail "fewer than 80 % of the notes arrived"

step "without the journal the same loss leaves notes hanging"
run_song plain --no-journal
(($(value plain hanging) > 0)) || fail "no note hung without the journal: the run lost nothing it could show"
echo "        notes left hanging without the journal: $(value plain hanging); with it: $(value journal hanging)"
