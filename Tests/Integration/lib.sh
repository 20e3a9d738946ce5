# Helpers for the kernel-ALSA tests; every Tests/Integration/vm/*.test.sh sources this.
# Runs inside the VM, as root. inside.sh sets:
#   MIDIHUB   the midihub binary under test      REPO  the repository root (read-only)
#   WORK      a fresh writable folder for this test (kept in the results folder)
# A failed assertion prints "FAIL: ..." and ends the test with status 1; peers
# started with start_peer are stopped on exit. Never assert timings here: the VM
# is 5–20× slower than the host, so wait for conditions with wait_for_* instead.

set -uo pipefail

DEFAULT_TIMEOUT=${DEFAULT_TIMEOUT:-30}
declare -A PEER_PIDS=()

# --- failing and asserting -------------------------------------------------------

# In a command substitution (card=$(card_number ...)) `exit` would only end the
# subshell, and the test would go on with an empty value: fail ends the test's
# own shell too, through SIGUSR1.
fail() {
    echo "FAIL: $*" >&2
    [[ $BASHPID == "$$" ]] || kill -USR1 "$$"
    exit 1
}
trap 'exit 1' USR1

# A step's line ends with the test's clock: vm-run names the slowest steps of a slow test.
step() {
    echo "--- $*   [at ${SECONDS}s]"
}

assert_eq() { # EXPECTED ACTUAL MESSAGE
    [[ $1 == "$2" ]] || fail "$3: expected '$1', got '$2'"
}

assert_match() { # REGEX ACTUAL MESSAGE
    [[ $2 =~ $1 ]] || fail "$3: expected to match /$1/, got '$2'"
}

assert_file_has() { # FILE REGEX MESSAGE
    grep -Eq -- "$2" "$1" || fail "$3: no line matching /$2/ in $1: $(tail -n 5 "$1" | tr '\n' '|')"
}

assert_file_lacks() { # FILE REGEX MESSAGE
    ! grep -Eq -- "$2" "$1" || fail "$3: unexpected line matching /$2/ in $1: $(grep -E -- "$2" "$1" | head -n 3 | tr '\n' '|')"
}

assert_same_files() { # EXPECTED_FILE ACTUAL_FILE MESSAGE
    diff -u "$1" "$2" >"$WORK/diff.out" || fail "$3: differs (- expected $1, + actual $2):
$(head -n 40 "$WORK/diff.out")"
}

# Runs COMMAND..., keeping stdout in $WORK/out and stderr in $WORK/err, and checks
# its exit status. Use "$(<"$WORK/err")" afterwards to check the message.
assert_exit() { # STATUS COMMAND...
    local expected=$1 status=0
    shift
    "$@" >"$WORK/out" 2>"$WORK/err" || status=$?
    [[ $status == "$expected" ]] || fail "'$*' exited $status, expected $expected; stderr: $(head -c 400 "$WORK/err")"
}

# The stderr of the last assert_exit is exactly one line matching REGEX.
assert_one_line_error() { # REGEX
    local lines
    lines=$(wc -l <"$WORK/err")
    [[ $lines == 1 ]] || fail "expected one line on stderr, got $lines: $(head -c 400 "$WORK/err")"
    assert_match "$1" "$(<"$WORK/err")" "error message"
}

# --- the docs' blocks ---------------------------------------------------------------

# Prints the fenced block of DOC (a path from the repository root) whose marker, on the
# line before it, names a VM test and NAME: `<!-- tested-by: Tests/Integration/vm/… NAME -->`.
# Fails when there is none: the doc and the test name each other.
doc_block() { # DOC NAME
    awk -v name="$2" '
        inside && /^```/ { inside = 0; found = 1; next }
        inside { print; next }
        /^```/ { inside = marked; marked = 0; next }
        { marked = ($0 ~ /^<!-- tested-by: Tests\/Integration\/vm\//) && index($0 " ", " " name " ") > 0 }
        END { exit !found }' "$REPO/$1" || fail "$1 has no block marked for a VM test named $2"
}

# FILE holds exactly the lines of DOC's block marked NAME (see doc_block).
assert_file_is_doc_block() { # FILE DOC NAME
    doc_block "$2" "$3" >"$WORK/doc-block.txt"
    assert_same_files "$WORK/doc-block.txt" "$1" "$2's block '$3'"
}

# --- waiting ----------------------------------------------------------------------

# Polls COMMAND... every 0.1 s until it succeeds (status 0) or TIMEOUT seconds pass (1).
poll_until() { # TIMEOUT COMMAND...
    local deadline=$((SECONDS + $1))
    shift
    # A program that hangs (jack_lsp while an emulated jackd stalls) is stopped after 20 s
    # and tried again, so the wait still ends at its deadline with its own message; a shell
    # function runs as it is. --foreground keeps it in the test's process group, which
    # inside.sh kills when the test ends (without it timeout makes a group of its own).
    local bound=()
    [[ $(type -t "$1") == function ]] || bound=(timeout --foreground -k 2 20)
    until "${bound[@]}" "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}

wait_for() { # DESCRIPTION TIMEOUT COMMAND...
    local description=$1 timeout=$2
    shift 2
    poll_until "$timeout" "$@" || fail "timed out after ${timeout}s waiting for $description"
}

wait_for_line() { # FILE REGEX [TIMEOUT]
    wait_for "/$2/ in $1" "${3:-$DEFAULT_TIMEOUT}" grep -Eq -- "$2" "$1"
}

wait_for_lines() { # FILE COUNT [TIMEOUT]  waits until FILE has at least COUNT lines
    wait_for "$2 lines in $1" "${3:-$DEFAULT_TIMEOUT}" has_lines "$1" "$2"
}

has_lines() {
    [[ -f $1 ]] && (($(wc -l <"$1") >= $2))
}

# --- kernel modules -----------------------------------------------------------------

load_modules() { # MODULE [MODULE...]  e.g. snd-virmidi snd-seq-dummy
    local module
    for module in "$@"; do
        modprobe "$module" || fail "modprobe $module failed"
    done
    if [[ -d /sys/module/snd_seq ]]; then
        wait_for "/dev/snd/seq" "$DEFAULT_TIMEOUT" test -c /dev/snd/seq
    fi
}

# The ALSA card number of the first card whose /proc/asound/cards line matches NAME.
card_number() { # NAME
    local number
    number=$(awk -v name="$1" '$0 ~ name && /^ *[0-9]+ \[/ { print $1; exit }' /proc/asound/cards)
    [[ -n $number ]] || fail "no sound card matching '$1' in /proc/asound/cards"
    echo "$number"
}

# The sequencer client number of the client named exactly NAME.
client_number() { # NAME
    local number
    number=$(aconnect -l | sed -n "s/^client \([0-9]*\): '$1' .*/\1/p" | head -n 1)
    [[ -n $number ]] || fail "no sequencer client named '$1': $(aconnect -l | grep '^client' | tr '\n' '|')"
    echo "$number"
}

wait_for_client() { # NAME [TIMEOUT]
    wait_for "sequencer client '$1'" "${2:-$DEFAULT_TIMEOUT}" bash -c "aconnect -l | grep -q \"^client [0-9]*: '$1' \""
}

# --- background peers ---------------------------------------------------------------

# Starts COMMAND... in the background; its stdout goes to $WORK/NAME.out and its
# stderr to $WORK/NAME.err. stop_peer NAME ends it (SIGINT, then SIGKILL).
# The files are emptied here, before the fork: a redirection in the background
# command would only truncate them once the child runs, so a wait right after
# start_peer could still read the previous peer of that name's output.
# A non-interactive shell starts background commands with SIGINT ignored; env
# restores the default, so SIGINT reaches the peer as Ctrl-C in a terminal would.
start_peer() { # NAME COMMAND...
    local name=$1
    shift
    : >"$WORK/$name.out" && : >"$WORK/$name.err" || fail "cannot create the files of peer '$name' in $WORK"
    env --default-signal=INT "$@" >>"$WORK/$name.out" 2>>"$WORK/$name.err" &
    PEER_PIDS[$name]=$!
}

peer_out() { # NAME
    echo "$WORK/$1.out"
}

peer_err() { # NAME
    echo "$WORK/$1.err"
}

# Stops a peer with SIGNAL (default INT; KILL after $DEFAULT_TIMEOUT s) and sets
# PEER_STATUS to its exit status. Not in $(...): the peer is a child of this shell.
stop_peer() { # NAME [SIGNAL]
    local pid=${PEER_PIDS[$1]:-}
    [[ -n $pid ]] || fail "no peer named '$1'"
    kill -"${2:-INT}" "$pid" 2>/dev/null
    poll_until "$DEFAULT_TIMEOUT" peer_gone "$pid" || kill -KILL "$pid" 2>/dev/null
    PEER_STATUS=0
    wait "$pid" 2>/dev/null || PEER_STATUS=$?
    unset "PEER_PIDS[$1]"
}

# Waits for a line matching REGEX in FILE written by peer NAME; fails at once,
# with the peer's stderr, if the peer ends before writing it.
wait_for_peer_line() { # NAME FILE REGEX [TIMEOUT]
    local pid=${PEER_PIDS[$1]:-}
    [[ -n $pid ]] || fail "no peer named '$1'"
    poll_until "${4:-$DEFAULT_TIMEOUT}" line_or_gone "$2" "$3" "$pid" \
        || fail "timed out after ${4:-$DEFAULT_TIMEOUT}s waiting for /$3/ in $2"
    grep -Eq -- "$3" "$2" && return
    local status=0
    wait "$pid" 2>/dev/null || status=$?
    unset "PEER_PIDS[$1]"
    fail "peer '$1' exited with status $status before writing /$3/; its stderr: $(head -c 400 "$(peer_err "$1")")"
}

line_or_gone() { # FILE REGEX PID
    grep -Eq -- "$2" "$1" || peer_gone "$3"
}

# Waits until a peer ends by itself (at most TIMEOUT s) and sets PEER_STATUS.
wait_peer() { # NAME [TIMEOUT]
    local pid=${PEER_PIDS[$1]:-}
    [[ -n $pid ]] || fail "no peer named '$1'"
    wait_for "peer '$1' to finish" "${2:-$DEFAULT_TIMEOUT}" peer_gone "$pid"
    PEER_STATUS=0
    wait "$pid" 2>/dev/null || PEER_STATUS=$?
    unset "PEER_PIDS[$1]"
}

peer_gone() {
    ! kill -0 "$1" 2>/dev/null
}

stop_all_peers() {
    local name
    for name in "${!PEER_PIDS[@]}"; do
        kill -KILL "${PEER_PIDS[$name]}" 2>/dev/null
        wait "${PEER_PIDS[$name]}" 2>/dev/null
    done
    PEER_PIDS=()
}

trap stop_all_peers EXIT

# --- the program under test --------------------------------------------------------

# `midihub` on PATH is the binary under test (a link, so env and peers find it too).
mkdir -p "$WORK/bin" && ln -sf "$MIDIHUB" "$WORK/bin/midihub"
PATH=$WORK/bin:$PATH

# --- rawmidi devices ---------------------------------------------------------------

# Waits until process PID holds the input side of rawmidi device hw:CARD,DEVICE
# open (amidi -d prints nothing when it is ready; the kernel's /proc file tells).
wait_for_rawmidi_reader() { # CARD DEVICE PID
    wait_for_line "/proc/asound/card$1/midi$2" "Owner PID +: $3$"
}

# The hex bytes in FILE (amidi -d output or a hex string), upper case, one space apart.
hex_bytes() { # FILE
    tr -cd '0-9A-Fa-f' <"$1" | tr 'a-f' 'A-F' | sed 's/../& /g; s/ $//'
}

# Waits until amidi -d, running as peer NAME, has printed at least COUNT bytes.
wait_for_bytes() { # NAME COUNT [TIMEOUT]
    poll_until "${3:-$DEFAULT_TIMEOUT}" has_bytes "$(peer_out "$1")" "$2" \
        || fail "timed out after ${3:-$DEFAULT_TIMEOUT}s waiting for $2 bytes from '$1'; got: '$(hex_bytes "$(peer_out "$1")")'"
}

has_bytes() { # FILE COUNT
    (($(hex_bytes "$1" | wc -w) >= $2))
}

# Writes a Standard MIDI File from midicsv's CSV on stdin (an independent writer,
# so files do not depend on midihub's own SMF code).
csv_to_midi() { # OUT.mid
    csvmidi >"$1" || fail "csvmidi could not write $1"
}

# Starts aseqdump (line-buffered, so its file fills as events arrive) as peer NAME
# and waits until it listens. ARGS are aseqdump's (e.g. -p 16:0); without -p it
# only has its own port, "aseqdump:0", for others to connect to.
start_aseqdump() { # NAME [ARGS...]
    local name=$1
    shift
    start_peer "$name" stdbuf -oL aseqdump "$@"
    wait_for_peer_line "$name" "$(peer_out "$name")" "Waiting for data"
}

# The sequencer client number of the aseqdump running as peer NAME, from its
# "Waiting for data at port N:0" line (so several aseqdumps can run at once).
aseqdump_client() { # NAME
    local number
    number=$(sed -n 's/^Waiting for data at port \([0-9]*\):0\..*/\1/p' "$(peer_out "$1")")
    [[ -n $number ]] || fail "aseqdump '$1' did not name its port (it does only without -p): $(head -n 1 "$(peer_out "$1")")"
    echo "$number"
}

# aseqdump's MIDI event lines in FILE without the source column ("Note on 0, note
# 60, ..."); the announcements of subscriptions to aseqdump's port are left out.
aseqdump_events() { # FILE
    grep -E '^ *[0-9]+:[0-9]+ ' "$1" | sed -E 's/^ *[0-9]+:[0-9]+ +//; s/  +/ /g' \
        | grep -Ev '^Port (un)?subscribed '
}

# --- JSON (jq) ---------------------------------------------------------------------

# Line N of FILE as compact JSON with sorted keys, "time" removed (it is checked apart).
json_without_time() { # FILE N
    sed -n "$2p" "$1" | jq -cS 'del(.time)' 2>/dev/null || fail "line $2 of $1 is not JSON: $(sed -n "$2p" "$1")"
}

# The sequencer connections as "SRC>DST" lines, sorted, as aconnect -l shows them.
connections_by_aconnect() {
    aconnect -l | awk '
        /^client [0-9]+:/ { client = $2; sub(":", "", client) }
        /^    [0-9]+ / { port = $1 }
        /^\t(Connecting To|Connected From):/ {
            to = ($1 == "Connecting")
            line = $0; sub(/^[^:]*: /, "", line)
            n = split(line, peers, ", ")
            for (i = 1; i <= n; i++) {
                peer = peers[i]; sub(/\[.*/, "", peer)
                print (to ? client ":" port ">" peer : peer ">" client ":" port)
            }
        }' | sort -u
}

# The same set as midihub ports --json reports it.
connections_by_midihub() {
    midihub ports --json | jq -r '.[] | .address as $a
        | (.connectedTo[] | "\($a)>\(.)"), (.connectedFrom[] | "\(.)>\($a)")' | sort -u
}

# --- audio through snd-aloop (for the synth's tests) ------------------------------
# load_modules snd-aloop gives card "Loopback": what is played to hw:Loopback,0,N
# can be recorded from hw:Loopback,1,N.

# Records SECONDS of 48 kHz stereo S16 from the loopback's capture side, as peer NAME.
start_loopback_recording() { # NAME OUT.wav SECONDS [SUBDEVICE]
    start_peer "$1" arecord -q -D "hw:Loopback,1,${4:-0}" -f S16_LE -r 48000 -c 2 -d "$3" "$2"
}

# The frequency (Hz, integer) of the strongest spectral peak of FILE, from sox.
dominant_frequency() { # FILE
    sox "$1" -n remix - stat -freq 2>&1 | awk 'NF == 2 && $1 ~ /^[0-9.]+$/ && $2 ~ /^[0-9.e+-]+$/ && $2 > best { best = $2; frequency = $1 }
        END { if (frequency == "") exit 1; printf "%d\n", frequency + 0.5 }'
}

# The peak amplitude of FILE, 0…1, from sox.
peak_amplitude() { # FILE
    sox "$1" -n stat 2>&1 | awk '/^Maximum amplitude/ { print $3 }'
}

# Succeeds when ACTUAL Hz is within CENTS of EXPECTED Hz.
assert_frequency() { # EXPECTED ACTUAL CENTS MESSAGE
    awk -v e="$1" -v a="$2" -v c="$3" 'BEGIN { d = 1200 * log(a / e) / log(2); exit !(d <= c && d >= -c) }' \
        || fail "$4: expected ${1} Hz within $3 cents, got ${2} Hz"
}
