// smpctl-bench frame-decoding [MEGABYTES]
//
// How fast the serial console decoder takes a stream apart: MEGABYTES (default 32) of SMP frames of
// random sizes from both encoders (client and Zephyr device style), each followed by a log line as
// a Zephyr console interleaves them, fed in 4 KiB reads. Printed as one JSON line: megabytes per
// second and the packets delivered. A 1 Mbaud UART carries 0.1 MB/s, USB CDC ACM some MB/s.
// Benchmarks/run-serial.sh prints it under its table.
import Foundation
import SMPConsoleFraming

enum FrameDecoding {
    static func run(_ arguments: [String]) -> Int32 {
        let megabytes = arguments.count > 2 ? Int(arguments[2]) ?? 32 : 32
        var generator = SystemRandomNumberGenerator()
        var stream: [UInt8] = []
        var packets = 0
        let logLine = Array("[00:00:01.000,000] <inf> log line\r\n".utf8)
        while stream.count < megabytes << 20 {
            let message = (0..<Int.random(in: 0..<2048, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            stream += SerialFrameEncoder(style: Bool.random(using: &generator) ? .client : .zephyrDevice).encode(message) + logLine
            packets += 1
        }
        let clock = ContinuousClock()
        let start = clock.now
        var decoder = SerialFrameDecoder()
        var delivered = 0
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + 4096)
            delivered += decoder.feed(stream[offset..<end]).count
            offset = end
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard delivered == packets else {
            FileHandle.standardError.write(Data("smpctl-bench: \(delivered) of \(packets) packets decoded\n".utf8))
            return 1
        }
        print(String(format: "{\"tool\":\"smpctl\",\"bytes\":%d,\"packets\":%d,\"seconds\":%.4f,\"megabytesPerSecond\":%.1f}",
                     stream.count, packets, seconds, Double(stream.count) / 1e6 / seconds))
        return 0
    }
}
