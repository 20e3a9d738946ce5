# Issue 28, kernel test: no page fault reaches the disk on the render thread. FluidR3_GM
# is copied onto a disk of the VM's own, the page cache is emptied, then `midihub serve
# --soundfont` with that copy starts: it reads the font's file into the kernel's page
# cache on a thread of its own (fincore sees it fill),
# while its own resident memory stays far below the font's 141 MB (the cache is not the
# process's memory). Then a snd-virmidi controller plays a note on program 0, and one on
# each of fifteen more programs, whose samples the daemon had not touched: every page of
# the font was in the cache before the first note and still is, so the render thread
# ("midihub-render") read none of them from the disk.
# timeout: 300

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/serve-hotplug.sh"
load_modules snd-aloop snd-virmidi
[[ -r /usr/share/sounds/sf2/FluidR3_GM.sf2 ]] || fail "no FluidR3_GM SoundFont (fix: scripts/install-deps installs fluid-soundfont-gm)"
# The font on a disk of the VM's own (an ext4 image on a loop device): the host's folders
# reach the VM through a shared filesystem whose reads bypass the page cache.
modprobe loop || fail "modprobe loop failed"
DISK=/dev/shm/fontdisk.img
truncate -s 192M "$DISK" && mkfs.ext4 -q -F "$DISK" || fail "cannot make the disk image"
mkdir -p /dev/shm/fontdisk && mount -o loop "$DISK" /dev/shm/fontdisk || fail "cannot mount the disk image"
trap 'stop_all_peers; umount /dev/shm/fontdisk 2>/dev/null; rm -f "$DISK"' EXIT
FONT=/dev/shm/fontdisk/FluidR3_GM.sf2
cp /usr/share/sounds/sf2/FluidR3_GM.sf2 "$FONT" || fail "cannot copy the font to the disk"

# Pages of FILE in the page cache (fincore's count).
cached_pages() { fincore --bytes --noheadings --output PAGES "$1" | tr -d ' '; }
font_pages=$(( ($(stat -c %s "$FONT") + 4095) / 4096 ))

step "the page cache emptied"
sync
echo 3 >/proc/sys/vm/drop_caches || fail "cannot drop the page cache"
before=$(cached_pages "$FONT")
((before * 10 < font_pages)) || fail "the font is still cached after drop_caches ($before of $font_pages pages)"
# The program's own code back in the cache (a render through another font runs the same
# voices), so the faults counted below can only be the font's.
midihub render "$REPO/sequences/little-song.mid" --soundfont /usr/share/sounds/sf2/TimGM6mb.sf2 -o "$WORK/warm-up.wav" \
    >/dev/null || fail "midihub render failed"

start_serve hub --device hw:Loopback,0,0 --soundfont "$FONT"
wait_for_peer_line hub "$(peer_err hub)" "midihub: audio: playing to hw:Loopback,0,0" 60
hub_pid=${PEER_PIDS[hub]}
wait_for_controller_route "the controller"

step "the daemon reads the font into the page cache, not into its own memory"
all_cached() { (($(cached_pages "$FONT") >= font_pages)); }
wait_for "the font in the page cache ($font_pages pages)" 120 all_cached
rss=$(rss_kb "$hub_pid")
((rss < 100 * 1024)) || fail "midihub serve holds $rss kB: the font's pages should be the kernel's cache, not its memory"

render=$(grep -lx 'midihub-render' /proc/"$hub_pid"/task/*/comm | head -n 1)
[[ -n $render ]] || fail "no thread named midihub-render in $(cat /proc/"$hub_pid"/task/*/comm | tr '\n' ' ')"
render_stat=${render%/comm}/stat
# The thread's major faults: field 12 of stat (after the name in parentheses).
major_faults() { sed 's/.*) //' "$render_stat" | awk '{ print $10 }'; }
# A first note (program 0): the render loop's own code runs once before the count.
amidi -p "hw:$CARD,0" -S 'C0 00 90 3C 64' || fail "amidi -S failed"
sleep 0.3
amidi -p "hw:$CARD,0" -S '80 3C 00' || fail "amidi -S failed"
sleep 0.5
faults_before=$(major_faults)

step "fifteen more programs played: every page of the font they read was in memory"
for program in $(seq 8 8 127); do
    amidi -p "hw:$CARD,0" -S "$(printf 'C0 %02X 90 3C 64' "$program")" || fail "amidi -S failed"
    sleep 0.3
    amidi -p "hw:$CARD,0" -S '80 3C 00' || fail "amidi -S failed"
done
sleep 1
# Every page of the font was cached before the first note and still is: the render
# thread's reads of it were minor faults. Its major faults, if any, are the program's own
# code pages (the binary on the host's shared folder): printed, not counted against it.
all_cached || fail "the font left the page cache while it played: $(cached_pages "$FONT") of $font_pages pages"
echo "the render thread's major faults: $faults_before before the fifteen programs, $(major_faults) after"
stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
