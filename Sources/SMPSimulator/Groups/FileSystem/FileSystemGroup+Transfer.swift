import CBOR
import SMP

extension FileSystemGroup {
    /// Download (cmd 0, read): the chunk at `off`, with the length captured at open when `off` is 0.
    mutating func download(_ request: SimulatedRequest, context: SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["off": .unsigned, "name": .text])
        guard let offset = fields.unsigned("off") else { throw .invalidValue }
        let name = try validName(fields)
        let file = try existingFile(name)
        var open = openFile.flatMap { $0.name == name && $0.direction == .download ? $0 : nil }
            ?? SimulatedOpenFile(name: name, direction: .download, offset: 0, length: UInt64(file.count), lastUsed: context.uptime)
        let length = open.length ?? UInt64(file.count)
        guard offset <= UInt64(file.count) else {
            openFile = nil
            throw .groupError(.fileSystem, Code.seekFailed)
        }
        let chunk = configuration.chunkSize(bufferSize: context.configuration.bufferSize)
        let end = min(UInt64(file.count), length, offset + UInt64(chunk))
        let data = offset < end ? Array(file[Int(offset)..<Int(end)]) : []
        open.lastUsed = context.uptime
        openFile = end >= length ? nil : open
        var response: CBORMap = ["off": .unsigned(offset), "data": .bytes(data)]
        if offset == 0 { response["len"] = .unsigned(length) }
        return response
    }

    /// Upload (cmd 0, write): offset 0 with data truncates (an empty first chunk does not); a later offset must be the expected one (the
    /// open upload's, else the file's size), or the answer is `FILE_OFFSET_NOT_VALID` with `len`.
    mutating func upload(_ request: SimulatedRequest, context: SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["off": .unsigned, "name": .text, "data": .bytes, "len": .unsigned])
        guard let offset = fields.unsigned("off"), let data = fields.bytes("data") else { throw .invalidValue }
        let name = try uploadPath(try validName(fields))
        var open: SimulatedOpenFile
        if offset == 0 {
            guard let length = fields.unsigned("len") else { throw .invalidValue }
            // Zephyr truncates only when the first chunk carries data: an empty upload leaves the file as it is.
            if !data.isEmpty { fileSystem.truncate(name) }
            open = SimulatedOpenFile(name: name, direction: .upload, offset: 0, length: length, lastUsed: context.uptime)
        } else if let current = openFile, current.name == name, current.direction == .upload {
            open = current
        } else {
            let size = UInt64(fileSystem.files[name]?.count ?? 0)
            open = SimulatedOpenFile(name: name, direction: .upload, offset: size, length: nil, lastUsed: context.uptime)
        }
        guard offset == open.offset else {
            openFile = nil
            throw .groupError(group: .fileSystem, code: Code.offsetNotValid, fields: ["len": .unsigned(open.offset)])
        }
        guard fileSystem.write(data, at: Int(offset), to: name) else {
            openFile = nil
            throw .groupError(.fileSystem, Code.writeFailed)
        }
        open.offset += UInt64(data.count)
        open.lastUsed = context.uptime
        // Zephyr closes the file once `len` bytes arrived; an announced length of 0 never closes it.
        openFile = open.length.map { $0 > 0 && open.offset >= $0 } == true ? nil : open
        return ["off": .unsigned(open.offset)]
    }
}
