import NordicDFU

/// What a ``SecureDFUTarget`` received and answered.
public struct SecureDFUTargetStatistics: Sendable, Hashable, CustomStringConvertible {
    /// One data object, from its Create to the next Create.
    public struct DataObject: Sendable, Hashable {
        /// Its offset in the image.
        public var offset: Int
        /// Its size, as created.
        public var size: Int
        /// Writes that arrived for it (lost ones not counted).
        public var writes = 0
        /// Its Create, Calculate Checksum and Execute requests.
        public var controlRequests = 1
        /// Receipt notifications sent for it.
        public var notifications = 0
        /// Whether it was executed.
        public var executed = false
    }

    /// Requests received, by op code (writes included).
    public var requests: [SecureDFUOpCode: Int] = [:]
    /// Frames that were not requests.
    public var malformedRequests = 0
    /// Data writes that arrived (lost ones not counted).
    public var dataWrites = 0
    /// Image bytes that arrived (lost ones not counted), resent ones included.
    public var dataBytesReceived = 0
    /// Init packet bytes that arrived.
    public var commandBytesReceived = 0
    /// Receipt notifications sent.
    public var notifications = 0
    /// Data objects created, in order, with what each took.
    public var dataObjects: [DataObject] = []
    /// Writes lost by fault injection.
    public var lostWrites = 0
    /// Writes corrupted by fault injection.
    public var corruptedWrites = 0
    /// Links dropped by fault injection.
    public var disconnects = 0
    /// Images installed (the bootloader reset after each).
    public var installs = 0

    /// No events yet.
    public init() {}

    /// `requests=155 data writes=79 image bytes=5003 init packet bytes=136 objects=2 installs=1`,
    /// and the faults when there were any.
    public var description: String {
        "requests=\(requests.values.reduce(0, +)) data writes=\(dataWrites) image bytes=\(dataBytesReceived) "
            + "init packet bytes=\(commandBytesReceived) objects=\(dataObjects.count) notifications=\(notifications) installs=\(installs)"
            + (malformedRequests > 0 ? " malformed requests=\(malformedRequests)" : "")
            + (lostWrites + corruptedWrites + disconnects > 0
                ? " lost writes=\(lostWrites) corrupted writes=\(corruptedWrites) disconnects=\(disconnects)" : "")
    }
}
