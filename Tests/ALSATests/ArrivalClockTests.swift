import Testing

import ALSA

struct ArrivalClockTests {
    @Test func aStampBehindTheLastOneShowsAsTheLastOne() {
        var clock = ArrivalClock()
        let printed = [0.306725, 0.307055, 0.307051, 0.4].map { clock.time(stampedAt: $0) }
        #expect(printed == [0.306725, 0.307055, 0.307055, 0.4])
    }
}
