/// A Secure DFU response: `[0x60, request op code, result, …]`. On success the rest is the
/// request's answer; after ``SecureDFUResultCode/extendedError`` it is one extended error byte.
/// A packet receipt notification has the format of a Calculate Checksum response.
public struct SecureDFUResponse: Sendable, Hashable {
    /// The request answered.
    public var request: SecureDFUOpCode
    /// Its result.
    public var result: SecureDFUResultCode
    /// The extended error byte after an extended error result (possibly a code this client does
    /// not know).
    public var extendedErrorCode: UInt8?
    /// What follows the result on success.
    public var payload: [UInt8]

    /// Creates a response.
    public init(request: SecureDFUOpCode, result: SecureDFUResultCode = .success, extendedErrorCode: UInt8? = nil, payload: [UInt8] = []) {
        self.request = request
        self.result = result
        self.extendedErrorCode = extendedErrorCode
        self.payload = payload
    }

    /// The known extended error, if any.
    public var extendedError: SecureDFUExtendedError? { extendedErrorCode.flatMap(SecureDFUExtendedError.init(rawValue:)) }

    /// The response's bytes, as a bootloader sends them.
    public var bytes: [UInt8] {
        var bytes = [SecureDFUOpCode.response.rawValue, request.rawValue, result.rawValue]
        if result == .success { bytes += payload } else if let extendedErrorCode { bytes.append(extendedErrorCode) }
        return bytes
    }

    /// Reads a response; every length is checked.
    public static func parse(_ bytes: [UInt8]) -> Result<SecureDFUResponse, SecureDFUResponseParseFailure> {
        guard bytes.count >= 3 else { return .failure(.tooShort(bytes.count)) }
        guard bytes[0] == SecureDFUOpCode.response.rawValue else { return .failure(.notAResponse(bytes[0])) }
        guard let request = SecureDFUOpCode(rawValue: bytes[1]) else { return .failure(.unknownRequest(bytes[1])) }
        guard let result = SecureDFUResultCode(rawValue: bytes[2]) else { return .failure(.unknownResult(request, bytes[2])) }
        switch result {
        case .success:
            return .success(SecureDFUResponse(request: request, payload: Array(bytes[3...])))
        case .extendedError:
            guard bytes.count == 4 else { return .failure(.wrongLength(request, bytes.count)) }
            return .success(SecureDFUResponse(request: request, result: result, extendedErrorCode: bytes[3]))
        default:
            return .success(SecureDFUResponse(request: request, result: result))
        }
    }

    /// The offset and CRC of a Calculate Checksum response or a receipt notification (8 bytes).
    public func checksum() throws(SecureDFUError) -> SecureDFUChecksum {
        let payload = try payload(of: 8)
        return SecureDFUChecksum(
            offset: UInt32(LittleEndian.value(payload, at: 0, count: 4)), crc: UInt32(LittleEndian.value(payload, at: 4, count: 4)))
    }

    /// The maximum size, offset and CRC of a Select response (12 bytes).
    public func selection() throws(SecureDFUError) -> SecureDFUSelection {
        let payload = try payload(of: 12)
        return SecureDFUSelection(
            maximumSize: UInt32(LittleEndian.value(payload, at: 0, count: 4)),
            checksum: SecureDFUChecksum(
                offset: UInt32(LittleEndian.value(payload, at: 4, count: 4)), crc: UInt32(LittleEndian.value(payload, at: 8, count: 4))))
    }

    /// The serial MTU of a Get MTU response (2 bytes).
    public func mtu() throws(SecureDFUError) -> Int {
        Int(LittleEndian.value(try payload(of: 2), at: 0, count: 2))
    }

    /// The id echoed by a Ping response (1 byte).
    public func pingID() throws(SecureDFUError) -> UInt8 {
        try payload(of: 1)[0]
    }

    /// The payload, which must be `count` bytes long (a longer one is accepted: later SDKs may add
    /// fields).
    private func payload(of count: Int) throws(SecureDFUError) -> [UInt8] {
        guard payload.count >= count else {
            throw SecureDFUError.malformed(
                "the answer to \(request) carries \(payload.count) bytes after its result, expected \(count)", request: request)
        }
        return payload
    }

    /// The error a failed response stands for; nil on success.
    public func failure(object: SecureDFUObjectType?, offset: UInt32?) -> SecureDFUError? {
        guard result != .success else { return nil }
        return SecureDFUError.refused(self, object: object, offset: offset)
    }
}

/// Why bytes are not a Secure DFU response.
public enum SecureDFUResponseParseFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer than the 3 bytes of op code, request and result.
    case tooShort(Int)
    /// The first byte is not 0x60.
    case notAResponse(UInt8)
    /// The request op code is unknown.
    case unknownRequest(UInt8)
    /// The result code is unknown.
    case unknownResult(SecureDFUOpCode, UInt8)
    /// An extended error result not followed by exactly one byte.
    case wrongLength(SecureDFUOpCode, Int)

    public var description: String {
        switch self {
        case .tooShort(let count): "a frame of \(count) bytes is too short for an answer (at least 3)"
        case .notAResponse(let first): "a frame starting with 0x\(String(first, radix: 16)) is not an answer (0x60)"
        case .unknownRequest(let op): "an answer to the unknown request 0x\(String(op, radix: 16))"
        case .unknownResult(let request, let code): "an answer to \(request) with the unknown result 0x\(String(code, radix: 16))"
        case .wrongLength(let request, let count): "an extended error answer to \(request) of \(count) bytes (expected 4)"
        }
    }
}

/// How much of an object (and of the objects before it) a target holds: the offset within the
/// image (or init packet) and the CRC-32 of all bytes up to it.
public struct SecureDFUChecksum: Sendable, Hashable, CustomStringConvertible {
    /// Bytes received.
    public var offset: UInt32
    /// The CRC-32 (zlib) of those bytes.
    public var crc: UInt32

    /// Creates a checksum report.
    public init(offset: UInt32, crc: UInt32) {
        self.offset = offset
        self.crc = crc
    }

    public var description: String { "offset \(offset), CRC 0x\(String(crc, radix: 16, uppercase: true))" }
}

/// A Select response: the largest object of the type, and what the target holds.
public struct SecureDFUSelection: Sendable, Hashable {
    /// The largest object the target takes (4096 for data on nRF52, 256 for the init packet on SDK 15).
    public var maximumSize: UInt32
    /// What was received so far.
    public var checksum: SecureDFUChecksum

    /// Creates a selection report.
    public init(maximumSize: UInt32, checksum: SecureDFUChecksum) {
        self.maximumSize = maximumSize
        self.checksum = checksum
    }

    /// The response payload: maximum size, offset, CRC.
    public var payload: [UInt8] {
        LittleEndian.bytes(maximumSize) + LittleEndian.bytes(checksum.offset) + LittleEndian.bytes(checksum.crc)
    }
}

extension SecureDFUChecksum {
    /// The response payload: offset, CRC.
    public var payload: [UInt8] { LittleEndian.bytes(offset) + LittleEndian.bytes(crc) }
}
