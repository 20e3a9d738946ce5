# Issue 25, kernel test: what one burst of input sends leaves in one `write` for all
# receivers, and the kernel stops that write at a message it refuses — yet one full receiver
# still costs the others nothing. Two aseqdumps are the hub's external nodes ("victim" first
# in the routes, so its copy of each event comes first in the write, then "other"). The hub
# learns the victim's input room from a first note; then the victim is stopped with SIGSTOP
# and aplaymidi fills its input straight, behind the hub's back, so the hub's count of its
# room is stale. A burst of 80 events then comes through the hub: the kernel refuses the
# victim's first copy and stops the write there. "other" still gets all 80, in order; the 80
# for the victim wait in its queue (nodes.list: 80 waiting, none dropped). After SIGCONT the
# victim's overflowed input is emptied by the kernel, and it gets the burst from the hub's
# queue, whole and in order.
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
load_modules snd-seq-dummy

song() { # NAME NOTES CHANNEL: NOTES notes on CHANNEL (0-based), on and off, close together
    awk -v csv="$WORK/$1.csv" -v notes="$2" -v channel="$3" 'BEGIN {
        print "0, 0, Header, 0, 1, 480" >csv; print "1, 0, Start_track" >csv; print "1, 0, Tempo, 500000" >csv
        for (i = 0; i < notes; i++) {
            printf "1, %d, Note_on_c, %d, %d, 90\n", i, channel, 40 + i % 60 >csv
            printf "Note on %d, note %d, velocity 90\n", channel, 40 + i % 60
            printf "1, %d, Note_off_c, %d, %d, 0\n", i, channel, 40 + i % 60 >csv
            printf "Note off %d, note %d, velocity 0\n", channel, 40 + i % 60
        }
        printf "1, %d, End_track\n", notes >csv; print "0, 0, End_of_file" >csv
    }' >"$WORK/$1.txt"
    csv_to_midi "$WORK/$1.mid" <"$WORK/$1.csv"
}
song first 1 0
song fill 600 5
song burst 40 1

step "two aseqdumps as the hub's external nodes"
start_aseqdump victim
victim_client=$(aseqdump_client victim)
start_aseqdump other
other_client=$(aseqdump_client other)
cat >"$WORK/patch.yaml" <<YAML
nodes:
  player: { source: 'app:"aplaymidi:*"' }
  victim: { external: '$victim_client:0' }
  other: { external: '$other_client:0' }
routes:
  - player -> victim
  - player -> other
YAML
start_serve hub --no-audio --patch "$WORK/patch.yaml"

step "a first note through the hub: it reads the victim's room"
aplaymidi -p midihub:0 "$WORK/first.mid" || fail "aplaymidi -p midihub:0 failed"
wait_for_line "$(peer_out victim)" "Note off +0, note 40" 20
wait_for_line "$(peer_out other)" "Note off +0, note 40" 20

step "the victim stops reading and its input is filled behind the hub's back"
kill -STOP "${PEER_PIDS[victim]}"
aplaymidi -p "$victim_client:0" "$WORK/fill.mid" || fail "aplaymidi -p $victim_client:0 failed"

step "a burst through the hub: the kernel stops the shared write at the victim's copy"
aplaymidi -p midihub:0 "$WORK/burst.mid" || fail "aplaymidi -p midihub:0 failed"
wait_for_line "$(peer_out other)" "Note off +1, note 79" 30
sleep 0.5
cat "$WORK/first.txt" "$WORK/burst.txt" >"$WORK/expected.txt"
aseqdump_events "$(peer_out other)" >"$WORK/other.txt"
assert_same_files "$WORK/expected.txt" "$WORK/other.txt" "other's events: the first note, then the whole burst in order"
midihub nodes --json >"$WORK/nodes.json" || fail "midihub nodes --json failed"
assert_eq "80 0" "$(jq -r '.[] | select(.id == "victim") | "\(.receiver.waiting) \(.receiver.dropped)"' "$WORK/nodes.json")" \
    "nodes.list: the burst waits for the victim, nothing dropped"
assert_eq "null" "$(jq -r '.[] | select(.id == "other") | .receiver' "$WORK/nodes.json")" "nodes.list: other keeps up"

step "SIGCONT: the victim gets the burst from the hub's queue, whole and in order"
kill -CONT "${PEER_PIDS[victim]}"
wait_for_line "$(peer_out victim)" "Note off +1, note 79" 30
sleep 0.5
aseqdump_events "$(peer_out victim)" | grep -v "^Note [a-z]* 5," >"$WORK/victim.txt"
assert_same_files "$WORK/expected.txt" "$WORK/victim.txt" "the victim's events from the hub: the first note, then the burst in order"
assert_file_lacks "$(peer_err hub)" "stopped taking MIDI" "the hub dropped nothing for the victim"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
