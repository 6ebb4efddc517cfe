/// A Secure DFU request, as the client sends it and a target reads it.
///
/// Multi-byte values are little-endian. Over serial every request is one SLIP frame; over BLE
/// ``write(_:)`` goes to the data characteristic without its op code and the others to the
/// control point.
public enum SecureDFURequest: Sendable, Hashable {
    /// `[00]`.
    case protocolVersion
    /// `[01, type, u32 size]`.
    case create(SecureDFUObjectType, size: UInt32)
    /// `[02, u16 interval]`: a notification after every `interval` writes; 0 turns them off.
    case setReceiptNotification(UInt16)
    /// `[03]`.
    case calculateChecksum
    /// `[04]`.
    case execute
    /// `[06, type]`.
    case select(SecureDFUObjectType)
    /// `[07]`.
    case mtu
    /// `[08, data…]`.
    case write([UInt8])
    /// `[09, id]`.
    case ping(UInt8)
    /// `[0A]`.
    case hardwareVersion
    /// `[0B, image number]`.
    case firmwareVersion(image: UInt8)
    /// `[0C]`.
    case abort

    /// The request's op code.
    public var opCode: SecureDFUOpCode {
        switch self {
        case .protocolVersion: .protocolVersion
        case .create: .create
        case .setReceiptNotification: .setReceiptNotification
        case .calculateChecksum: .calculateChecksum
        case .execute: .execute
        case .select: .select
        case .mtu: .mtu
        case .write: .write
        case .ping: .ping
        case .hardwareVersion: .hardwareVersion
        case .firmwareVersion: .firmwareVersion
        case .abort: .abort
        }
    }

    /// The request's bytes, op code first.
    public var bytes: [UInt8] {
        let op = opCode.rawValue
        switch self {
        case .create(let type, let size): return [op, type.rawValue] + LittleEndian.bytes(size)
        case .setReceiptNotification(let interval): return [op] + LittleEndian.bytes(interval)
        case .select(let type): return [op, type.rawValue]
        case .write(let data): return [op] + data
        case .ping(let id): return [op, id]
        case .firmwareVersion(let image): return [op, image]
        case .protocolVersion, .calculateChecksum, .execute, .mtu, .hardwareVersion, .abort: return [op]
        }
    }

    /// Reads a request; nil for an unknown op code, a wrong length or an unknown object type
    /// (a target answers those with ``SecureDFUResultCode/opCodeNotSupported``,
    /// ``SecureDFUResultCode/invalidParameter`` or ``SecureDFUResultCode/unsupportedType``;
    /// see ``SecureDFURequestParseFailure``).
    public static func parse(_ bytes: [UInt8]) -> Result<SecureDFURequest, SecureDFURequestParseFailure> {
        guard let first = bytes.first else { return .failure(.empty) }
        guard let op = SecureDFUOpCode(rawValue: first), op != .response else { return .failure(.unknownOpCode(first)) }
        let payload = Array(bytes.dropFirst())
        func exactly(_ count: Int, _ make: () -> SecureDFURequest) -> Result<SecureDFURequest, SecureDFURequestParseFailure> {
            payload.count == count ? .success(make()) : .failure(.wrongLength(op))
        }
        switch op {
        case .protocolVersion: return exactly(0) { .protocolVersion }
        case .calculateChecksum: return exactly(0) { .calculateChecksum }
        case .execute: return exactly(0) { .execute }
        case .mtu: return exactly(0) { .mtu }
        case .hardwareVersion: return exactly(0) { .hardwareVersion }
        case .abort: return exactly(0) { .abort }
        case .ping: return exactly(1) { .ping(payload[0]) }
        case .firmwareVersion: return exactly(1) { .firmwareVersion(image: payload[0]) }
        case .setReceiptNotification:
            return exactly(2) { .setReceiptNotification(UInt16(LittleEndian.value(payload, at: 0, count: 2))) }
        case .write:
            return payload.isEmpty ? .failure(.wrongLength(op)) : .success(.write(payload))
        case .select:
            guard payload.count == 1 else { return .failure(.wrongLength(op)) }
            guard let type = SecureDFUObjectType(rawValue: payload[0]) else { return .failure(.unknownObjectType(op, payload[0])) }
            return .success(.select(type))
        case .create:
            guard payload.count == 5 else { return .failure(.wrongLength(op)) }
            guard let type = SecureDFUObjectType(rawValue: payload[0]) else { return .failure(.unknownObjectType(op, payload[0])) }
            return .success(.create(type, size: UInt32(LittleEndian.value(payload, at: 1, count: 4))))
        case .response:
            return .failure(.unknownOpCode(first))
        }
    }
}

/// Why bytes are not a Secure DFU request.
public enum SecureDFURequestParseFailure: Error, Sendable, Hashable {
    /// No bytes at all.
    case empty
    /// An op code no Secure DFU bootloader knows.
    case unknownOpCode(UInt8)
    /// A known op code with too few or too many bytes after it.
    case wrongLength(SecureDFUOpCode)
    /// Select or Create with an object type other than 1 (command) or 2 (data).
    case unknownObjectType(SecureDFUOpCode, UInt8)

    /// The result a bootloader answers it with.
    public var result: SecureDFUResultCode {
        switch self {
        case .empty, .unknownOpCode: .opCodeNotSupported
        case .wrongLength: .invalidParameter
        case .unknownObjectType: .unsupportedType
        }
    }
}
