import Testing
import MIDICore

import ALSA

struct ArrivalClockTests {
    @Test func aStampBehindTheLastOneShowsAsTheLastOne() {
        var clock = ArrivalClock()
        let stamps: [HostDuration] = [0.306725, 0.307055, 0.307051, 0.4]
        let printed = stamps.map { clock.time(stampedAt: QueueTime(sinceOrigin: $0)).sinceOrigin }
        #expect(printed == [0.306725, 0.307055, 0.307055, 0.4])
    }
}
