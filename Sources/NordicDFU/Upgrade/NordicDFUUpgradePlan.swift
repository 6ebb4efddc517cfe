import SMPFirmware

/// Which of the nRF5 SDK's DFU protocols a bootloader speaks.
public enum NordicDFUProtocol: String, Sendable, Hashable {
    /// Secure DFU (nRF5 SDK 12–17): objects, CRCs, signed init packets.
    case secure
    /// Legacy DFU (nRF5 SDK 4–11, nRF Loader, the Adafruit bootloader).
    case legacy

    /// `Nordic Secure DFU`, `Nordic legacy DFU`: the words in plans and results.
    public var name: String {
        switch self {
        case .secure: return "Nordic Secure DFU"
        case .legacy: return "Nordic legacy DFU"
        }
    }
}

/// One step of a Nordic DFU upgrade, run in order by ``NordicDFUUpgrade``.
public enum NordicDFUUpgradeStep: UpgradeStep, Equatable {
    /// Send an image (its init packet, then its firmware); the bootloader checks it, installs
    /// it and resets. The `number`-th of `count` images.
    case send(DFUUpgradeImage, number: Int, count: Int)
    /// Wait until the bootloader answers again after installing an image of `after`'s type (the
    /// next image goes to the same bootloader, or to the new one a SoftDevice and bootloader
    /// image brought).
    case waitForBootloader(after: DFUFirmwareType)

    /// `upload`, `wait`.
    public var name: String {
        switch self {
        case .send: return "upload"
        case .waitForBootloader: return "wait"
        }
    }

    /// One line for people.
    public var summary: String {
        switch self {
        case .send(let image, let number, let count):
            let position = count > 1 ? " [\(number)/\(count)]" : ""
            return "send the \(image.summary)" + (image.initPacket.isEmpty ? "" : " and its init packet") + position
        case .waitForBootloader(let type):
            return "wait for the bootloader to answer again after installing the \(type)"
        }
    }

    /// The image a send step uploads.
    public var upload: UpgradeUpload? {
        switch self {
        case .send(let image, _, _): return image.upload
        case .waitForBootloader: return nil
        }
    }
}

/// What a Nordic DFU upgrade will do: send each image of the package in the order the SDK
/// installs them (SoftDevice and bootloader, SoftDevice, bootloader, application), waiting for
/// the bootloader between images. A DFU bootloader cannot say what the device runs, so there is
/// always something to send; an interrupted image continues where the bootloader's objects stop.
public struct NordicDFUUpgradePlan: UpgradePlan, Equatable {
    /// The protocol the bootloader speaks.
    public var dfuProtocol: NordicDFUProtocol
    /// The images, in the order they are sent.
    public var images: [DFUUpgradeImage]
    /// The steps, in order.
    public var steps: [NordicDFUUpgradeStep]
    /// Things the user should know.
    public var notes: [String]

    /// Plans sending `images` (any order: they are sorted by ``DFUFirmwareType/installOrder``).
    public init(dfuProtocol: NordicDFUProtocol, images: [DFUUpgradeImage], notes: [String] = []) {
        let ordered = images.enumerated().sorted { ($0.element.type, $0.offset) < ($1.element.type, $1.offset) }.map(\.element)
        self.dfuProtocol = dfuProtocol
        self.images = ordered
        self.notes = notes
        var steps: [NordicDFUUpgradeStep] = []
        for (index, image) in ordered.enumerated() {
            steps.append(.send(image, number: index + 1, count: ordered.count))
            if index < ordered.count - 1 { steps.append(.waitForBootloader(after: image.type)) }
        }
        self.steps = steps
    }

    /// `plan (Nordic Secure DFU): 2 images`.
    public var summary: String {
        "plan (\(dfuProtocol.name)): " + (images.count == 1 ? "1 image" : "\(images.count) images")
    }

    /// One line per image.
    public var decisionSummaries: [String] {
        images.map { image in
            "\(image.summary)" + (image.initPacket.isEmpty ? ", no init packet" : ", init packet \(image.initPacket.count) bytes")
        }
    }

    /// Never: a package holds at least one image.
    public var nothingToDo: String { "the package holds no image" }

    /// Never: a package holds at least one image.
    public var nothingToDoBrief: String { "no image" }

    /// The bootloader's protocol and the images.
    public var fields: [UpgradeField] {
        [UpgradeField("bootloader", .string(dfuProtocol.name)), UpgradeField("images", .array(images.map { .object($0.fields) }))]
    }

    /// A rerun sends again the images already installed: say so when the interruption came
    /// after the first image of several. A legacy bootloader keeps nothing of the image under
    /// way: say that a rerun sends it from its start.
    public func interruptionNote(during step: any UpgradeStep) -> String? {
        guard let step = step as? NordicDFUUpgradeStep, let index = steps.firstIndex(of: step) else { return nil }
        let restart = dfuProtocol == .legacy ? "a legacy DFU bootloader keeps nothing of an interrupted image: the same command sends it again from its start" : nil
        guard images.count > 1, index > 0 else { return restart }
        let installed: [DFUUpgradeImage] = steps[..<index].compactMap { earlier in
            if case .send(let image, _, _) = earlier { return image }
            return nil
        }
        guard !installed.isEmpty else { return restart }
        return "the device already installed the " + installed.map(\.type.description).joined(separator: " and ")
            + "; running the same command again sends it again, which a bootloader refuses when it checks versions"
            + " (\"firmware version too low\"): then send a package of the remaining images"
            + (restart.map { "; \($0)" } ?? "")
    }
}
