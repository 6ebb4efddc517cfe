import CBOR
import Foundation
@testable import SMP

/// A scripted image-upload device for ``MockDevice``: Zephyr's offset rules (docs/protocol/images.md §4.3), resume by
/// `sha`, `match` on the last chunk, plus knobs for alignment truncation, state loss and drops.
final class UploadDeviceModel: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [UInt8] = []
    private var expected = 0
    private var length = 0
    private var sha: [UInt8]?
    private var chunkIndex = 0

    /// Stores only multiples of this many bytes per chunk (MCUboot-like), except the last.
    var alignment = 1
    /// Before the chunk with this index (counting every upload request), the device forgets the upload.
    var loseStateAtChunk: Int?
    /// Chunk indices whose responses are dropped (the chunk is still written).
    var droppedResponses: Set<Int> = []
    /// Replaces the device's `match` verdict.
    var forcedMatch: Bool?
    /// Every upload request received.
    private(set) var uploads: [CBORMap] = []
    /// The bytes written by completed uploads.
    private(set) var completed: [UInt8]?

    /// The MockDevice script: parameters (`buf_size`, `buf_count`) and image uploads.
    func script(bufferSize: Int, bufferCount: Int) -> MockDevice.Script {
        { request, _ in
            if request.header.group == .os {
                return .answer(["buf_size": .integer(Int64(bufferSize)), "buf_count": .integer(Int64(bufferCount))])
            }
            return self.lock.withLock { self.receive(request.payload) }
        }
    }

    /// Pretends an upload of `file` was interrupted at `offset`.
    func hold(_ file: [UInt8], upTo offset: Int) {
        lock.withLock {
            stored = Array(file.prefix(offset))
            expected = offset
            length = file.count
            sha = SHA256Hash.digest(file)
        }
    }

    /// The first-chunk requests received (those with `len`).
    var firstChunks: [CBORMap] { lock.withLock { uploads.filter { $0["len"] != nil } } }
    /// Data bytes received in upload requests.
    var bytesReceived: Int { lock.withLock { uploads.reduce(0) { $0 + (Self.bytes($1["data"])?.count ?? 0) } } }

    private func receive(_ payload: CBORMap) -> DeviceReply {
        uploads.append(payload)
        defer { chunkIndex += 1 }
        if chunkIndex == loseStateAtChunk { expected = 0; sha = nil; length = 0 }
        guard case .unsigned(let offset64)? = payload["off"], let data = Self.bytes(payload["data"]) else {
            return .answer(["rc": 3])
        }
        let offset = Int(offset64)
        var answer: CBORMap
        if offset == 0 {
            let newSHA = Self.bytes(payload["sha"])
            if let newSHA, newSHA == sha, expected > 0 {
                answer = ["off": .integer(Int64(expected))]
            } else {
                guard case .unsigned(let total)? = payload["len"] else { return .answer(["rc": 3]) }
                length = Int(total)
                sha = newSHA
                stored = []
                expected = 0
                answer = write(data)
            }
        } else if offset == expected, length > 0 {
            answer = write(data)
        } else {
            answer = ["off": .integer(Int64(length > 0 ? expected : 0))]
        }
        return droppedResponses.contains(chunkIndex) ? .drop : .answer(answer)
    }

    private func write(_ data: [UInt8]) -> CBORMap {
        let isLast = expected + data.count == length
        let kept = isLast || alignment == 1 ? data.count : data.count / alignment * alignment
        stored += data.prefix(kept)
        expected += kept
        var answer: CBORMap = ["off": .integer(Int64(expected))]
        if expected == length {
            let matches = SHA256Hash.digest(stored) == sha
            answer["match"] = .bool(forcedMatch ?? matches)
            completed = stored
            expected = 0
            length = 0
            sha = nil
        }
        return answer
    }

    private static func bytes(_ value: CBOR?) -> [UInt8]? {
        if case .bytes(let bytes)? = value { return bytes }
        return nil
    }
}
