import CBOR

/// Reads the image-state list (image command 0, read).
public struct ImageState: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .image, command: ImageCommandID.state, operation: .read, name: "image state")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> ImageStateList {
        try ImageStateList(decoding: payload)
    }
}

/// Marks an image to be tested on the next reset (image command 0, write, `confirm: false`):
/// the bootloader swaps it in and reverts unless it is confirmed after boot. Never retried.
public struct ImageTest: SMPCommand {
    /// The image's SHA-256 TLV hash, as listed by ``ImageState``.
    public var hash: [UInt8]

    /// Creates the request.
    public init(hash: [UInt8]) { self.hash = hash }

    public var request: SMPRequest { imageStateWrite(payload: ["hash": .bytes(hash), "confirm": false], name: "image test") }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> ImageStateList {
        try ImageStateList(decoding: payload)
    }
}

/// Confirms an image (image command 0, write, `confirm: true`): with a hash, that image is made
/// pending permanently (or, for the running image, confirmed); without one, the running image is
/// confirmed. Never retried.
public struct ImageConfirm: SMPCommand {
    /// The image's SHA-256 TLV hash; nil confirms the running image.
    public var hash: [UInt8]?

    /// Creates the request.
    public init(hash: [UInt8]? = nil) { self.hash = hash }

    public var request: SMPRequest {
        var payload: CBORMap = [:]
        if let hash { payload["hash"] = .bytes(hash) }
        payload["confirm"] = true
        return imageStateWrite(payload: payload, name: "image confirm")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> ImageStateList {
        try ImageStateList(decoding: payload)
    }
}

/// A state write request: never retry-safe (a repeated test after a swap could fail or mark anew).
private func imageStateWrite(payload: CBORMap, name: String) -> SMPRequest {
    SMPRequest(group: .image, command: ImageCommandID.state, operation: .write, payload: payload, isRetrySafe: false, name: name)
}
