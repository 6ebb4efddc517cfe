/// Which telnet options are on, each way, and the answer to each request from the server.
///
/// smpctl will do binary (RFC 856), suppress-go-ahead (RFC 858) and COM-PORT-OPTION (RFC 2217),
/// and wants the server to do binary and suppress-go-ahead; it refuses every other option
/// (echo among them: SMP's bytes are not for echoing). A request is answered only when it changes
/// something, once, so two ends never answer each other for ever (RFC 854's rule).
struct TelnetOptionState: Sendable {
    /// What an incoming request leads to.
    enum Answer: Sendable, Equatable {
        case nothing
        case reply([UInt8])
        /// An option that smpctl cannot do without was refused.
        case refused(RFC2217Refusal)
    }

    /// What smpctl does, in the order it offers them.
    private static let ownOptions: [UInt8] = [TelnetCodec.Option.comPort, TelnetCodec.Option.binary, TelnetCodec.Option.suppressGoAhead]
    /// What smpctl asks the server to do, in that order.
    private static let serverOptions: [UInt8] = [TelnetCodec.Option.binary, TelnetCodec.Option.suppressGoAhead]

    private var sentWill: Set<UInt8> = []
    private var sentDo: Set<UInt8> = []
    private var sentWont: Set<UInt8> = []
    private var sentDont: Set<UInt8> = []
    /// The options smpctl does, with the server's agreement.
    private var ownEnabled: Set<UInt8> = []
    /// The options the server does, with smpctl's agreement.
    private var serverEnabled: Set<UInt8> = []

    /// The server agreed to COM-PORT-OPTION.
    var comPortAgreed: Bool { ownEnabled.contains(TelnetCodec.Option.comPort) }

    /// Binary mode is on both ways.
    var binaryAgreed: Bool { ownEnabled.contains(TelnetCodec.Option.binary) && serverEnabled.contains(TelnetCodec.Option.binary) }

    /// The requests smpctl opens with.
    mutating func opening() -> [UInt8] {
        var bytes: [UInt8] = []
        for option in Self.ownOptions {
            sentWill.insert(option)
            bytes += TelnetCodec.negotiation(.will, option)
        }
        for option in Self.serverOptions {
            sentDo.insert(option)
            bytes += TelnetCodec.negotiation(.do, option)
        }
        return bytes
    }

    /// The answer to the server's `verb` for `option`.
    mutating func answer(_ verb: TelnetCodec.Negotiation, _ option: UInt8) -> Answer {
        switch verb {
        case .do:
            guard Self.ownOptions.contains(option) else { return Self.refuse(option, verb: .wont, sent: &sentWont) }
            ownEnabled.insert(option)
            guard sentWill.insert(option).inserted else { return .nothing }
            return .reply(TelnetCodec.negotiation(.will, option))
        case .will:
            guard Self.serverOptions.contains(option) else { return Self.refuse(option, verb: .dont, sent: &sentDont) }
            serverEnabled.insert(option)
            guard sentDo.insert(option).inserted else { return .nothing }
            return .reply(TelnetCodec.negotiation(.do, option))
        case .dont:
            ownEnabled.remove(option)
            if option == TelnetCodec.Option.comPort { return .refused(.noComPort) }
            if option == TelnetCodec.Option.binary { return .refused(.noBinary) }
            return .nothing
        case .wont:
            serverEnabled.remove(option)
            if option == TelnetCodec.Option.binary { return .refused(.noBinary) }
            return .nothing
        }
    }

    private static func refuse(_ option: UInt8, verb: TelnetCodec.Negotiation, sent: inout Set<UInt8>) -> Answer {
        guard sent.insert(option).inserted else { return .nothing }
        return .reply(TelnetCodec.negotiation(verb, option))
    }
}

/// Why an RFC 2217 port could not be opened.
enum RFC2217Refusal: Sendable, Equatable {
    /// No telnet command came within the time: a raw server, or not a serial server at all.
    case noTelnet(Duration)
    /// The server speaks telnet but refused COM-PORT-OPTION (or never agreed to it).
    case noComPort
    /// The server refused binary mode, which SMP's bytes need.
    case noBinary
    /// The server applied another value than asked.
    case settingRefused(String, asked: String, applied: String)
    /// The server did not answer a setting in time: it could not apply it.
    case settingUnconfirmed(String, String, Duration)
    /// The server closed the connection; the text it sent before, if any.
    case closed(String)
}
