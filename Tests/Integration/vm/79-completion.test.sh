# Issue 29, kernel test: tab completion of port and node names, as the shell scripts of
# `midihub --generate-completion-script` ask for it (`midihub ---completion …`). Without a
# daemon, `midihub connect <TAB>` offers the ALSA sequencer's ports (snd-virmidi's, by
# address and by name, only those starting with what is typed) and `midihub learn <TAB>`
# nothing; with `midihub serve` running, the daemon's ports and its nodes. The bash script
# itself, sourced into bash, completes the same.

source "$REPO/Tests/Integration/serve.sh"
load_modules snd-virmidi
card=$(card_number VirMIDI)
client=$(client_number "Virtual Raw MIDI $card-0")

# The candidates midihub gives bash for the last of WORDS (the words after `midihub`).
candidates() { # COMMAND ARGUMENT WORD...
    local command=$1 argument=$2
    shift 2
    local words=(midihub "$command" "$@")
    local last=${words[-1]}
    SAP_SHELL=bash midihub ---completion "$command" -- "$argument" "$((${#words[@]} - 1))" "${#last}" "${words[@]}"
}

step "no daemon: connect completes the sequencer's ports"
candidates connect positional@0 "" >"$WORK/ports.txt" || fail "midihub ---completion connect failed"
assert_file_has "$WORK/ports.txt" "^$client:0$" "the controller's address"
assert_file_has "$WORK/ports.txt" "^Virtual Raw MIDI $card-0$" "the controller's client name"
candidates connect positional@1 "$client:0" "virt" >"$WORK/virt.txt" || fail "midihub ---completion connect failed"
assert_file_has "$WORK/virt.txt" "^Virtual Raw MIDI $card-0$" "a destination named from its prefix"
assert_eq "" "$(grep -iv '^virt' "$WORK/virt.txt")" "candidates that do not start with 'virt'"

step "no daemon: learn completes no node"
assert_eq "" "$(candidates learn positional@0 "")" "learn's candidates without a daemon"

step "the daemon's nodes and ports"
start_serve hub --no-audio --patch "$REPO/patches/keyboard-split.yaml"
midihub nodes --json | jq -r '.[].id' | sort >"$WORK/nodes.txt" || fail "midihub nodes --json failed"
candidates learn positional@0 "" | sort >"$WORK/learn.txt"
assert_same_files "$WORK/nodes.txt" "$WORK/learn.txt" "learn's candidates (- midihub nodes, + completion)"
assert_eq "bass" "$(candidates record --node "b")" "record --node's candidates for 'b'"
candidates send positional@0 "" >"$WORK/send.txt"
assert_file_has "$WORK/send.txt" "^$client:0$" "send's candidates from the daemon"

step "bash completes through the script"
midihub --generate-completion-script bash >"$WORK/midihub.bash" || fail "--generate-completion-script bash failed"
bash -c '. "$1"; COMP_WORDS=(midihub learn l); COMP_CWORD=2; COMP_LINE="midihub learn l"; COMP_POINT=${#COMP_LINE}
    _midihub midihub l learn; printf "%s\n" "${COMPREPLY[@]}"' bash "$WORK/midihub.bash" >"$WORK/bash.txt"
assert_eq "lead" "$(cat "$WORK/bash.txt")" "bash's completion of 'midihub learn l'"
stop_peer hub
