import ArgumentParser
import SMP

/// The image a command acts on, named the way `image list` shows it: a slot (`slot:1` or
/// `--slot 1`), a version (`1.2.3`, `v1.2.3`), a unique hash prefix (the 8 digits the list
/// prints) or the full hash; `--image N` narrows the match on a multi-image device.
struct ImageSelectorOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The image: slot:N, a version (1.2.3 or v1.2.3), or its hash or a unique prefix of it (4+ hex digits, "
                + "e.g. the 8 that `image list` prints).",
            valueName: "image"))
    var selector: String?

    @Option(help: ArgumentHelp("The image in this slot (0 primary, 1 secondary); instead of the image argument.", valueName: "n"))
    var slot: UInt64?

    @Option(name: .customLong("image"), help: ArgumentHelp("Only consider this image number (multi-image devices).", valueName: "n"))
    var imageNumber: UInt64?

    /// What was named, which must be something: a missing image is a usage error (exit 64)
    /// naming `what` ("the image to test").
    func requiredTarget(_ global: GlobalOptions, what: String) throws -> ImageTarget {
        guard let target = try target(global) else {
            return try global.preflight { () throws -> ImageTarget in
                throw CLIError(.usage, "missing \(what)", hint: "name it as `smpctl image list` shows it: slot:1 (or --slot 1), its version or hash")
            }
        }
        return target
    }

    /// What was named: a full hash (sent as it is), a selector resolved against the device's
    /// list, or nil when nothing was given. Reports a malformed argument (exit 65) before anything is sent.
    func target(_ global: GlobalOptions) throws -> ImageTarget? {
        try global.preflight { () throws -> ImageTarget? in
            switch (selector, slot) {
            case (.some, .some):
                throw CLIError(.usage, "give either the image argument or --slot, not both")
            case (nil, .some(let slot)):
                return .selector(.slot(slot, image: imageNumber))
            case (nil, nil):
                guard imageNumber == nil else {
                    throw CLIError(.usage, "--image needs an image argument or --slot", hint: "e.g. --image 1 --slot 1")
                }
                return nil
            case (.some(let text), nil):
                if imageNumber == nil, let bytes = Hex.bytes(text), bytes.count == ImageSlotState.hashLength {
                    return .fullHash(bytes)
                }
                do throws(ImageSelectorError) {
                    return .selector(try ImageSelector(parsing: text, image: imageNumber))
                } catch {
                    throw CLIError(error)
                }
            }
        }
    }
}

/// An image named on the command line.
enum ImageTarget {
    /// All 64 hex digits: sent without reading the list first.
    case fullHash([UInt8])
    /// Resolved against the device's image list.
    case selector(ImageSelector)

    /// The image's hash, reading the device's list when needed; no match or an ambiguous match
    /// is a data error (exit 65) that lists the candidates as `image list` shows them.
    func hash(using client: SMPClient) async throws -> [UInt8] {
        switch self {
        case .fullHash(let bytes): return bytes
        case .selector: return try hash(in: try await client.send(ImageState()))
        }
    }

    /// The image's hash, a selector resolved against `list` (the device's list, already read).
    func hash(in list: ImageStateList) throws(CLIError) -> [UInt8] {
        switch self {
        case .fullHash(let bytes): return bytes
        case .selector(let selector):
            do throws(ImageSelectorError) {
                return try selector.hash(in: list)
            } catch {
                throw CLIError(error)
            }
        }
    }
}

extension CLIError {
    /// A selector that did not name exactly one image, with the candidates as a table.
    init(_ error: ImageSelectorError) {
        let candidates = ImageStateList(images: error.candidates).rendered(fullHashes: false).1
        let hint: String
        switch error {
        case .malformed: hint = "name the image as `smpctl image list` shows it: its slot (slot:1), version or hash"
        case .noMatch: hint = "the device lists:\n\(candidates)"
        case .ambiguous: hint = "these match; give more hash digits, slot:N or --image N:\n\(candidates)"
        case .noHash: hint = "name it by slot or version on a device that reports hashes:\n\(candidates)"
        }
        self.init(.dataError, error.description, hint: hint)
    }
}
