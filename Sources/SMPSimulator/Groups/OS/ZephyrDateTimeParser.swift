import SMP

/// Parses a date-time write the way Zephyr's `os_mgmt_datetime_write()` does (docs/protocol/os.md §3.5).
///
/// The text must have 19…25 bytes. Six integers are read with `strtol` semantics (leading white
/// space, an optional sign, decimal digits), each followed by exactly one skipped delimiter byte,
/// whatever it is. With milliseconds enabled, a `.` as the delimiter after the seconds is followed
/// by an optional millisecond count 0…999. Anything after that (a zone) is ignored. Every failure is
/// `MGMT_ERR_EINVAL`.
enum ZephyrDateTimeParser {
    static let lengths = 19...25
    static let ranges: [ClosedRange<Int64>] = [1900...11899, 1...12, 1...31, 0...23, 0...59, 0...59]

    static func parse(_ text: String, milliseconds: Bool) throws(SimulatedError) -> SMPDateTime {
        let bytes = Array(text.utf8)
        guard lengths.contains(bytes.count) else { throw .invalidValue }
        var position = 0
        var values: [Int] = []
        for range in ranges {
            guard position < bytes.count, let (value, end) = strtol(bytes, from: position), range.contains(value) else {
                throw .invalidValue
            }
            values.append(Int(value))
            position = end + 1
        }
        var result = SMPDateTime(
            year: values[0], month: values[1], day: values[2], hour: values[3], minute: values[4], second: values[5])
        if milliseconds, position - 1 < bytes.count, bytes[position - 1] == UInt8(ascii: "."), position < bytes.count,
           bytes[position] != 0 {
            // Zephyr does not check that digits followed: no digits give 0 ms.
            let value = strtol(bytes, from: position)?.value ?? 0
            guard (0...999).contains(value) else { throw .invalidValue }
            result.millisecond = Int(value)
        }
        return result
    }

    /// C `strtol` in base 10: the value and the index after it, or nil when no digits were read.
    /// Values that overflow saturate, as `strtol` does with `LONG_MAX`/`LONG_MIN`.
    private static func strtol(_ bytes: [UInt8], from start: Int) -> (value: Int64, end: Int)? {
        var index = start
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(bytes[index]) { index += 1 }
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        let digitsStart = index
        var magnitude: Int64 = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(bytes[index] - UInt8(ascii: "0")))
            magnitude = overflow1 || overflow2 ? Int64.max : sum
            index += 1
        }
        guard index > digitsStart else { return nil }
        return (negative ? -magnitude : magnitude, index)
    }
}
