// smpctl-bench: echo round trips against an SMP device, printed as one JSON line.
//
//   smpctl-bench echo CONNECTION [COUNT] [CONCURRENCY] [PAYLOAD_BYTES] [learn]
//
// With `learn`, a serial link learns the device's line pacing before the warm-up, as transfers
// do (SMPClient.tuneLinePacing); without it, the client learns it before its first request that
// takes more lines than the default pacing writes at once. The JSON line gives the pacing in force
// at the end.
//
// Also `serial-goodput` (SerialGoodput.swift), `upload-ceiling` (UploadCeiling.swift) and
// `frame-decoding` (FrameDecoding.swift).
//
// Sequential (concurrency 1) runs give latency percentiles; higher concurrency gives throughput
// with many requests in flight. Benchmarks/run-echo.sh runs it next to smpclient and compares.
import Foundation
import SMP
import SMPKit

let arguments = CommandLine.arguments
if arguments.count > 1, arguments[1] == "serial-goodput" { exit(await SerialGoodput.run(arguments)) }
if arguments.count > 1, arguments[1] == "upload-ceiling" { exit(await UploadCeiling.run(arguments)) }
if arguments.count > 1, arguments[1] == "frame-decoding" { exit(FrameDecoding.run(arguments)) }
guard arguments.count >= 3, arguments[1] == "echo" else {
    FileHandle.standardError.write(Data("usage: smpctl-bench echo CONNECTION [COUNT] [CONCURRENCY] [PAYLOAD_BYTES] [learn]\n".utf8))
    exit(64)
}
let count = arguments.count > 3 ? Int(arguments[3]) ?? 2000 : 2000
let concurrency = max(1, arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1)
let payloadBytes = arguments.count > 5 ? Int(arguments[5]) ?? 8 : 8
let text = String(repeating: "x", count: payloadBytes)
let learn = arguments.count > 6 && arguments[6] == "learn"

do {
    let client = try await SMPConnection.open(arguments[2])
    if learn { await client.tuneLinePacing() }
    for _ in 0..<min(50, count) { _ = try await client.send(OSEcho(text)) }  // warm-up
    let clock = ContinuousClock()
    let start = clock.now
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        let perWorker = count / concurrency
        for _ in 0..<concurrency {
            group.addTask {
                var samples: [Double] = []
                samples.reserveCapacity(perWorker)
                for _ in 0..<perWorker {
                    let sent = clock.now
                    _ = try await client.send(OSEcho(text))
                    let elapsed = clock.now - sent
                    samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
                }
                return samples
            }
        }
        var all: [Double] = []
        for try await samples in group { all += samples }
        return all.sorted()
    }
    let total = clock.now - start
    // The pacing in force at the end (the client learns it before its first large request).
    let pacing = (client.transport as? any SMPLinePacedTransport)?.linePacing.description ?? "none"
    let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
    func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
    let line = String(
        format: "{\"tool\":\"smpctl\",\"count\":%d,\"concurrency\":%d,\"payload\":%d,\"seconds\":%.4f,\"rps\":%.1f,\"p50_us\":%.1f,\"p99_us\":%.1f,\"pacing\":",
        latencies.count, concurrency, payloadBytes, seconds, Double(latencies.count) / seconds, percentile(0.5), percentile(0.99)) + "\"\(pacing)\"}"
    print(line)
    await client.close()
} catch {
    FileHandle.standardError.write(Data("smpctl-bench: \(error)\n".utf8))
    exit(1)
}
