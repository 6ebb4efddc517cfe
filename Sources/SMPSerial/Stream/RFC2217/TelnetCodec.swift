/// The telnet layer of an RFC 2217 serial port (RFC 854, RFC 855): data bytes with commands in
/// between, each command starting with IAC (0xFF). A data byte 0xFF is sent as IAC IAC, both
/// ways, and inside subnegotiations too. Binary mode (RFC 856) is negotiated both ways, so no
/// carriage-return rule applies: every other byte is data as it is.
struct TelnetCodec: Sendable {
    /// "Interpret as command".
    static let iac: UInt8 = 0xFF

    /// A command received between data bytes.
    enum Command: Sendable, Equatable {
        /// WILL, WONT, DO or DONT for an option.
        case negotiation(Negotiation, option: UInt8)
        /// A subnegotiation (IAC SB option … IAC SE): the option and its bytes, IAC IAC undone.
        case subnegotiation(option: UInt8, [UInt8])
    }

    /// The four negotiation verbs.
    enum Negotiation: UInt8, Sendable {
        case will = 251, wont = 252, `do` = 253, dont = 254

        var name: String {
            switch self {
            case .will: "WILL"
            case .wont: "WONT"
            case .do: "DO"
            case .dont: "DONT"
            }
        }
    }

    /// The options smpctl negotiates.
    enum Option {
        static let binary: UInt8 = 0
        static let echo: UInt8 = 1
        static let suppressGoAhead: UInt8 = 3
        static let comPort: UInt8 = 44
    }

    /// The longest subnegotiation kept: an RFC 2217 one is at most a few bytes (a signature is text
    /// of the server's choosing; it is cut).
    static let subnegotiationLimit = 256

    private enum State: Sendable {
        case data
        case command
        case negotiation(Negotiation)
        case subnegotiationOption
        case subnegotiation(option: UInt8, bytes: [UInt8])
        case subnegotiationCommand(option: UInt8, bytes: [UInt8])
    }

    private var state = State.data

    /// Splits received bytes into data and commands, keeping what a command cut at the end of
    /// `bytes` started for the next call.
    mutating func decode(_ bytes: [UInt8]) -> (data: [UInt8], commands: [Command]) {
        var data: [UInt8] = []
        data.reserveCapacity(bytes.count)
        var commands: [Command] = []
        for byte in bytes {
            switch state {
            case .data:
                if byte == Self.iac { state = .command } else { data.append(byte) }
            case .command:
                switch byte {
                case Self.iac:
                    data.append(byte)
                    state = .data
                case 250:
                    state = .subnegotiationOption
                case 251...254:
                    state = Negotiation(rawValue: byte).map { .negotiation($0) } ?? .data
                default:
                    // NOP, data mark, go-ahead and the other one-byte commands carry nothing here.
                    state = .data
                }
            case .negotiation(let verb):
                commands.append(.negotiation(verb, option: byte))
                state = .data
            case .subnegotiationOption:
                state = .subnegotiation(option: byte, bytes: [])
            case .subnegotiation(let option, var kept):
                if byte == Self.iac {
                    state = .subnegotiationCommand(option: option, bytes: kept)
                } else {
                    if kept.count < Self.subnegotiationLimit { kept.append(byte) }
                    state = .subnegotiation(option: option, bytes: kept)
                }
            case .subnegotiationCommand(let option, var kept):
                switch byte {
                case Self.iac:
                    if kept.count < Self.subnegotiationLimit { kept.append(byte) }
                    state = .subnegotiation(option: option, bytes: kept)
                case 240:
                    commands.append(.subnegotiation(option: option, kept))
                    state = .data
                default:
                    // Not allowed inside a subnegotiation (RFC 855): the subnegotiation is dropped
                    // and the byte read as the command it names.
                    state = .command
                    let (more, further) = decode([byte])
                    data += more
                    commands += further
                }
            }
        }
        return (data, commands)
    }

    /// `bytes` as telnet data: every 0xFF doubled.
    static func escape(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(iac) else { return bytes }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            escaped.append(byte)
            if byte == iac { escaped.append(iac) }
        }
        return escaped
    }

    /// IAC verb option.
    static func negotiation(_ verb: Negotiation, _ option: UInt8) -> [UInt8] {
        [iac, verb.rawValue, option]
    }

    /// IAC SB option bytes IAC SE, with 0xFF doubled in the bytes.
    static func subnegotiation(_ option: UInt8, _ bytes: [UInt8]) -> [UInt8] {
        [iac, 250, option] + escape(bytes) + [iac, 240]
    }
}
