import Testing
@testable import Hub

@Suite struct NamePatternTests {
    @Test func globStarAndQuestionMark() {
        #expect(NamePattern(glob: "Launch*").matches("Launchkey MK3"))
        #expect(!NamePattern(glob: "Launch*").matches("MPK mini"))
        #expect(NamePattern(glob: "a?c").matches("abc"))
        #expect(!NamePattern(glob: "a?c").matches("abbc"))
        #expect(NamePattern(glob: "*mini*").matches("MPK mini 3"))
        #expect(NamePattern(glob: "a*b*c").matches("aXXbYYbc"))
        #expect(!NamePattern(glob: "a*b*c").matches("aXXbYY"))
        #expect(NamePattern(glob: "\\*").matches("*"))
        #expect(!NamePattern(glob: "\\*").matches("x"))
    }

    @Test func regexMatchesWholeName() throws {
        let pattern = try NamePattern(parsing: "/FLUID.*/")
        #expect(pattern.matches("FLUID Synth (1234)"))
        #expect(!pattern.matches("My FLUID Synth"))
    }

    @Test func numbersMatchAddresses() {
        #expect(NamePattern(glob: "24").matches("Launchkey", number: 24))
        #expect(!NamePattern(glob: "24").matches("Launchkey", number: 25))
    }

    @Test func badRegexIsATypedError() {
        #expect(throws: NamePatternError.self) { try NamePattern(parsing: "/(unclosed/") }
    }
}

@Suite struct RuleParsingTests {
    @Test func parsesConnectWithQuotedPatterns() throws {
        let rule = try ConnectionRule(parsing: #"connect "Launchkey*:*" -> "midihub:in""#)
        #expect(rule.action == .connect)
        #expect(rule.source == PortSelector(client: NamePattern(glob: "Launchkey*")))
        #expect(rule.destination == PortSelector(client: NamePattern(glob: "midihub"), port: NamePattern(glob: "in")))
    }

    @Test func parsesClassPrefixes() throws {
        let rule = try ConnectionRule(parsing: #"disallow app:* -> hardware:"/Novation.*/:*""#)
        #expect(rule.action == .disallow)
        #expect(rule.source == PortSelector(portClass: .app))
        #expect(rule.destination.portClass == .hardware)
        #expect(rule.destination.client == (try NamePattern(regex: "Novation.*")))
    }

    @Test func deviceSelectorsNameAUSBDeviceNotAClient() throws {
        let bySerial = try PortSelector(parsing: #"serial:"MH-00*:*MIDI 1""#)
        #expect(bySerial == PortSelector(portClass: .hardware, port: NamePattern(glob: "*MIDI 1"),
                                         device: DeviceMatch(key: .serial, pattern: NamePattern(glob: "MH-00*"))))
        let bySocket = try PortSelector(parsing: "usb:usb-1-2.4")
        #expect(bySocket.device == DeviceMatch(key: .usb, pattern: NamePattern(glob: "usb-1-2.4")) && bySocket.port.isAny)
        var keys = PortDescriptor(address: PortAddress(client: 24, port: 0), clientName: "Test Keys", portName: "Test Keys MIDI 1",
                                  portClass: .hardware, direction: .duplex, usbPath: "usb-1-2.4", serial: "MH-0001")
        #expect(bySerial.matches(keys) && bySocket.matches(keys))
        keys.serial = "XY-0001"
        keys.usbPath = "usb-1-2"
        #expect(!bySerial.matches(keys) && !bySocket.matches(keys))
        #expect(!bySerial.matches(PortFixtures.launchkey), "a port of no USB device")
        // A client literally named "serial" is quoted.
        #expect(try PortSelector(parsing: #""serial:*""#) == PortSelector(client: NamePattern(glob: "serial")))
        #expect(throws: SelectorSyntaxError.self) { try PortSelector(parsing: "usb:") }
    }

    @Test func regexClientMayContainColons() throws {
        let selector = try PortSelector(parsing: #""/a:b/:port""#)
        #expect(selector.client == (try NamePattern(regex: "a:b")))
        #expect(selector.port == NamePattern(glob: "port"))
    }

    @Test func acceptsALSANumericSyntax() throws {
        let rule = try ConnectionRule(parsing: "connect 24:0 -> 128:0")
        #expect(rule.matches(source: PortFixtures.launchkey, destination: PortFixtures.hubIn))
        #expect(!rule.matches(source: PortFixtures.vmpk, destination: PortFixtures.hubIn))
    }

    @Test func descriptionRoundTrips() throws {
        let texts = [#"connect "Launchkey*:*" -> "midihub:in""#, "disallow app:* -> *",
                     #"connect hardware:"/Key.*/" -> "mid\"hub:in""#, #"connect serial:"A1:*MIDI*" -> usb:"usb-1-2""#]
        for text in texts {
            let rule = try ConnectionRule(parsing: text)
            #expect(try ConnectionRule(parsing: rule.description) == rule)
        }
    }

    @Test func listSkipsCommentsAndBlankLines() throws {
        let rules = try ConnectionRule.parseList("""
            # default
            connect hardware:* -> "midihub:in"   # every keyboard

            disallow "VMPK*" -> "midihub:in"
            """)
        #expect(rules.map(\.action) == [.connect, .disallow])
    }

    @Test func errorsNameLineAndColumn() {
        #expect(throws: RuleSyntaxError(line: 2, column: 1, reason: "unknown rule verb 'conect'",
                                        fix: "write `connect SOURCE -> DESTINATION` or `disallow SOURCE -> DESTINATION`")) {
            try ConnectionRule.parseList("connect * -> *\nconect a -> b")
        }
        do {
            _ = try ConnectionRule.parseList(#"connect "a:*" "b""#)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 1 && error.column == 15)
            #expect(error.description.hasPrefix("1:15: a rule needs a source, '->' and a destination (fix: "))
        }
        do {
            _ = try ConnectionRule.parseList(#"connect "/(x/:*" -> b"#)
            Issue.record("expected an error")
        } catch {
            #expect(error.column == 9)
            #expect(error.reason.contains("invalid regular expression"))
        }
        #expect(throws: RuleSyntaxError.self) { try ConnectionRule(parsing: #"connect "abc -> b"#) }
    }
}

/// Regular expressions in rules are matched on the MIDI input thread: only cheap ones are accepted.
@Suite struct RegexCostTests {
    @Test func theCommonPatternsAreAccepted() throws {
        for pattern in ["/FLUID.*/", "/Key.*/", "/Novation.*/", "/([a-z]+)([0-9]+)/", "/.*:.*/", "/a{2,4}b?/", #"/\(x+\)/"#, "/[+*]+/"] {
            #expect(throws: Never.self, "\(pattern)") { try NamePattern(parsing: pattern) }
        }
    }

    @Test func nestedOrManyOpenRepetitionsAreRefusedWithTheReason() {
        for pattern in ["/(a+)+$/", "/(a*)*/", "/((ab)*c)+/", "/(x+){2,}/"] {
            #expect(throws: NamePatternError.self, "\(pattern)") { try NamePattern(parsing: pattern) }
            #expect(RegexCost.problem(in: String(pattern.dropFirst().dropLast()))?.contains("exponential") == true, "\(pattern)")
        }
        #expect(RegexCost.problem(in: ".*a.*b.*c")?.contains("open repetitions") == true)
        #expect(RegexCost.problem(in: String(repeating: "a", count: 300))?.contains("longer than") == true)
    }
}
