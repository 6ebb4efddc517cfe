import ArgumentParser
import CBOR
import JSON
import SMP

/// `smpctl raw --group G --command N --op read|write [--payload-json '{…}' | --cbor HEX] [--json]`
struct RawCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raw",
        abstract: "Send any SMP request and print the decoded response.",
        discussion: """
            The payload is a JSON object (integers stay integers, strings become text) or raw CBOR in hex.
            The response is printed in CBOR diagnostic notation, or as a JSON document with --json.
            A response with an error is printed and exits with status 2.
            Example: smpctl raw --group os --command 0 --op write --payload-json '{"d":"hi"}'
            """)

    enum Operation: String, ExpressibleByArgument, CaseIterable {
        case read, write
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Group: a number or a name (os, image, stat, settings, fs, shell, enum...).", valueName: "group"))
    var group: String

    @Option(help: ArgumentHelp("Command ID within the group, 0 to 255.", valueName: "id"))
    var command: UInt8

    @Option(help: "read or write.")
    var op: Operation

    @Option(name: .customLong("payload-json"), help: ArgumentHelp("Payload as a JSON object.", valueName: "object"))
    var jsonPayload: String?

    @Option(help: ArgumentHelp("Payload as CBOR in hex (must be a map).", valueName: "hex"))
    var cbor: String?

    @Flag(help: "Allow resending the request if its response is lost (only for harmless requests).")
    var retrySafe = false

    func validate() throws {
        if jsonPayload != nil && cbor != nil { throw ValidationError("give either --payload-json or --cbor, not both") }
        guard SMPGroup(commandLine: group) != nil else {
            throw ValidationError("unknown group \"\(group)\"; use a number 0–65535 or one of "
                + SMPGroup.known.compactMap(\.displayName).joined(separator: ", "))
        }
    }

    func run() async throws {
        let output = global.output
        let payload: CBORMap
        do {
            payload = try makePayload()
        } catch {
            let failure = CLIError(error)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
        let groupID = SMPGroup(commandLine: group) ?? .os
        try await global.withClient { client, output in
            let request = SMPRequest(
                group: groupID, command: command, operation: op == .read ? .read : .write, payload: payload,
                isRetrySafe: retrySafe)
            let response = try await client.exchange(request)
            var document: [(String, JSONValue)] = [
                ("group", .uint(UInt64(response.header.group.rawValue))), ("command", .uint(UInt64(response.header.command))),
                ("sequence", .uint(UInt64(response.header.sequence))), ("version", .uint(UInt64(response.header.versionBits))),
                ("response", JSONValue(.map(response.payload))),
            ]
            if let error = response.deviceError {
                let failure = CLIError(.deviceError, "the device answered \(error)", deviceError: error)
                // One document: the response plus the "error" member every error document has.
                if case .object(let members) = failure.json { document += members }
                output.emit(.object(document), human: CBOR.map(response.payload).diagnosticDescription)
                output.report(failure, document: false)  // the message on standard error; the document already holds it
                throw ExitCode(failure.status.rawValue)
            }
            output.emit(.object(document), human: CBOR.map(response.payload).diagnosticDescription)
        }
    }

    private func makePayload() throws -> CBORMap {
        if let cbor {
            guard let bytes = Hex.bytes(cbor) else {
                throw CLIError(.dataError, "--cbor \"\(cbor)\" is not hexadecimal", hint: "write bytes as hex, e.g. a16164626869")
            }
            let item: CBOR
            do { item = try CBORDecoder().decode(bytes) } catch {
                throw CLIError(.dataError, "--cbor: \(error)")
            }
            guard case .map(let map) = item else {
                let article = item.typeName.first.map { "aeiou".contains($0) } == true ? "an" : "a"
                throw CLIError(.dataError, "--cbor: the payload is \(article) \(item.typeName); SMP payloads are maps")
            }
            return map
        }
        guard let jsonPayload else { return [:] }
        let value: JSONValue
        do { value = try JSONValue.parse(jsonPayload) } catch {
            throw CLIError(.dataError, "--payload-json: invalid JSON at character \(error.character): \(error.problem)", hint: "quote the object for the shell: --payload-json '{\"d\":\"hi\"}'")
        }
        guard case .map(let map) = value.cbor else {
            throw CLIError(.dataError, "--payload-json: the payload must be a JSON object, not \(jsonPayload)")
        }
        return map
    }
}
