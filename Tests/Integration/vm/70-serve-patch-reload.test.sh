# Issue 11, kernel test: the daemon's patch file reloaded. `midihub serve --patch` runs a
# keyboard → transpose → aseqdump patch. Edited on disk (sed -i: a new file by rename), it is
# reloaded and the next note comes out transposed as the new file says; a broken edit is
# logged with its file:line:column and the running setup stays; an edit the watch cannot see
# (same inode, size and time) is taken on SIGHUP; `midihub patch load FILE` switches to
# another file, which is then the one watched. docs/mappings.md's setlist patch: a program
# change switches to a scene that loads another patch (transposing the other way), another
# switches back; a note held across the switch ends.
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-control.sh"
start_controller_and_dump
write_transpose_patch
# On the guest's tmpfs: the shared results folder does not keep a file's time to the nanosecond.
PATCH=$XDG_RUNTIME_DIR/patch.yaml
mv "$WORK/patch.yaml" "$PATCH"
start_serve hub --no-audio --patch "$PATCH"
hub_client=$(client_number midihub)
wait_for "virmidi -> midihub" 20 bash -c "aconnect -l | grep -A3 \"'Virtual Raw MIDI $card-0'\" | grep -q \"Connecting To: .*$hub_client:0\""

# Plays note 60 and waits until aseqdump shows it as note NOTE.
note_comes_out_as() { # NOTE MESSAGE
    amidi -p "hw:$card,0" -S '90 3C 64 80 3C 00' || fail "amidi -S failed"
    wait_for "$2: note 60 comes out as $1" 10 bash -c "grep -Eq 'Note on +0, note $1, velocity 100$' '$dump'"
    : >"$dump"
}

step "as started: +12"
note_comes_out_as 72 "the patch as started"

step "edited on disk (sed -i): reloaded, +7"
sed -i 's/semitones: 12/semitones: 7/' "$PATCH"
wait_for_peer_line hub "$(peer_err hub)" "reloaded patch $PATCH \(changed on disk\)" 10
assert_eq 7 "$(node_parameter up semitones)" "up.semitones after the edit"
note_comes_out_as 67 "after the edit"

step "a broken edit: one line with file:line:column, the setup stays"
sed -i 's/processor: transpose/processor: transpoze/' "$PATCH"
line=$(grep -n transpoze "$PATCH" | cut -d: -f1)
wait_for_peer_line hub "$(peer_err hub)" "patch not reloaded, the running setup stays: $PATCH:$line:[0-9]+: unknown processor 'transpoze'" 10
assert_eq 7 "$(node_parameter up semitones)" "up.semitones after the broken edit"
note_comes_out_as 67 "after the broken edit"

step "fixed, then an edit the watch cannot see is taken on SIGHUP"
sed -i 's/transpoze/transpose/; s/semitones: 7/semitones: 5/' "$PATCH"
wait_for "the fixed file reloaded" 10 bash -c "(( \$(grep -c 'reloaded patch $PATCH (changed on disk)' '$(peer_err hub)') >= 2 ))"
# Rewritten in place (the same inode and size) and its time set back at once (microseconds
# between the write and the reset: the once-a-second watch does not fall in between).
python3 - "$PATCH" <<'PY' || fail "cannot rewrite the patch in place"
import os, sys
path = sys.argv[1]
before = os.stat(path)
with open(path, "r+") as patch:
    text = patch.read().replace("semitones: 5", "semitones: 3")
    patch.seek(0)
    patch.write(text)
os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
PY
sleep 2
assert_eq 5 "$(node_parameter up semitones)" "up.semitones before SIGHUP (the watch saw nothing)"
kill -HUP "${PEER_PIDS[hub]}"
wait_for_peer_line hub "$(peer_err hub)" "reloaded patch $PATCH \(SIGHUP\)" 10
assert_eq 3 "$(node_parameter up semitones)" "up.semitones after SIGHUP"
note_comes_out_as 63 "after SIGHUP"

step "midihub patch load switches to another file, which is watched from then on"
sed 's/semitones: 3/semitones: -12/' "$PATCH" >"$WORK/other.yaml"
midihub patch load "$WORK/other.yaml" >"$WORK/load.out" || fail "midihub patch load failed"
assert_eq "loaded $WORK/other.yaml: 3 nodes, 2 routes, 1 rules" "$(<"$WORK/load.out")" "what patch load prints"
note_comes_out_as 48 "after patch load"
sed -i 's/semitones: -12/semitones: -5/' "$WORK/other.yaml"
wait_for_peer_line hub "$(peer_err hub)" "reloaded patch $WORK/other.yaml \(changed on disk\)" 10
note_comes_out_as 55 "after editing the loaded file"

step "a program change switches to a scene that loads another patch, and back (setlist-patch)"
setlist=$XDG_RUNTIME_DIR/setlist
mkdir -p "$setlist"
doc_block docs/mappings.md setlist-patch >"$setlist/verse.yaml"
sed 's/semitones: 2 }/semitones: -2 }/; s/up.semitones: 2/up.semitones: -2/; s/^  verse: .*/  verse: { program: 0, patch: verse.yaml }/; s/^  bridge: .*/  bridge: { program: 1, set: { up.semitones: -2 } }/' \
    "$setlist/verse.yaml" >"$setlist/bridge.yaml"
midihub patch load "$setlist/verse.yaml" >/dev/null || fail "loading the setlist's first patch"
note_comes_out_as 62 "the verse patch"
amidi -p "hw:$card,0" -S 'C0 01' || fail "amidi -S failed"
wait_for_peer_line hub "$(peer_err hub)" "scene bridge: loaded patch $setlist/bridge.yaml" 10
note_comes_out_as 58 "after program 1 loaded the bridge patch"
amidi -p "hw:$card,0" -S '90 3C 64' || fail "amidi -S failed"  # held across the switch back
wait_for "the held note comes out" 10 bash -c "grep -Eq 'Note on +0, note 58, velocity 100$' '$dump'"
amidi -p "hw:$card,0" -S 'C0 00' || fail "amidi -S failed"
wait_for_peer_line hub "$(peer_err hub)" "scene verse: loaded patch $setlist/verse.yaml" 10
amidi -p "hw:$card,0" -S '80 3C 00' || fail "amidi -S failed"
wait_for "the note held across the switch ends" 10 bash -c "grep -Eq 'Note off +0, note 58' '$dump'"
: >"$dump"
note_comes_out_as 62 "after program 0 loaded the verse patch again"
assert_match "^\* verse \(program 0\): up.semitones = 2$" "$(midihub scene | grep verse)" "the loaded patch's scenes"

stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
