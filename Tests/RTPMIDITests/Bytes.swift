/// `"80 61 42"` as bytes: how the tests write packets.
func hexBytes(_ text: String) -> [UInt8] {
    let digits = text.filter(\.isHexDigit)
    return stride(from: 0, to: digits.count, by: 2).map { offset in
        let start = digits.index(digits.startIndex, offsetBy: offset)
        return UInt8(digits[start..<digits.index(start, offsetBy: 2)], radix: 16)!
    }
}
