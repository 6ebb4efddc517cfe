import CBOR
import SMP

extension ImageGroup {
    /// Upload (cmd 1): first chunk inspection in Zephyr's order, resume by `sha`, wrong offsets
    /// answered with the expected one, `match` on the last chunk (§4.3). Any error abandons the
    /// upload.
    mutating func receiveChunk(_ request: SimulatedRequest) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields([
            "image": .unsigned, "len": .unsigned, "off": .unsigned, "sha": .bytes, "data": .bytes, "upgrade": .bool,
        ])
        do {
            return try write(fields)
        } catch {
            upload = nil
            throw error
        }
    }

    private mutating func write(_ fields: SimulatedFields) throws(SimulatedError) -> CBORMap {
        guard let offset = fields.unsigned("off") else { throw .groupError(.image, ImageGroupError.invalidOffset) }
        let data = fields.bytes("data") ?? []
        if offset == 0 {
            if let resumed = try start(fields, data: data) { return ["off": .integer(resumed)] }
        } else {
            guard var current = upload, offset == UInt64(current.offset) else { return ["off": .integer(upload?.offset ?? 0)] }
            guard current.offset + data.count <= current.length else { throw .groupError(.image, ImageGroupError.dataOverrun) }
            images[current.image].slots[1] += data
            current.offset += data.count
            upload = current
        }
        return finishChunk()
    }

    /// Inspects a first chunk and starts the upload with it; returns the offset to resume from
    /// when `sha` matches the upload in progress (nothing is written then).
    private mutating func start(_ fields: SimulatedFields, data: [UInt8]) throws(SimulatedError) -> Int? {
        guard data.count >= 32 else { throw .groupError(.image, ImageGroupError.invalidImageHeader) }
        guard let length = fields.unsigned("len") else { throw .groupError(.image, ImageGroupError.invalidLength) }
        guard let header = SimulatedImageHeader(data) else { throw .groupError(.image, ImageGroupError.invalidImageHeaderMagic) }
        let sha = fields.bytes("sha")
        if let sha, sha.count > 32 { throw .groupError(.image, ImageGroupError.invalidHash) }
        if let sha, let current = upload, current.sha == sha { return current.offset }
        guard let image = Int(exactly: fields.unsigned("image") ?? 0), images.indices.contains(image),
              !images[image].isReverting
        else { throw .groupError(.image, ImageGroupError.noFreeSlot) }
        guard length <= UInt64(configuration.slotSize) else { throw .groupError(.image, ImageGroupError.imageTooLarge) }
        guard data.count <= Int(length) else { throw .groupError(.image, ImageGroupError.dataOverrun) }
        if fields.bool("upgrade") == true, let running = images[image].header(slot: 0),
           header.comparableVersion <= running.comparableVersion {
            throw .groupError(.image, ImageGroupError.currentVersionIsNewer)
        }
        images[image].slots[1] = data
        images[image].next = .none
        upload = SimulatedUpload(image: image, length: Int(length), sha: sha, offset: data.count)
        return nil
    }

    /// The answer to a written chunk; the last one ends the upload and carries `match` when a
    /// full `sha` was given.
    private mutating func finishChunk() -> CBORMap {
        guard let current = upload else { return ["off": 0] }
        var answer: CBORMap = ["off": .integer(current.offset)]
        if current.offset == current.length {
            if let sha = current.sha, sha.count == 32 {
                answer["match"] = .bool(SoftwareSHA256.digest(images[current.image].slots[1]) == sha)
            }
            upload = nil
        }
        return answer
    }
}
