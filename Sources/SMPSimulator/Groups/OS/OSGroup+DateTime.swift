import CBOR
import SMP

extension OSGroup {
    /// Date-time read (cmd 4): `{"datetime": "yyyy-MM-ddTHH:mm:ss[.m]"}` with the year padded
    /// to 4 by spaces (`%4d`) and milliseconds unpadded (`.%d`); OS error 4 while the clock is unset.
    func readDateTime(_ context: SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        guard let now = clock.read(uptime: context.uptime) else { throw .groupError(OSGroupError.rtcNotSet) }
        var text = Self.pad(now.year, 4, " ") + "-" + Self.pad(now.month, 2, "0") + "-" + Self.pad(now.day, 2, "0")
            + "T" + Self.pad(now.hour, 2, "0") + ":" + Self.pad(now.minute, 2, "0") + ":" + Self.pad(now.second, 2, "0")
        if context.configuration.dateTimeMilliseconds { text += ".\(now.millisecond ?? 0)" }
        return ["datetime": .text(text)]
    }

    /// Date-time write (cmd 4): parsed as ``ZephyrDateTimeParser`` describes; answers an empty map.
    mutating func writeDateTime(_ request: SimulatedRequest, context: SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        guard let text = try request.fields(["datetime": .text]).text("datetime") else { throw .invalidValue }
        let time = try ZephyrDateTimeParser.parse(text, milliseconds: context.configuration.dateTimeMilliseconds)
        clock.write(time, uptime: context.uptime)
        return [:]
    }

    private static func pad(_ value: Int, _ width: Int, _ filler: Character) -> String {
        let digits = String(value)
        return String(repeating: filler, count: max(0, width - digits.count)) + digits
    }
}
