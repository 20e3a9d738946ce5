# Helpers for the daemon's kernel-ALSA tests (vm/4*-serve-*.test.sh), on top of lib.sh.
# Source after lib.sh has been loaded (inside.sh does).

# A private socket directory and state file, so tests never meet a user's daemon. The
# socket lives on the guest's own tmpfs: the shared results folder cannot hold sockets.
XDG_RUNTIME_DIR=$(mktemp -d /dev/shm/midihub-run.XXXXXX) || fail "cannot create a runtime directory in /dev/shm"
export XDG_RUNTIME_DIR
SERVE_STATE=$WORK/state.json
# A private home too: the guest's /root is read-only, and presets a test saves (~/.lv2) are
# the test's alone.
HOME=$(mktemp -d /dev/shm/midihub-home.XXXXXX) || fail "cannot create a home directory in /dev/shm"
export HOME
SERVE_SOCKET=$XDG_RUNTIME_DIR/midihub/control.sock

# Starts `midihub serve ARGS...` as peer NAME and waits for its "serving as" line.
start_serve() { # NAME ARGS...
    local name=$1
    shift
    start_peer "$name" midihub serve --state "$SERVE_STATE" "$@"
    wait_for_peer_line "$name" "$(peer_err "$name")" "midihub: serving as [0-9]+:0 \(midihub:in\)" 60
}

# Loads snd-virmidi — its first port is the "controller", card number in $card — and
# starts aseqdump as peer "dump" (its output file in $dump), the usual external node.
start_controller_and_dump() {
    load_modules snd-virmidi
    card=$(card_number VirMIDI)
    start_aseqdump dump
    dump=$(peer_out dump)
}

# Writes $WORK/patch.yaml: every hardware input (connected to midihub:in by a rule) →
# transpose +12 → aseqdump and each further external node given as NAME=SELECTOR.
write_transpose_patch() { # [NAME=SELECTOR...]
    local node
    {
        cat <<'YAML'
nodes:
  keys: { source: hardware:* }
  up:
    processor: transpose
    parameters: { semitones: 12 }
  dump: { external: '"aseqdump"' }
YAML
        for node in "$@"; do printf "  %s: { external: '%s' }\n" "${node%%=*}" "${node#*=}"; done
        printf '%s\n' "routes:" "  - keys -> up" "  - up -> dump"
        for node in "$@"; do printf '  - up -> %s\n' "${node%%=*}"; done
        printf '%s\n' "rules:" '  - connect hardware:* -> "midihub:in"'
    } >"$WORK/patch.yaml"
}

# Listens as systemd does on a datagram socket; sets NOTIFY_SOCKET to it (not exported:
# pass it to the daemon as `NOTIFY_SOCKET=$NOTIFY_SOCKET start_serve ...`). Each
# notification becomes one line of $(peer_out NAME), its KEY=value lines joined by spaces.
# At READY=1 it first copies /proc/asound/seq/clients to $WORK/NAME.at-ready and adds
# whether the control socket exists: what was there when the daemon said it serves.
start_notify_listener() { # NAME
    NOTIFY_SOCKET=$XDG_RUNTIME_DIR/notify.sock
    start_peer "$1" python3 -u -c "$NOTIFY_LISTENER" "$NOTIFY_SOCKET" "$WORK/$1.at-ready" "$SERVE_SOCKET"
    wait_for "the notification socket $NOTIFY_SOCKET" 30 test -S "$NOTIFY_SOCKET"
}
NOTIFY_LISTENER='
import os, socket, sys
path, snapshot, control = sys.argv[1:]
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(path)
while True:
    lines = listener.recv(4096).decode().split("\n")
    if "READY=1" in lines:
        with open("/proc/asound/seq/clients") as clients, open(snapshot, "w") as out:
            out.write(clients.read())
            out.write("control socket: %s\n" % ("yes" if os.path.exists(control) else "no"))
    print(" ".join(lines))
'

# Prints the block of /proc/asound/seq/clients (as in FILE) of the client named NAME.
seq_client_block() { # FILE NAME
    awk -v name="\"$2\"" '/^Client/ { inside = ($4 == name) } inside' "$1"
}

# Sends control requests (one JSON object per argument) over the socket after a hello;
# prints the responses, one per line. The input ends after the last request: the daemon
# answers everything it has received and then closes (docs/control-protocol.md), which ends
# socat at once; -t 30 only bounds the wait for a daemon that never closes.
control_requests() { # JSON...
    { echo '{"id":0,"request":"hello","params":{"protocolVersion":1}}'; printf '%s\n' "$@"; } \
        | socat -t 30 - "UNIX-CONNECT:$SERVE_SOCKET"
}

# The number of file descriptors PID keeps open: the fewest seen in 6 looks over 1.5 s.
# The daemon opens some for a moment (the JACK probe's throwaway client, once a second);
# a leaked one stays open in every look.
fd_count() { # PID
    local fewest= count look
    for look in 1 2 3 4 5 6; do
        count=$(ls "/proc/$1/fd" | wc -l)
        [[ -z $fewest || $count -lt $fewest ]] && fewest=$count
        ((look < 6)) && sleep 0.25
    done
    echo "$fewest"
}

# The resident set size of PID in kB.
rss_kb() { # PID
    awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

# Unplugs / plugs back the snd-virmidi card the way a USB disconnect does: through the
# driver's sysfs unbind/bind. (`rmmod snd-virmidi` is refused while a port is subscribed:
# a subscription holds the module.)
VIRMIDI_DEVICE=snd_virmidi.0
unplug_virmidi() {
    echo "$VIRMIDI_DEVICE" >/sys/bus/platform/drivers/snd_virmidi/unbind || fail "unbind $VIRMIDI_DEVICE failed"
}
plug_virmidi() {
    echo "$VIRMIDI_DEVICE" >/sys/bus/platform/drivers/snd_virmidi/bind || fail "bind $VIRMIDI_DEVICE failed"
}
