"""Parses one RTP-MIDI packet (hex on the command line) with pymidi's packet
definitions and prints what pymidi reads: one line per command, then the journal's
header. RTPMIDITests compares it with what midihub encoded."""
import sys

from pymidi import packets

packet = packets.MIDIPacket.parse(bytes.fromhex(sys.argv[1]))
for entry in packet.command.midi_list:
    if entry.command in ('note_on', 'note_off'):
        print(entry.command, entry.channel, int(packets.MIDINote.build(entry.params.key)[0]), entry.params.velocity)
    elif entry.command == 'control_mode_change':
        print(entry.command, entry.channel, entry.params.controller, entry.params.value)
    else:
        print('other', entry.command_byte)
journal = packet.journal
if journal is None:
    print('journal none')
else:
    print('journal', journal.checkpoint_seqnum, 'system', int(journal.header.y), 'channels', int(journal.header.a),
          journal.header.totchan + 1 if journal.header.a else 0)
    if journal.channel_journal is not None:
        header = journal.channel_journal.header
        print('channel', header.chan, 'length', header.length, 'chapters',
              ''.join(name for name in 'pcmwneta' if header[name]))
