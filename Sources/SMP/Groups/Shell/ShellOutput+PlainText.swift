extension ShellOutput {
    /// ``output`` as plain text for a file or a pipe; see ``plainText(_:keepingEscapeSequences:)``.
    public var plainOutput: String { Self.plainText(output) }

    /// ``output`` for a terminal: line ends as in ``plainOutput``, colours kept.
    public var terminalOutput: String { Self.plainText(output, keepingEscapeSequences: true) }

    /// Console output made plain: ANSI escape sequences (colours, cursor moves) removed unless
    /// `keepingEscapeSequences`, `\r\n` line ends turned into `\n`, and the one leading line end
    /// Zephyr's shell writes before every command's output (the end of the command line it does
    /// not echo) dropped.
    public static func plainText(_ text: String, keepingEscapeSequences: Bool = false) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            switch byte {
            case 0x1B where !keepingEscapeSequences:
                skipEscapeSequence(&input)
            case 0x0D where input.first == 0x0A:
                continue
            default:
                bytes.append(byte)
            }
        }
        if bytes.first == 0x0A { bytes.removeFirst() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Drops the rest of an escape sequence whose ESC was read: a CSI (`ESC [` parameters and
    /// intermediates, then one final byte 0x40–0x7E), an OSC (`ESC ]` up to BEL or `ESC \`), or
    /// a two-byte sequence.
    private static func skipEscapeSequence(_ input: inout ArraySlice<UInt8>) {
        guard let kind = input.popFirst() else { return }
        switch kind {
        case UInt8(ascii: "["):
            while let byte = input.popFirst(), !(0x40...0x7E).contains(byte) {}
        case UInt8(ascii: "]"):
            while let byte = input.popFirst() {
                if byte == 0x07 { return }
                if byte == 0x1B, input.first == UInt8(ascii: "\\") {
                    input.removeFirst()
                    return
                }
            }
        default:
            return
        }
    }
}
