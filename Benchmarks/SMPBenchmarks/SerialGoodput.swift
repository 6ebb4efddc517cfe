// smpctl-bench serial-goodput PATH BAUD [COUNT] [WINDOW]
//
// Goodput of a large transfer over a serial link: COUNT echo requests of the largest size the
// device accepts (buf_size − 4), WINDOW of them in flight, against a device paced at BAUD (such
// as `smpctl simulate --serial-link PATH --baud BAUD`). The client → device direction is what is
// measured; the echoes come back on the other direction of the full-duplex line.
//
// Printed as one JSON line: SMP message bytes per second, the wire ceiling for such messages
// (BAUD / 10 bytes per second, less base64, markers, newlines, length and CRC), and their ratio.
// Benchmarks/run-serial.sh runs it next to smpclient and compares.
import Foundation
import SMP
import SMPSerial

enum SerialGoodput {
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count >= 4, let baud = Int(arguments[3]), baud > 0 else {
            FileHandle.standardError.write(Data("usage: smpctl-bench serial-goodput PATH BAUD [COUNT] [WINDOW]\n".utf8))
            return 64
        }
        let path = arguments[2]
        let count = arguments.count > 4 ? Int(arguments[4]) ?? 60 : 60
        let window = max(1, arguments.count > 5 ? Int(arguments[5]) ?? 3 : 3)
        do {
            let transport = try await SerialTransport.open(path: path, options: SerialPortOptions(baudRate: baud))
            let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(10)))
            let limit = await client.maximumMessageSize()
            let (text, message) = largestEcho(fitting: limit)
            for _ in 0..<3 { _ = try await client.send(OSEcho(text)) }  // warm-up
            let clock = ContinuousClock()
            let start = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<window {
                    group.addTask {
                        for _ in stride(from: worker, to: count, by: window) {
                            guard try await client.send(OSEcho(text)) == text else { throw EchoMismatch() }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let seconds = (clock.now - start) / .seconds(1)
            await client.close()
            let wire = SerialFrameEncoder().encode(message).count
            let ceiling = Double(baud) / 10 * Double(message.count) / Double(wire)
            let goodput = Double(count * message.count) / seconds
            print(String(
                format: "{\"tool\":\"smpctl\",\"baud\":%d,\"count\":%d,\"window\":%d,\"message\":%d,\"payload\":%d,\"wire\":%d,"
                    + "\"seconds\":%.4f,\"goodput\":%.1f,\"ceiling\":%.1f,\"ratio\":%.4f}",
                baud, count, window, message.count, text.utf8.count, wire, seconds, goodput, ceiling, goodput / ceiling))
            return 0
        } catch {
            FileHandle.standardError.write(Data("smpctl-bench: \(error)\n".utf8))
            return 1
        }
    }

    /// The longest echo text whose request fits `limit` bytes, and that request's bytes.
    private static func largestEcho(fitting limit: Int) -> (String, [UInt8]) {
        var length = limit
        while true {
            let text = String(repeating: "e", count: max(0, length))
            let request = OSEcho(text).request
            let header = SMPHeader(
                operation: request.operation, length: 0, group: request.group, sequence: 0, command: request.command)
            let message = SMPMessage(header: header, payload: request.payload).encoded()
            if message.count <= limit || length <= 0 { return (text, message) }
            length -= 1
        }
    }

    private struct EchoMismatch: Error, CustomStringConvertible {
        var description: String { "an echo came back different" }
    }
}
