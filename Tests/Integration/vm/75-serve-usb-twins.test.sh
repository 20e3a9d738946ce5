# Issue 11, kernel test: two controllers of one model, told apart by their USB identity.
# Two real USB MIDI keyboards (the kernel's gadget stack on dummy_hcd, Tests/Integration/
# usb-gadget.sh), both "Test Keys", serial numbers MH-0001 and MH-0002. `midihub ports`
# prints each one's USB path and serial as selectors, read from sysfs. `midihub serve` runs
# docs/mappings.md's twin-keys patch: the same fader (CC 7) on each keyboard moves a
# different parameter. Then the two are unplugged and plugged back into each other's
# socket (new client numbers, each other's USB path): each keyboard's fader still moves
# its own parameter.
# timeout: 240

source "$REPO/Tests/Integration/serve.sh"
source "$REPO/Tests/Integration/usb-gadget.sh"
load_usb_gadgets 2
make_usb_keys left MH-0001
make_usb_keys right MH-0002
plug_usb_keys left 0
plug_usb_keys right 1

step "midihub ports shows each keyboard's USB path and serial number"
midihub ports >"$WORK/ports.txt" || fail "midihub ports failed"
cat "$WORK/ports.txt"
for keys in left right; do
    client=$(usb_keys_client $keys)
    serial=$(cat "$GADGETS/$keys/strings/0x409/serialnumber")
    grep -A1 "^$client:0 .*Test Keys MIDI 1" "$WORK/ports.txt" | grep -q "device usb:\"usb-[0-9]-1\", serial:\"$serial\"" \
        || fail "midihub ports should print $keys's device line with serial $serial"
    assert_eq "$serial" "$(midihub ports --json | jq -r --arg a "$client:0" '.[] | select(.address == $a) | .serial')" \
        "the serial of $keys in midihub ports --json"
done

doc_block docs/mappings.md twin-keys-patch >"$WORK/twins.yaml"
start_serve hub --no-audio --patch "$WORK/twins.yaml"

# The value of NODE.PARAMETER as `midihub mappings --json` shows it.
mapped_value() { # NODE PARAMETER
    midihub mappings --json | jq -r --arg node "$1" --arg parameter "$2" \
        '[.[].targets[] | select(.node == $node and .parameter == $parameter) | .value][0]'
}

# Waits until both keyboards are connected to midihub:in by the rule `usb:*`.
wait_for_both_connected() { # WHEN
    local hub keys
    hub=$(client_number midihub)
    for keys in left right; do
        wait_for "$keys connected to midihub ($1)" 20 bash -c \
            "aconnect -l | grep -A3 \"^client $(usb_keys_client $keys): 'Test Keys'\" | grep -q \"Connecting To: .*$hub:0\""
    done
}

# Moves KEYS's fader (CC 7) to VALUE and waits until NODE.PARAMETER is EXPECTED.
move_fader() { # KEYS VALUE NODE PARAMETER EXPECTED
    amidi -p "hw:$(usb_keys_card "$1"),0" -S "B0 07 $(printf '%02X' "$2")" || fail "amidi -S failed"
    poll_until 10 bash -c "[[ \$(midihub mappings --json | jq -r --arg n '$3' --arg p '$4' \
        '[.[].targets[] | select(.node == \$n and .parameter == \$p) | .value][0]') == '$5' ]]" \
        || fail "$1's fader at $2 should set $3.$4 to $5, it is $(mapped_value "$3" "$4")"
}

step "each keyboard's fader moves its own parameter"
wait_for_both_connected "at start"
move_fader left 127 synth "master gain" 0
assert_eq 0 "$(mapped_value synth brightness)" "the brightness untouched by the left fader"
move_fader right 0 synth brightness -48
assert_eq 0 "$(mapped_value synth 'master gain')" "the level untouched by the right fader"

step "the keyboards swap sockets: each fader still moves its own parameter"
unplug_usb_keys left
unplug_usb_keys right
wait_for_peer_line hub "$(peer_err hub)" "port left: .*Test Keys" 20
plug_usb_keys right 0
plug_usb_keys left 1
assert_eq usb-2-1 "$(midihub ports --json | jq -r --arg a "$(usb_keys_client left):0" '.[] | select(.address == $a) | .usbPath')" \
    "the left keyboard now in the second socket"
wait_for_both_connected "after the swap"
move_fader left 0 synth "master gain" -60
assert_eq -48 "$(mapped_value synth brightness)" "the brightness untouched by the left fader after the swap"
move_fader right 127 synth brightness 48
assert_eq -60 "$(mapped_value synth 'master gain')" "the level untouched by the right fader after the swap"

stop_peer hub
assert_eq 0 "$PEER_STATUS" "midihub serve exit status after SIGINT"
