/// What a file of a firmware package is for.
public enum PackageTarget: Sendable, Equatable, CustomStringConvertible {
    /// The application core's firmware.
    case application
    /// The network core's firmware (board `…/cpunet`).
    case networkCore
    /// An MCUboot (bootloader) update.
    case mcuboot
    /// A SUIT envelope, sent with SUIT group command 2.
    case suitEnvelope
    /// A SUIT cache image for the given cache partition, sent with SUIT command 5 before the envelope.
    case suitCache(partition: Int)
    /// A raw resource the device may request after processing the envelope (`file://NAME`).
    case suitResource
    /// A manifest type this library does not interpret.
    case other(String)

    /// Classifies a manifest entry by its `type` and `board`.
    init(_ file: PackageManifest.File) {
        switch file.type {
        case "mcuboot": self = .mcuboot
        case "suit-envelope": self = .suitEnvelope
        case "cache": self = .suitCache(partition: file.partition ?? file.image)
        case "bin": self = .suitResource
        case _ where file.board?.contains("cpunet") == true: self = .networkCore
        case "application": self = .application
        default: self = .other(file.type)
        }
    }

    public var description: String {
        switch self {
        case .application: return "application"
        case .networkCore: return "network core"
        case .mcuboot: return "MCUboot"
        case .suitEnvelope: return "SUIT envelope"
        case .suitCache(let partition): return "SUIT cache (partition \(partition))"
        case .suitResource: return "SUIT resource"
        case .other(let type): return type
        }
    }
}

/// One file of a firmware package, with its content.
public struct PackageImage: Sendable, Equatable {
    /// The MCUboot image number to upload it as (0 for a single image).
    public var image: Int
    /// The DirectXIP slot (0 or 1) the binary is linked for, when the manifest gives one.
    public var slot: Int?
    /// What the file is for.
    public var target: PackageTarget
    /// The file name in the archive, or the package file's own name.
    public var fileName: String
    /// The MCUboot version (`major.minor.revision+build`) from the manifest or the image header.
    public var mcubootVersion: String?
    /// The load address from the manifest, or the address an Intel HEX file places the image at.
    public var loadAddress: UInt64?
    /// The target board from the manifest.
    public var board: String?
    /// The file's bytes.
    public var bytes: [UInt8]

    /// Creates an image description.
    public init(
        image: Int, slot: Int? = nil, target: PackageTarget, fileName: String, mcubootVersion: String? = nil,
        loadAddress: UInt64? = nil, board: String? = nil, bytes: [UInt8]
    ) {
        self.image = image
        self.slot = slot
        self.target = target
        self.fileName = fileName
        self.mcubootVersion = mcubootVersion
        self.loadAddress = loadAddress
        self.board = board
        self.bytes = bytes
    }
}

/// The two binaries of a DirectXIP image: the same firmware linked for slot 0 and for slot 1.
/// The client uploads the one for the slot that is not active.
public struct DirectXIPPair: Sendable, Equatable {
    /// The MCUboot image number.
    public var image: Int
    /// The binary linked for slot 0.
    public var slot0: PackageImage
    /// The binary linked for slot 1.
    public var slot1: PackageImage

    /// Groups images that have a slot by image number; an image number with both slots makes a pair.
    static func pairs(in images: [PackageImage]) -> [DirectXIPPair] {
        let numbers = images.compactMap { $0.slot == nil ? nil : $0.image }
        return Array(Set(numbers)).sorted().compactMap { number in
            let variants = images.filter { $0.image == number }
            guard let slot0 = variants.first(where: { $0.slot == 0 }), let slot1 = variants.first(where: { $0.slot == 1 }) else { return nil }
            return DirectXIPPair(image: number, slot0: slot0, slot1: slot1)
        }
    }
}
