import ArgumentParser
import SMP

/// `smpctl fs hash REMOTE [--type T] [--offset N] [--length N]`
struct FSHashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash", abstract: "Print the device's hash or checksum of a file, or of a range of it.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: FSRemotePath.help)
    var remote: String

    @Option(help: ArgumentHelp("crc32, sha256 or another type the device lists (`fs types`); default: the device's (crc32 if it has it).", valueName: "type"))
    var type: String?

    @Option(help: ArgumentHelp("Start at this offset.", valueName: "n"))
    var offset: UInt64?

    @Option(help: ArgumentHelp("Hash this many bytes (default: to the end of the file).", valueName: "n"))
    var length: UInt64?

    func validate() throws {
        try FSRemotePath.validate(remote)
        try NumericRange.length.check(length)
    }

    func run() async throws {
        try await global.withClient { client, output in
            let hash = try await client.send(FileHash(name: remote, type: type, offset: offset, length: length))
            output.emit(
                .object([
                    ("name", .string(remote)), ("type", .string(hash.type)), ("offset", .uint(hash.offset)), ("length", .uint(hash.length)),
                    ("hash", .string(hash.hex)),
                ]),
                human: "\(hash.type) \(hash.hex)  \(remote) [\(hash.offset), \(hash.offset + hash.length))")
        }
    }
}
