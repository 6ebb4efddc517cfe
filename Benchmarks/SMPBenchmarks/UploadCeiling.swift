// smpctl-bench upload-ceiling FILE CONNECTION BAUD [WINDOW]
//
// The wire ceiling of an image upload over a serial link: uploads FILE to the device at
// CONNECTION (a serial connection string, e.g. serial:/dev/pts/3?baud=1000000) with the same
// engine, chunk sizes and options as `smpctl image upload FILE --restart` (the restart chunk
// included), encodes every request it sends with the serial framing, and prints as one JSON line
// the image bytes, the request bytes and their bytes on the wire, and the ceiling: the image
// bytes per second a line of BAUD (10 bits a byte: start, 8 data, stop) carries when it carries
// nothing but these requests. Benchmarks/run-upload.sh divides measured goodput by it.
//
// Run it against an unpaced link: the ceiling depends on the requests, not on the pace.
import Foundation
import SMP
import SMPKit
import SMPSerial

enum UploadCeiling {
    static let usage = "usage: smpctl-bench upload-ceiling FILE SERIAL-CONNECTION BAUD [WINDOW]\n"

    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count >= 5, let baud = Int(arguments[4]), baud > 0 else {
            FileHandle.standardError.write(Data(usage.utf8))
            return 64
        }
        let window = arguments.count > 5 ? Int(arguments[5]) : nil
        do {
            let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[2])))
            let connection = try ConnectionString(parsing: arguments[3])
            guard let serial = try await SMPConnection.openTransport(connection) as? SerialTransport else {
                throw NotSerial(connection: arguments[3])
            }
            let transport = WireCountingTransport(serial)
            let client = SMPClient(transport: transport)
            let maximumMessageSize = await client.maximumMessageSize()  // reads the parameters first
            transport.reset()
            let uploader = ChunkedUploader(
                client: client, target: ImageUploadTarget(), options: ChunkedUploadOptions(window: window, restart: true))
            let result = try await uploader.upload(file)
            let tally = transport.tally
            await client.close()
            let ceiling = Double(baud) / 10 * Double(file.count) / Double(tally.wireBytes)
            print(String(
                format: "{\"baud\":%d,\"size\":%d,\"maximumMessage\":%d,\"requests\":%d,\"chunks\":%d,\"requestBytes\":%d,"
                    + "\"wireBytes\":%d,\"imageShareOfWire\":%.5f,\"ceiling\":%.1f}",
                baud, file.count, maximumMessageSize, tally.messages, result.progress.chunksSent, tally.messageBytes,
                tally.wireBytes, Double(file.count) / Double(tally.wireBytes), ceiling))
            return 0
        } catch {
            FileHandle.standardError.write(Data("smpctl-bench upload-ceiling: \(error)\n".utf8))
            return 1
        }
    }

    private struct NotSerial: Error, CustomStringConvertible {
        var connection: String
        var description: String { "\(connection) is not a serial connection; the ceiling is that of a serial line" }
    }
}
