# Two hosts on one kernel, for the network tests and benchmarks (vm/92-network-loss.test.sh,
# bench/vm/network.bench.sh): network namespaces "laptop" (10.77.0.1) and "rack"
# (10.77.0.2) joined by a veth pair. The ALSA sequencer is not namespaced: a program run in
# either namespace (`ip netns exec NS ...`) shows its ports to every other, so a stream can
# go from a port through one host's network program to the other's and out at a port there.
# Sourced after lib.sh.

# Makes the two namespaces and their link, with multicast routed over it (qmidinet).
make_two_hosts() {
    load_modules veth sch_netem
    ip netns add laptop && ip netns add rack || fail "ip netns add failed"
    ip link add veth-laptop netns laptop type veth peer name veth-rack netns rack || fail "no veth pair"
    local side ns address
    for side in laptop:10.77.0.1 rack:10.77.0.2; do
        ns=${side%%:*} address=${side#*:}
        ip -n "$ns" addr add "$address/24" dev "veth-$ns" && ip -n "$ns" link set "veth-$ns" up \
            && ip -n "$ns" link set lo up && ip -n "$ns" route add 224.0.0.0/4 dev "veth-$ns" \
            || fail "cannot set up $ns"
    done
}

# Puts `tc netem ARGS` on both ends of the link (each direction), or takes it off with "none".
set_link_netem() { # none | NETEM-ARGS...
    local ns
    for ns in laptop rack; do
        if [[ $1 == none ]]; then
            ip netns exec "$ns" tc qdisc del dev "veth-$ns" root 2>/dev/null
        else
            ip netns exec "$ns" tc qdisc replace dev "veth-$ns" root netem "$@" || fail "tc netem $* refused in $ns"
        fi
    done
}

# `midihub network` on both hosts, as peers "laptop" and "rack": the rack listens, the laptop
# invites it. Sets LINK_IN (the laptop's session port, which takes a stream onto the network)
# and LINK_OUT (the rack's, where it comes out). ARGS go to both (--no-journal).
start_midihub_link() { # [ARGS...]
    start_peer rack ip netns exec rack midihub network listen --name rack --address 10.77.0.2 "$@"
    wait_for_peer_line rack "$(peer_out rack)" "listening as 'rack'"
    start_peer laptop ip netns exec laptop midihub network connect 10.77.0.2 --name laptop --address 10.77.0.1 "$@"
    wait_for_peer_line laptop "$(peer_out laptop)" "session up: 'rack'" 60
    wait_for_peer_line rack "$(peer_out rack)" "session up: 'laptop'" 60
    LINK_IN=$(grep -oE "port [0-9]+:[0-9]+" "$(peer_out laptop)" | head -n 1 | cut -d' ' -f2)
    LINK_OUT=$(grep -oE "port [0-9]+:[0-9]+" "$(peer_out rack)" | head -n 1 | cut -d' ' -f2)
}

# The song of the loss runs, as a file eight times as fast as written: Freedoom's "On the Next
# Day" (Tests/Integration/songs), 1005 notes and 274 controller changes in 19 s.
fast_song() { # OUT.mid
    midicsv "$REPO/Tests/Integration/songs/on-the-next-day.mid" \
        | awk -F', ' 'BEGIN { OFS = ", " } $3 == "Tempo" { $4 = int($4 / 8) } { print }' \
        | csvmidi >"$1" || fail "cannot speed the song up"
}

# Plays SONG by aplaymidi through Midi Through into the port IN (one host's way onto the
# network) and records what leaves OUT (the other host's) and what was sent, with aseqdump;
# leaves stream_compare.py's lines (hanging, controllers-differing, ...) in $WORK/NAME.compare.
play_song_across() { # NAME IN OUT SONG
    local name=$1 in=$2 out=$3 song=$4 through
    through=$(client_number "Midi Through")
    start_aseqdump "sent-$name" -p "$through:0"
    start_aseqdump "received-$name" -p "$out"
    aconnect "$through:0" "$in" || fail "aconnect Midi Through to $in failed"
    aplaymidi -p "$through:0" "$song" || fail "aplaymidi failed"
    sleep 4  # a recovery journal sent again after the last packet, if that one was lost
    aconnect -d "$through:0" "$in"
    python3 "$REPO/Tests/Integration/stream_compare.py" "$(peer_out "sent-$name")" "$(peer_out "received-$name")" \
        >"$WORK/$name.compare" || fail "stream_compare.py failed"
    sed "s/^/        $name: /" "$WORK/$name.compare"
    stop_peer "sent-$name" KILL
    stop_peer "received-$name" KILL
}

compared() { # NAME KEY: a value of play_song_across's comparison
    awk -v key="$2" '$1 == key { print $2 }' "$WORK/$1.compare"
}
