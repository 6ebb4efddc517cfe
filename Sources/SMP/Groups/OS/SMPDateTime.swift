/// A calendar date and time as SMP devices exchange it: `yyyy-MM-ddTHH:mm:ss[.fff]`, no zone.
///
/// Users may give an ISO 8601 time with a zone (`Z`, `+01:00`, `-0530`); ``inUTC`` converts it,
/// because the device keeps no zone.
public struct SMPDateTime: Sendable, Hashable, CustomStringConvertible {
    /// Year (1900–11899 on Zephyr).
    public var year: Int
    /// Month 1–12.
    public var month: Int
    /// Day 1–31.
    public var day: Int
    /// Hour 0–23.
    public var hour: Int
    /// Minute 0–59.
    public var minute: Int
    /// Second 0–59.
    public var second: Int
    /// Milliseconds 0–999, when given.
    public var millisecond: Int?
    /// The zone offset east of UTC in minutes, when given.
    public var utcOffsetMinutes: Int?

    /// Creates a date-time; fields are not range-checked here (see ``validate()``).
    public init(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
        millisecond: Int? = nil, utcOffsetMinutes: Int? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// The UTC time `seconds` after 1970-01-01T00:00:00Z, to the millisecond.
    public init(secondsSince1970 seconds: Double) {
        // Round to the nearest millisecond first: truncating the binary fraction would turn
        // 1700000000.123 (stored as …0.12299990654) into .122.
        let milliseconds = Int((seconds * 1000).rounded())
        let whole = milliseconds.floorDivided(by: 1000)
        let days = whole.floorDivided(by: 86_400)
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = CivilDays.date(days: days)
        self.init(
            year: year, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60, millisecond: milliseconds - whole * 1000, utcOffsetMinutes: 0)
    }

    /// The text sent to a device: `yyyy-MM-ddTHH:mm:ss` plus `.mmm` when milliseconds are set.
    public var deviceString: String {
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if let millisecond { text += "." + pad(millisecond, 3) }
        return text
    }

    public var description: String {
        guard let offset = utcOffsetMinutes else { return deviceString }
        if offset == 0 { return deviceString + "Z" }
        let sign = offset < 0 ? "-" : "+"
        return deviceString + "\(sign)\(pad(abs(offset) / 60, 2)):\(pad(abs(offset) % 60, 2))"
    }

    /// The same instant in UTC (no change when no zone was given).
    public var inUTC: SMPDateTime {
        guard let offset = utcOffsetMinutes, offset != 0 else {
            var copy = self
            copy.utcOffsetMinutes = utcOffsetMinutes.map { _ in 0 }
            return copy
        }
        let minutes = CivilDays.days(year: year, month: month, day: day) * 1440 + hour * 60 + minute - offset
        let dayCount = minutes.floorDivided(by: 1440)
        let minuteOfDay = minutes - dayCount * 1440
        let (y, m, d) = CivilDays.date(days: dayCount)
        return SMPDateTime(
            year: y, month: m, day: d, hour: minuteOfDay / 60, minute: minuteOfDay % 60, second: second,
            millisecond: millisecond, utcOffsetMinutes: 0)
    }

    /// Checks the ranges a Zephyr device accepts; returns a sentence naming the bad field, or nil.
    public func validate() -> String? {
        let checks: [(String, Int, ClosedRange<Int>)] = [
            ("year", year, 1900...11899), ("month", month, 1...12), ("day", day, 1...CivilDays.length(ofMonth: month, year: year)),
            ("hour", hour, 0...23), ("minute", minute, 0...59), ("second", second, 0...59),
        ]
        for (name, value, range) in checks where !range.contains(value) {
            return "\(name) \(value) is out of range \(range.lowerBound)–\(range.upperBound)"
        }
        if let millisecond, !(0...999).contains(millisecond) { return "milliseconds \(millisecond) out of range 0–999" }
        return nil
    }

    /// Parses ISO 8601 as a user writes it: `2024-05-01T12:30:00`, with optional fraction
    /// (`.5` = 500 ms) and zone (`Z`, `±HH:MM`, `±HHMM`, `±HH`); a space may replace the `T`.
    public init?(iso8601 text: String) {
        var scanner = DateTimeScanner(text)
        guard let parsed = scanner.scan(fractionIsDecimal: true), parsed.validate() == nil else {
            return nil
        }
        self = parsed
    }

    /// Parses a device's answer. Zephyr prints milliseconds without zero padding (`.5` = 5 ms).
    public init?(deviceString text: String) {
        var scanner = DateTimeScanner(text)
        guard let parsed = scanner.scan(fractionIsDecimal: false) else { return nil }
        self = parsed
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Reads the fields of a date-time text.
private struct DateTimeScanner {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) { characters = Array(text.trimmingSpaces) }

    mutating func scan(fractionIsDecimal: Bool) -> SMPDateTime? {
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2),
              take("T") || take("t") || take(" "),
              let hour = number(2), take(":"), let minute = number(2), take(":"), let second = number(2)
        else { return nil }
        var result = SMPDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        if take(".") || take(",") {
            let start = index
            while index < characters.count, characters[index].isASCIIDigit { index += 1 }
            let digits = String(characters[start..<index])
            guard !digits.isEmpty else { return nil }
            if fractionIsDecimal {
                result.millisecond = Int((digits + "00").prefix(3))
            } else {
                guard digits.count <= 3 else { return nil }
                result.millisecond = Int(digits)
            }
        }
        if index < characters.count {
            guard let offset = zone() else { return nil }
            result.utcOffsetMinutes = offset
        }
        return index == characters.count ? result : nil
    }

    private mutating func zone() -> Int? {
        if take("Z") || take("z") { return 0 }
        let sign: Int
        if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
        guard let hours = number(2), hours <= 23 else { return nil }
        var minutes = 0
        if index < characters.count {
            _ = take(":")
            guard let value = number(2), value <= 59 else { return nil }
            minutes = value
        }
        return sign * (hours * 60 + minutes)
    }

    private mutating func take(_ c: Character) -> Bool {
        guard index < characters.count, characters[index] == c else { return false }
        index += 1
        return true
    }

    private mutating func number(_ width: Int) -> Int? {
        guard index + width <= characters.count else { return nil }
        let slice = characters[index..<index + width]
        guard slice.allSatisfy(\.isASCIIDigit), let value = Int(String(slice)) else { return nil }
        index += width
        return value
    }
}

/// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithms).
enum CivilDays {
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension Int {
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let trimmedStart = drop { $0 == " " }
        return trimmedStart.prefix(trimmedStart.count - trimmedStart.reversed().prefix { $0 == " " }.count)
    }
}
