import CBOR

/// Bootloader information (OS command 8): the bootloader's name, or the answer to a query.
public struct OSBootloaderInfo: SMPCommand {
    /// The query; nil asks for the name.
    public var query: String?

    /// Creates the request.
    public init(query: String? = nil) { self.query = query }

    public var request: SMPRequest {
        SMPRequest(
            group: .os, command: OSCommandID.bootloaderInfo, operation: .read,
            payload: query.map { ["query": .text($0)] } ?? [:], name: "os bootloader info")
    }

    /// The whole answer (NCS adds queries whose answers this tool does not know).
    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> CBORMap {
        var answer = payload
        answer["rc"] = nil
        return answer
    }
}

/// The bootloader's name ("MCUboot", "SUIT", …).
public struct OSBootloaderName: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest { OSBootloaderInfo().request }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> String {
        try payload.text("bootloader")
    }
}

/// MCUboot's mode (`query: "mode"`) and whether downgrades are refused.
public struct OSBootloaderMode: SMPCommand {
    /// The answer.
    public struct Answer: Sendable, Hashable {
        /// The mode.
        public var mode: MCUbootMode
        /// Whether MCUboot refuses images older than the running one.
        public var noDowngrade: Bool
    }

    /// Creates the request.
    public init() {}

    public var request: SMPRequest { OSBootloaderInfo(query: "mode").request }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> Answer {
        Answer(mode: MCUbootMode(rawValue: try payload.integer("mode")), noDowngrade: try payload.optionalBool("no-downgrade") ?? false)
    }
}
