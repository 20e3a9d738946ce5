# Issue 27: two hubs on two hosts — network namespaces joined by a veth pair, one
# `midihub network` in each, `tc netem` losing 5 % of the packets each way and delaying them
# 2 ms ± 1 ms. A real song (Freedoom's "On the Next Day", Tests/Integration/songs, played
# eight times as fast: 1005 notes, 274 controller changes in 19 s) goes by aplaymidi through
# Midi Through into the laptop's session port and arrives at the rack's (aseqdump): every
# note that started has ended, every controller's last value and every program is the
# song's, the notes keep their order on each channel (the notes of a lost packet replayed
# from the journal come channel by channel: the journal keeps no order across channels), and
# every note that came in a packet keeps its place. The same run with --no-journal leaves notes
# hanging; how many is printed.
# (Tests/Integration/stream_compare.py compares the two aseqdumps.)

source "$REPO/Tests/Integration/two-hosts.sh"
load_modules snd-seq-dummy

step "two hosts: namespaces laptop (10.77.0.1) and rack (10.77.0.2), 5 % loss, 2 ms ± 1 ms each way"
make_two_hosts
set_link_netem loss 5% delay 2ms 1ms
fast_song "$WORK/song.mid"

# Plays the song from laptop to rack; leaves stream_compare.py's lines in $WORK/NAME.compare.
run_song() { # NAME [--no-journal]
    local name=$1
    shift
    start_midihub_link "$@"
    play_song_across "$name" "$LINK_IN" "$LINK_OUT" "$WORK/song.mid"
    stop_peer laptop KILL
    stop_peer rack KILL
}

step "with the journal: nothing hangs, every controller and program ends where the song's does"
run_song journal
assert_eq 0 "$(compared journal sent-hanging)" "notes the song itself leaves hanging"
assert_eq 0 "$(compared journal hanging)" "notes left hanging at the rack"
assert_eq 0 "$(compared journal controllers-differing)" "controllers whose last value differs"
assert_eq 0 "$(compared journal programs-differing)" "programs that differ"
# Notes replayed from the journal after a loss come in the order they were played on their
# channel, channel by channel (the only disorder: across channels, within a lost packet).
assert_eq 0 "$(compared journal out-of-order-in-channels)" "notes out of their channel's order"
echo "        notes out of the song's order across channels (lost packets replayed channel by channel): $(compared journal out-of-order)"
(($(compared journal received-notes) > $(compared journal sent-notes) * 8 / 10)) || fail "fewer than 80 % of the notes arrived"

step "without the journal the same loss leaves notes hanging"
run_song plain --no-journal
# Without the journal nothing is replayed: every note that arrived keeps its place, though
# the link reorders packets (one overtaken by the next is dropped as late).
assert_eq 0 "$(compared plain out-of-order)" "notes out of the song's order without the journal"
(($(compared plain hanging) > 0)) || fail "no note hung without the journal: the run lost nothing it could show"
echo "        notes left hanging without the journal: $(compared plain hanging); with it: $(compared journal hanging)"
