# Issue 2, kernel test 4: a missing port, an ambiguous name, bad hex and a missing
# /dev/snd/seq each give one line on stderr, "midihub: <problem> (fix: ...)", and
# the documented exit code (2 = bad input from the user, 1 = runtime failure).

step "no sequencer at all: no sound module loaded"
[[ -e /dev/snd/seq ]] && fail "/dev/snd/seq exists before any module is loaded"
assert_exit 1 midihub ports
assert_one_line_error '^midihub: .+ \(fix: .*snd-seq.*\)$'

step "no sequencer: /dev/snd hidden behind an empty tmpfs"
load_modules snd-seq-dummy
mount -t tmpfs none /dev/snd || fail "could not mount a tmpfs over /dev/snd"
assert_exit 1 midihub ports
assert_one_line_error '^midihub: .+ \(fix: .*snd-seq.*\)$'
umount /dev/snd || fail "could not unmount the tmpfs over /dev/snd"

# Two virmidi clients, "Virtual Raw MIDI N-0" and "N-1", share a name prefix.
modprobe snd-virmidi midi_devs=2 || fail "modprobe snd-virmidi failed"
card=$(card_number VirMIDI)
first=$(client_number "Virtual Raw MIDI $card-0")
second=$(client_number "Virtual Raw MIDI $card-1")

step "unknown port"
assert_exit 2 midihub connect xyz "$first:0"
assert_one_line_error "^midihub: no port matches 'xyz' \(fix: run 'midihub ports' to list ports\)$"
assert_exit 2 midihub send 99:0 90 3c 64
assert_one_line_error "^midihub: no port matches '99:0' \(fix: run 'midihub ports' to list ports\)$"

step "ambiguous name"
assert_exit 2 midihub connect "$first:0" Virtual
assert_one_line_error "^midihub: 'Virtual' is ambiguous: $first:0 Virtual Raw MIDI $card-0, $second:0 Virtual Raw MIDI $card-1 \(fix: give client:port\)$"

step "malformed hex for send"
assert_exit 2 midihub send "$first:0" 90 3g 64
assert_one_line_error '^midihub: .+ \(fix: .+\)$'
