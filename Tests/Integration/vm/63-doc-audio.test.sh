# The audio examples of docs/live.md and docs/audio-output.md against kernel ALSA: each
# message block is exactly what midihub prints (a step name here is the block's marker
# NAME), and the loopback recipe runs line by line as written.
source "$REPO/Tests/Integration/synth-audio.sh"
cd "$WORK" || fail "no $WORK"
write_a4_sequence a4.mid 3

step "no-sound-card: 'midihub play' of docs/live.md without /dev/snd"
[[ -e /dev/snd ]] && fail "/dev/snd exists before any module is loaded"
(cd "$REPO" && midihub play sequences/little-song.mid) >"$WORK/out" 2>"$WORK/err"
assert_eq 1 "$?" "exit status without a sound card"
assert_file_is_doc_block "$WORK/err" docs/live.md no-sound-card

load_modules snd-aloop
step "unknown-device: an ALSA name that names nothing"
assert_exit 1 midihub play a4.mid --device hw:9,0
assert_file_is_doc_block "$WORK/err" docs/audio-output.md unknown-device

step "rtprio-denied: a user without rtprio (nobody, in the sound devices' group)"
cp a4.mid /tmp/a4.mid && chmod 644 /tmp/a4.mid || fail "cannot copy a4.mid to /tmp"
group=$(stat -c %g /dev/snd/pcmC0D0p) || fail "no /dev/snd/pcmC0D0p"
prlimit --rtprio=0 setpriv --reuid=65534 --regid=65534 --groups "$group" \
    "$(command -v midihub)" play /tmp/a4.mid --device hw:Loopback,0,0 --period 1024 >"$WORK/out" 2>"$WORK/rt.err"
assert_eq 0 "$?" "midihub play as nobody (stderr: $(head -c 400 "$WORK/rt.err"))"
doc_block docs/audio-output.md rtprio-denied >"$WORK/rt.doc"
grep -qxFf "$WORK/rt.doc" "$WORK/rt.err" || fail "the realtime warning of the doc is not on stderr: $(head -c 400 "$WORK/rt.err")"

step "limits-file: the doc's limits.d file, nobody in the audio group, a PAM session (runuser)"
mount -t tmpfs none /etc/security/limits.d || fail "cannot mount a tmpfs over /etc/security/limits.d"
doc_block docs/audio-output.md limits-file >/etc/security/limits.d/audio.conf
# `usermod -aG audio nobody` on a read-only /etc: a copy of /etc/group bound over it.
sed -E '/^audio:/{s/:$/:nobody/;t;s/$/,nobody/}' /etc/group >/tmp/group && mount --bind /tmp/group /etc/group \
    || fail "cannot put nobody in the audio group"
assert_eq "95 unlimited" "$(runuser -u nobody -- sh -c 'echo $(ulimit -r) $(ulimit -l)')" "nobody's rtprio and memlock limits"
runuser -u nobody -- "$(command -v midihub)" play /tmp/a4.mid --device hw:Loopback,0,0 --period 1024 >"$WORK/out" 2>"$WORK/rt.err"
assert_eq 0 "$?" "midihub play as nobody with the limits (stderr: $(head -c 400 "$WORK/rt.err"))"
assert_file_lacks "$WORK/rt.err" "realtime priority" "a realtime warning with rtprio 95"
umount /etc/group /etc/security/limits.d || fail "cannot unmount the limits and group files"

step "loopback-recipe: docs/audio-output.md's recipe, line by line (a4.mid: A4 for 3 s)"
mapfile -t recipe < <(doc_block docs/audio-output.md loopback-recipe | sed -E 's/ +# .*//')
assert_eq 5 "${#recipe[@]}" "lines of the recipe"
eval "${recipe[0]}"
wait_for_loopback_capture
eval "${recipe[1]}" >"$WORK/out" 2>"$WORK/play.err" || fail "'${recipe[1]}': $(head -c 400 "$WORK/play.err")"
eval "${recipe[2]}"
assert_frequency 440 "$(eval "${recipe[3]}")" 50 "the strongest bin of the recipe's recording"

step "device-gone: the recipe's unplug line while midihub plays"
write_a4_sequence long.mid 60
card=$(card_number Loopback)
start_peer play midihub play long.mid --device hw:Loopback,0,0 --period 1024
wait_for_line "/proc/asound/card$card/pcm0p/sub0/status" "state: RUNNING" 60
eval "${recipe[4]}" || fail "'${recipe[4]}' failed"
wait_peer play 60
assert_eq 1 "$PEER_STATUS" "midihub play's exit status when its device is gone"
assert_file_is_doc_block "$(peer_err play)" docs/audio-output.md device-gone
