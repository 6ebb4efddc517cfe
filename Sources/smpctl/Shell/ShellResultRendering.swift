import SMP

/// How shell results are shown and turned into exit codes.
enum ShellResultRendering {
    /// `{"argv":[…],"output":"…","returnCode":N,"legacyReturnCode":false}`.
    static func json(argv: [String], _ result: ShellOutput) -> JSONValue {
        .object([
            ("argv", .array(argv.map(JSONValue.string))), ("output", .string(result.output)),
            ("returnCode", .int(result.returnCode)), ("legacyReturnCode", .bool(result.isLegacyReturnCode)),
        ])
    }

    /// The process exit status for a device return code: its low 8 bits, but never 0 for a failure.
    static func exitStatus(_ returnCode: Int64) -> Int32 {
        let status = Int32(truncatingIfNeeded: returnCode & 0xFF)
        return returnCode != 0 && status == 0 ? 1 : status
    }
}
