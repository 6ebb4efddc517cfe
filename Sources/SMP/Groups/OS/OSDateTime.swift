import CBOR

/// Reads the device's date and time (OS command 4, read).
public struct OSDateTimeRead: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest { SMPRequest(group: .os, command: OSCommandID.dateTime, operation: .read, name: "os datetime read") }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> SMPDateTime {
        let text = try payload.text("datetime")
        guard let value = SMPDateTime(deviceString: text) else {
            throw SMPResponseError("field \"datetime\" is not a date-time: \"\(text)\"")
        }
        return value
    }
}

/// Sets the device's date and time (OS command 4, write). A zone, if given, is converted to UTC.
public struct OSDateTimeWrite: SMPCommand {
    /// The time to set.
    public var dateTime: SMPDateTime

    /// Creates the request.
    public init(_ dateTime: SMPDateTime) { self.dateTime = dateTime }

    public var request: SMPRequest {
        SMPRequest(
            group: .os, command: OSCommandID.dateTime, operation: .write,
            payload: ["datetime": .text(dateTime.inUTC.deviceString)], name: "os datetime write")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
