/// A connection string that could not be parsed: which part, what is wrong, and the accepted forms.
public struct ConnectionStringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The whole input.
    public var input: String
    /// The offending part.
    public var part: String
    /// What is wrong with it.
    public var problem: String
    /// The accepted forms, or a hint.
    public var hint: String

    /// The error in one line; a secret of the input (`psk=…`) shows as `<hidden>` (``ConnectionSecrets``).
    public var description: String {
        let input = ConnectionSecrets.redacted(input), part = ConnectionSecrets.redacted(part)
        return "invalid connection string \"\(Self.shortened(input))\": \(part.isEmpty ? "" : "\"\(Self.shortened(part))\": ")\(problem)"
    }

    /// A long text cut to its start and its length, so that an error stays one readable line.
    private static func shortened(_ text: String) -> String {
        text.count <= 120 ? text : "\(text.prefix(80))… (\(text.count) characters)"
    }

    /// The accepted forms, one per line, for help and error messages.
    public static let examples = """
        udp:192.0.2.1  udp:192.0.2.1:1337  udp:device.local  udp:[fe80::1%eth0]:1337
        serial:/dev/ttyACM0?baud=115200  serial:usb=2fe3:0100  serial:usb=2fe3:0100:SERIAL  serial:serial-number=SERIAL  serial:auto
        serial:tcp://127.0.0.1:5000  serial:rfc2217://lab-host:3001  serial:/dev/ttyACM0?framing=raw  serial:/dev/ttyACM0?burst=2&gap=20
        ble:AA:BB:CC:DD:EE:FF  ble:name=Zephyr?adapter=hci0&pair=1
        udp:192.0.2.1?dtls=1&psk-id=ID&psk-file=key.hex  udp:device.local?dtls=1&ca=ca.pem
        """
}
