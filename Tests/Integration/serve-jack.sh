# Helpers for the daemon's JACK tests (vm/45-serve-jack, vm/46-doc-daemon), on top of
# lib.sh and serve.sh: jackd -d dummy and jackd2's MIDI tools as JACK peers.

start_jackd() {
    # --sync: the emulated VM is slow, and the server waits for late clients instead of
    # skipping their cycle (as the RtMidiBackend tests do).
    start_peer jackd jackd --no-realtime --sync -d dummy -r 48000 -p 256
    wait_for "jackd answers" 60 jack_lsp
}
# A JACK MIDI dump, line-buffered; its port is midi-monitor:input.
start_jack_dump() { # NAME
    start_peer "$1" stdbuf -oL jack_midi_dump
    wait_for "midi-monitor:input" 30 bash -c "jack_lsp | grep -qx midi-monitor:input"
}
# Waits until midihub's JACK output feeds midi-monitor:input.
wait_for_bridge_to_dump() {
    poll_until 60 bash -c "jack_lsp -c midi-monitor:input | grep -Eq '^ +midihub[^:]*:out$'" \
        || fail "midihub's JACK output never fed midi-monitor:input; jack_lsp -c: $(jack_lsp -c | tr '\n' ' ')"
}
# jack_midiseq on seq:out: note 62 held from 10 s to 55 s of a 60 s loop (10 s after its
# start, so the daemon has found and connected the new port; its own note-off is far off).
start_jack_note() { # NAME
    start_peer "$1" jack_midiseq seq 2880000 480000 62 2160000
}
