# Real USB MIDI devices inside the VM: the kernel's USB gadget stack (configfs, libcomposite,
# the MIDI function usb_f_midi) on dummy_hcd, its emulated host controller with one socket
# per UDC. Each gadget is a "Test Keys" keyboard with its own serial number: the host side
# sees it through snd-usb-audio (a card with a sequencer client "Test Keys", a USB path and
# the serial in sysfs, as a real controller), and the gadget side gets a rawmidi card
# "f_midi" whose output is what the keyboard sends: `amidi -p hw:$(usb_keys_card NAME),0 -S`
# plays the keys. Sourced by the tests that use it; inside.sh removes the gadgets between
# tests (remove_usb_gadgets).

GADGETS=/sys/kernel/config/usb_gadget

# Loads the gadget stack with COUNT sockets (dummy_udc.0 … COUNT-1) and the USB MIDI driver.
load_usb_gadgets() { # COUNT
    modprobe libcomposite || fail "modprobe libcomposite failed"
    mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config || fail "mount configfs failed"
    modprobe dummy_hcd "num=$1" || fail "modprobe dummy_hcd failed"
    load_modules snd-usb-audio snd-seq
}

# Makes a "Test Keys" USB MIDI keyboard NAME with serial number SERIAL (not plugged in yet).
make_usb_keys() { # NAME SERIAL
    local gadget=$GADGETS/$1
    mkdir "$gadget" "$gadget/strings/0x409" "$gadget/configs/c.1" "$gadget/functions/midi.usb0" \
        || fail "cannot create USB gadget $1"
    echo 0x1d6b >"$gadget/idVendor"   # Linux Foundation
    echo 0x0104 >"$gadget/idProduct"  # multifunction composite gadget
    echo "$2" >"$gadget/strings/0x409/serialnumber"
    echo midihub >"$gadget/strings/0x409/manufacturer"
    echo "Test Keys" >"$gadget/strings/0x409/product"
    ln -s "$gadget/functions/midi.usb0" "$gadget/configs/c.1/" || fail "cannot configure USB gadget $1"
}

# Plugs keyboard NAME into socket N (dummy_udc.N) and waits for its sequencer port.
plug_usb_keys() { # NAME N
    local before
    before=$(aconnect -l | grep -c "^client [0-9]*: 'Test Keys'")
    echo "dummy_udc.$2" >"$GADGETS/$1/UDC" || fail "cannot plug $1 into dummy_udc.$2"
    wait_for "$1 enumerated" 20 bash -c "(( \$(aconnect -l | grep -c \"^client [0-9]*: 'Test Keys'\") > $before ))"
}

# Unplugs keyboard NAME (a USB disconnect: the host side's card and port leave).
unplug_usb_keys() { # NAME
    echo "" >"$GADGETS/$1/UDC" || fail "cannot unplug $1"
}

# The gadget-side rawmidi card of keyboard NAME: what is written to it, the keyboard sends.
usb_keys_card() { # NAME
    local udc card
    udc=$(cat "$GADGETS/$1/UDC")
    [[ -n $udc ]] || fail "$1 is not plugged in"
    card=$(ls -d /sys/devices/platform/"$udc"/gadget*/sound/card* 2>/dev/null | head -n 1)
    [[ -n $card ]] || fail "no f_midi card for $1 on $udc"
    echo "${card##*/card}"
}

# The sequencer client of the host side of keyboard NAME (the "Test Keys" with its serial).
usb_keys_client() { # NAME
    local serial card client
    serial=$(cat "$GADGETS/$1/strings/0x409/serialnumber")
    for card in /sys/class/sound/card*; do
        [[ $(cat "$card/device/../serial" 2>/dev/null) == "$serial" ]] || continue
        client=$(aconnect -l | sed -n "s/^client \([0-9]*\): 'Test Keys' \[type=kernel,card=${card##*/card}\]/\1/p")
        [[ -n $client ]] && { echo "$client"; return; }
    done
    fail "no 'Test Keys' client with serial $serial"
}

# Unplugs and deletes every gadget, then unloads the gadget stack.
remove_usb_gadgets() {
    local gadget
    [[ -d $GADGETS ]] || return 0
    for gadget in "$GADGETS"/*/; do
        [[ -d $gadget ]] || continue
        echo "" >"$gadget/UDC" 2>/dev/null
        rm -f "$gadget"/configs/c.1/midi.usb0
        rmdir "$gadget"/configs/c.1 "$gadget"/functions/midi.usb0 "$gadget"/strings/0x409 "$gadget" 2>/dev/null
    done
    rmmod usb_f_midi dummy_hcd libcomposite 2>/dev/null
    return 0
}
