# Network benchmarks (issue 27), run in the VM by bench/run-vm: two hosts on one kernel
# (Tests/Integration/two-hosts.sh: namespaces laptop and rack joined by a veth pair), and
# one stream carried from a port on the laptop to a port on the rack by each of three
# programs in turn, in the same boot:
#   midihub   `midihub network listen` on the rack, `midihub network connect` on the laptop
#             (RTP-MIDI over UDP with the recovery journal)
#   aseqnet   alsa-utils' server on the rack, its client on the laptop (one TCP connection)
#   qmidinet  one on each host (UDP multicast, no recovery)
# For each: the one-hop latency (seq-probe's note-ons paced at 1 kHz), the highest rate
# carried without loss (bisected over short runs), and the notes left hanging when Freedoom's
# song (four times as fast) crosses a link losing 5 % of its packets each way, 2 ms ± 1 ms late;
# and midihub's hop with and without its jitter buffer on a link whose delay varies.
# Writes $WORK/network.results, one line per run:
#   PROGRAM-latency key=value...      seq-probe's line
#   PROGRAM-lossless rate= seconds= tried=RATE:LOST,...
#   PROGRAM-loss hanging= sent_notes= received_notes= controllers_differing=
#   midihub-buffer-MS key=value...    seq-probe's line across a link delaying 2 ms ± 1 ms,
#                                     with a jitter buffer of MS (0, 5) milliseconds
# Settings: LATENCY_EVENTS (5000), THROUGHPUT_RATE (100000), BISECT_SECONDS (3),
# BISECT_STEPS (5), from .build-bench/vm-settings.env (bench/run-vm writes it).
# timeout: 1200

source "$REPO/Tests/Integration/two-hosts.sh"
source "$REPO/bench/vm/seq-probe.sh"
RESULTS_FILE=$WORK/network.results
: >"$RESULTS_FILE"
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/dev/shm HOME=/dev/shm/home
mkdir -p "$HOME"

load_modules snd-seq snd-seq-dummy
make_two_hosts
fast_song "$WORK/song.mid"

# Each start_PROGRAM_link (start_midihub_link is two-hosts.sh's) starts the program on both hosts as peers "laptop" and "rack" and
# sets LINK_IN (the laptop's port that takes the stream) and LINK_OUT (the rack's that gives it).
start_aseqnet_link() {
    start_peer rack ip netns exec rack aseqnet --name aseqnet-rack
    wait_for "aseqnet listening on the rack" 60 bash -c "ip netns exec rack ss -ltn | grep -q ':40002 '"
    start_peer laptop ip netns exec laptop aseqnet --name aseqnet-laptop 10.77.0.2
    wait_for "aseqnet's connection" 60 bash -c "ip netns exec rack ss -tn state established | grep -q ':40002 '"
    wait_for_client aseqnet-laptop
    LINK_IN="$(client_number aseqnet-laptop):0" LINK_OUT="$(client_number aseqnet-rack):0"
}

start_qmidinet_link() {
    start_peer laptop ip netns exec laptop qmidinet --no-gui --interface veth-laptop
    wait_for_client QmidiNet 60
    LINK_IN="$(client_number QmidiNet):0"
    start_peer rack ip netns exec rack qmidinet --no-gui --interface veth-rack
    wait_for "a second QmidiNet client" 60 bash -c "(( \$(aconnect -l | grep -c \"^client [0-9]*: 'QmidiNet' \") == 2 ))"
    LINK_OUT="$(aconnect -l | sed -n "s/^client \([0-9]*\): 'QmidiNet' .*/\1/p" | tail -n 1):0"
}

stop_link() {
    stop_peer laptop
    stop_peer rack
}

# A fresh link for each step of the lossless bisection (find_lossless_rate's PROBE_SETUP):
# an overloaded run must not leave the next one a link still catching up, or one whose
# session timed out and came back on another port.
restart_link() {
    stop_link
    "start_${program}_link"
}
PROBE_SETUP=restart_link
# Whether both ends of the link still run (a program that crashed under load lost the run;
# a dead one not yet reaped is a zombie, state Z).
link_alive() {
    local end state
    for end in rack laptop; do
        state=$(awk '{ print $3 }' "/proc/${PEER_PIDS[$end]:-0}/stat" 2>/dev/null)
        [[ -n $state && $state != Z ]] || return 1
    done
}
PROBE_LINK_ALIVE=link_alive

for program in midihub aseqnet qmidinet; do
    step "$program: one hop and the lossless rate, on a clean link"
    set_link_netem none
    "start_${program}_link"
    run_probe "$program-latency" "$program-hop" link --count "$LATENCY_EVENTS" --rate 1000
    find_lossless_rate "$program-lossless" link
    stop_link

    step "$program: the song across a link losing 5 % each way"
    set_link_netem loss 5% delay 2ms 1ms
    "start_${program}_link"
    play_song_across "$program" "$LINK_IN" "$LINK_OUT" "$WORK/song.mid"
    stop_link
    echo "$program-loss hanging=$(compared "$program" hanging) sent_notes=$(compared "$program" sent-notes)" \
        "received_notes=$(compared "$program" received-notes)" \
        "controllers_differing=$(compared "$program" controllers-differing)" | tee -a "$RESULTS_FILE"
done

step "midihub's jitter buffer (5 ms) against none, on a link delaying each packet 2 ms ± 1 ms"
set_link_netem delay 2ms 1ms
for buffer in 0 5; do
    start_midihub_link --jitter-buffer "$buffer"
    run_probe "midihub-buffer-$buffer" "buffer$buffer" link --count "$LATENCY_EVENTS" --rate 1000
    stop_link
done
