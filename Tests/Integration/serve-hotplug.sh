# Helpers for the daemon's hot-plug tests (vm/42-*, vm/44-*), on top of lib.sh and serve.sh.

# Waits until the rule has connected the snd-virmidi "controller" (its first port) to
# midihub:in; sets CARD to the card's current number (it may change at each bind).
wait_for_controller_route() { # DESCRIPTION
    CARD=$(card_number VirMIDI)
    local hub
    hub=$(client_number midihub)
    wait_for "$1: Virtual Raw MIDI $CARD-0 -> midihub:in" 30 bash -c \
        "aconnect -l | grep -A3 \"'Virtual Raw MIDI $CARD-0'\" | grep -q \"Connecting To: .*$hub:0\""
}

# Waits until FILE has at least COUNT lines matching REGEX.
wait_for_line_count() { # FILE REGEX COUNT [TIMEOUT]
    wait_for "$3 lines /$2/ in $1" "${4:-$DEFAULT_TIMEOUT}" has_matching_lines "$1" "$2" "$3"
}

has_matching_lines() { # FILE REGEX COUNT
    (($(grep -Ec -- "$2" "$1") >= $3))
}
