/// The opening of an RFC 2217 serial port, without I/O: the telnet options agreed (binary both
/// ways, suppress-go-ahead, COM-PORT-OPTION), then the line set as opening a local port sets it:
/// DTR and RTS raised, the server's buffer of bytes from the device purged, baud rate, 8 data
/// bits, no parity, 1 stop bit, flow control. Each setting is checked against the server's
/// answer (RFC 2217 §3: the server answers a command with its code + 100 and the value it
/// applied).
///
/// A server that answers a setting with another value refused it; one that does not answer it
/// could not apply it (ser2net answers nothing for a rate its port cannot make). Both fail the
/// opening. DTR, RTS and the purge are different: a port without modem lines (a pseudo-terminal
/// behind ser2net) has nothing to raise, and a server need not answer a purge, so their silence
/// is a note. A server answers in the order it was asked, so once the later settings are
/// confirmed, an unanswered earlier one will not be.
///
/// ```swift
/// var handshake = RFC2217Handshake(baudRate: 115_200, hardwareFlowControl: false)
/// send(handshake.opening)
/// while true { let step = handshake.receive(read()); send(step.reply); if let outcome = step.outcome { … } }
/// ```
struct RFC2217Handshake: Sendable {
    /// COM-PORT-OPTION command codes, client to server (RFC 2217 §3); the server's are these + 100.
    enum Code {
        static let setBaudRate: UInt8 = 1
        static let setDataSize: UInt8 = 2
        static let setParity: UInt8 = 3
        static let setStopSize: UInt8 = 4
        static let setControl: UInt8 = 5
        static let notifyLineState: UInt8 = 6
        static let notifyModemState: UInt8 = 7
        static let purgeData: UInt8 = 12
        /// Added to a command's code in the server's answer.
        static let answerOffset: UInt8 = 100
    }

    /// SET-CONTROL values.
    enum Control {
        static let noFlowControl: UInt8 = 1
        static let hardwareFlowControl: UInt8 = 3
        static let dtrOn: UInt8 = 8
        static let rtsOn: UInt8 = 11
    }

    /// PURGE-DATA values.
    enum Purge {
        /// The server's buffer of bytes received from the device.
        static let received: UInt8 = 1
        /// The server's buffer of bytes not yet sent to the device.
        static let unsent: UInt8 = 2
    }

    /// One setting sent, and how its answer is recognised.
    struct Setting: Sendable, Equatable {
        /// In words, for messages: "the baud rate", "DTR".
        var name: String
        var code: UInt8
        var value: [UInt8]
        /// A setting whose answer must come (else the opening fails); the others are notes.
        var required: Bool
        /// For SET-CONTROL, which values answer this setting (flow control 0–3, DTR 7–9, RTS 10–12).
        var answers: ClosedRange<UInt8>?

        /// The value in words.
        func describe(_ value: [UInt8]) -> String {
            switch code {
            case Code.setBaudRate where value.count == 4:
                return "\(value.reduce(0) { $0 << 8 | Int($1) }) baud"
            case Code.setDataSize where value.count == 1:
                return "\(value[0]) data bits"
            case Code.setParity where value.count == 1 && (1...5).contains(value[0]):
                return ["no", "odd", "even", "mark", "space"][Int(value[0]) - 1] + " parity"
            case Code.setStopSize where value.count == 1 && (1...3).contains(value[0]):
                return ["1 stop bit", "2 stop bits", "1.5 stop bits"][Int(value[0]) - 1]
            case Code.setControl:
                switch value.first {
                case Control.noFlowControl: return "no flow control"
                case 2: return "XON/XOFF flow control"
                case Control.hardwareFlowControl: return "hardware flow control"
                default: return "control value \(value.first.map(String.init) ?? "none")"
                }
            default:
                // A malformed answer (ser2net 4.3 answers a rate it cannot set with one byte, 0x0e).
                return "the value " + (value.isEmpty ? "(none)" : value.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " "))
            }
        }
    }

    /// How the opening ended.
    enum Outcome: Sendable, Equatable {
        /// The port is set; `unconfirmed` names the settings the server did not confirm that do not
        /// matter (DTR and RTS on a port without them).
        case ready(unconfirmed: [String])
        /// The opening failed.
        case failed(RFC2217Refusal)
    }

    /// What one batch of received bytes led to.
    struct Step: Sendable, Equatable {
        /// Bytes to send now.
        var reply: [UInt8] = []
        /// Set when the opening is over.
        var outcome: Outcome?
    }

    /// The settings, in the order they are sent.
    let settings: [Setting]
    /// The telnet layer; after the opening it goes on in the stream, with any command cut in two.
    private(set) var codec = TelnetCodec()
    private(set) var options = TelnetOptionState()
    private var sentSettings = false
    private var unanswered: [Setting] = []
    private var heardTelnet = false
    /// The last data bytes received (at most 256): a server that cannot open its port says why in
    /// text before it closes the connection (ser2net: "Device open failure: …").
    private(set) var serverText: [UInt8] = []

    /// Whether the settings have gone out (the time for their answers starts then).
    var settingsSent: Bool { sentSettings }

    /// Sets up the opening of a line at `baudRate`, 8N1, with or without hardware flow control.
    init(baudRate: Int, hardwareFlowControl: Bool) {
        let rate = UInt32(clamping: baudRate)
        settings = [
            Setting(name: "DTR", code: Code.setControl, value: [Control.dtrOn], required: false, answers: 7...9),
            Setting(name: "RTS", code: Code.setControl, value: [Control.rtsOn], required: false, answers: 10...12),
            Setting(name: "the purge of its receive buffer", code: Code.purgeData, value: [Purge.received], required: false),
            Setting(name: "the baud rate", code: Code.setBaudRate,
                    value: [UInt8(rate >> 24), UInt8(rate >> 16 & 0xFF), UInt8(rate >> 8 & 0xFF), UInt8(rate & 0xFF)], required: true),
            Setting(name: "the data size", code: Code.setDataSize, value: [8], required: true),
            Setting(name: "the parity", code: Code.setParity, value: [1], required: true),
            Setting(name: "the stop bits", code: Code.setStopSize, value: [1], required: true),
            Setting(name: "the flow control", code: Code.setControl,
                    value: [hardwareFlowControl ? Control.hardwareFlowControl : Control.noFlowControl], required: true, answers: 0...3),
        ]
    }

    /// What the client says first: it will do COM-PORT-OPTION and binary, and asks the server for
    /// binary and suppress-go-ahead.
    mutating func opening() -> [UInt8] {
        options.opening()
    }

    /// Takes received bytes. Data before the port is set is the server's buffer from before this
    /// session (or its message that the port cannot be opened) and is not the caller's.
    mutating func receive(_ bytes: [UInt8]) -> Step {
        let (data, commands) = codec.decode(bytes)
        serverText = Array((serverText + data).suffix(256))
        var step = Step()
        for command in commands {
            heardTelnet = true
            switch command {
            case .negotiation(let verb, let option):
                switch options.answer(verb, option) {
                case .reply(let bytes): step.reply += bytes
                case .refused(let refusal): step.outcome = .failed(refusal)
                case .nothing: break
                }
            case .subnegotiation(let option, let bytes):
                guard option == TelnetCodec.Option.comPort, let code = bytes.first, code >= Code.answerOffset else { continue }
                if let refusal = answered(code: code - Code.answerOffset, value: Array(bytes.dropFirst())) {
                    step.outcome = .failed(refusal)
                }
            }
            if step.outcome != nil { return step }
        }
        if !sentSettings && options.comPortAgreed && options.binaryAgreed {
            sentSettings = true
            unanswered = settings
            for setting in settings {
                step.reply += TelnetCodec.subnegotiation(TelnetCodec.Option.comPort, [setting.code] + setting.value)
            }
        }
        if sentSettings && !unanswered.contains(where: \.required) {
            step.outcome = .ready(unconfirmed: unanswered.map(\.name))
        }
        return step
    }

    /// Why the opening failed when the time for it is up.
    func timedOut(after limit: Duration) -> RFC2217Refusal {
        if !heardTelnet { return .noTelnet(limit) }
        if !options.comPortAgreed { return .noComPort }
        if !options.binaryAgreed { return .noBinary }
        guard let first = unanswered.first(where: \.required) else { return .noComPort }
        return .settingUnconfirmed(first.name, first.describe(first.value), limit)
    }

    /// Matches an answer to the first unanswered setting it answers; a different value than asked
    /// is a refusal. NOTIFY-LINESTATE and NOTIFY-MODEMSTATE, and answers to nothing asked, are let pass.
    private mutating func answered(code: UInt8, value: [UInt8]) -> RFC2217Refusal? {
        guard let index = unanswered.firstIndex(where: { setting in
            setting.code == code && (setting.answers.map { range in value.first.map(range.contains) ?? false } ?? true)
        }) else { return nil }
        let setting = unanswered.remove(at: index)
        guard setting.required, value != setting.value else { return nil }
        return .settingRefused(setting.name, asked: setting.describe(setting.value), applied: setting.describe(value))
    }
}
