import ArgumentParser
import JSON
import SMP

/// `smpctl os mpstat`
struct OSMPStatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mpstat", abstract: "List memory pools (Mynewt; Zephyr devices answer 'not supported').")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let pools = try await client.send(OSMemoryPoolStatistics())
            var table = Table(["POOL", "BLOCK SIZE", "BLOCKS", "FREE", "MIN FREE"], alignments: [.left, .right, .right, .right, .right])
            for pool in pools {
                table.add([pool.name] + [pool.blockSize, pool.blocks, pool.free, pool.minimumFree].map { $0.map(String.init) ?? "-" })
            }
            let json: [JSONValue] = pools.map { pool in
                .object([
                    ("name", .string(pool.name)), ("blockSize", pool.blockSize.map(JSONValue.int) ?? .null),
                    ("blocks", pool.blocks.map(JSONValue.int) ?? .null), ("free", pool.free.map(JSONValue.int) ?? .null),
                    ("minimumFree", pool.minimumFree.map(JSONValue.int) ?? .null),
                ])
            }
            output.emit(.object([("pools", .array(json))]), human: pools.isEmpty ? "no memory pools" : table.rendered)
        }
    }
}
