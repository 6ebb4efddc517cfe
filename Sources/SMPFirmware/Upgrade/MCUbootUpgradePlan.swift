import SMP

/// What an MCUboot upgrade will do: one decision per image of the package, and the steps in order.
public struct MCUbootUpgradePlan: UpgradePlan, Equatable {
    /// What the plan does with one image of the package.
    public struct Decision: Sendable, Equatable {
        /// What happens to the image.
        public enum Action: Sendable, Equatable {
            /// Upload it.
            case upload
            /// The device already holds it in a non-running slot (pending or not); no upload.
            case alreadyUploaded(slot: UInt64, pending: Bool, permanent: Bool)
            /// The device already runs it.
            case running(confirmed: Bool)
            /// Not installed: the device runs from the other slot this DirectXIP variant is linked for.
            case otherSlotVariant
        }

        /// The image.
        public var image: MCUbootUpgradeImage
        /// What happens to it.
        public var action: Action
        /// Why, in words.
        public var reason: String
    }

    /// How the device installs what is uploaded: what decides the next steps after an
    /// upload-only run, and whether an interrupted upload resumes.
    public enum Installation: Sendable, Equatable {
        /// The application's image manager takes the uploads; each image is marked for test or
        /// confirm before the reset (swap modes, overwrite-only).
        case marked
        /// The application's image manager takes the uploads; the bootloader boots the newest
        /// image at the next reset, without a mark (DirectXIP without revert, RAM load, a device
        /// that refuses marks).
        case newestBoots
        /// MCUboot's firmware loader (firmware-loader mode: a separate image in slot 1, whose
        /// image manager writes the application's only slot, 0) takes the uploads; the next reset
        /// starts the application, without a mark.
        case firmwareLoader
        /// MCUboot's serial recovery writes each image's primary slot; the next reset boots it,
        /// without a mark. An upload it took restarts at offset 0.
        case serialRecovery
    }

    /// The upgrade mode in force (``UpgradeOptions/mode``).
    public var mode: UpgradeMode
    /// How the device installs what is uploaded.
    public var installation: Installation
    /// One decision per image of the package, in installation order.
    public var decisions: [Decision]
    /// The steps, in order; empty when there is nothing to do.
    public var steps: [MCUbootUpgradeStep]
    /// Things the user should know (assumptions, replaced pending images, mode adjustments).
    public var notes: [String]
    /// How the front end spells the settings the plan's text points at.
    public var settingNames: UpgradeSettingNames = .library

    /// `plan (test-and-confirm):`, `plan (serial recovery: upload, then reset):`.
    public var summary: String { "plan (\(kind)):" }

    /// What the upgrade does, in a few words: the mode where images are marked (test and
    /// confirm…), otherwise how the device installs them, for nothing is tested or confirmed there.
    public var kind: String {
        let route: String? = switch installation {
        case .marked: nil
        case .newestBoots: "the newest image boots"
        case .firmwareLoader: "firmware loader"
        case .serialRecovery: "serial recovery"
        }
        guard let route, !(mode == .uploadOnly && installation == .newestBoots) else { return mode.description }
        if mode == .uploadOnly { return "\(route): upload only" }
        return installation == .newestBoots ? "upload, then reset: \(route)" : "\(route): upload, then reset"
    }

    /// Each image and why it is (or is not) uploaded.
    public var decisionSummaries: [String] {
        decisions.map { "\($0.image.summary): \($0.reason)" }
    }

    /// The device runs the firmware, or (upload-only) holds it, by the hash it reports.
    public var nothingToDo: String {
        let held = decisions.compactMap { decision -> UInt64? in
            if case .alreadyUploaded(let slot, _, _) = decision.action { return slot }
            return nil
        }
        guard let slot = held.first else { return "the device already runs this firmware" }
        return "the device reports this firmware's hash for slot \(slot) (not proven until it boots; \(settingNames.restart) sends it again)"
    }

    /// `already running 1.2.0`, per image when there are several.
    public var nothingToDoBrief: String {
        let words = decisions.map { decision -> String in
            let image = decisions.count > 1 ? "image \(decision.image.image) " : ""
            switch decision.action {
            case .running: return "\(image)already running \(decision.image.version.deviceString)"
            case .alreadyUploaded(let slot, _, _): return "\(image)\(decision.image.version.deviceString) already in slot \(slot)"
            case .otherSlotVariant: return "\(image)runs from the other slot"
            case .upload: return "\(image)\(decision.image.version.deviceString) to upload"
            }
        }
        return words.isEmpty ? "nothing to do" : words.joined(separator: ", ")
    }

    /// After an interrupted upload through MCUboot's serial recovery: the primary slot is
    /// incomplete, and the same command writes the image again from offset 0.
    public func interruptionNote(during step: any UpgradeStep) -> String? {
        guard installation == .serialRecovery, case .upload(let image, _, _)? = step as? MCUbootUpgradeStep else { return nil }
        return "image \(image.image): \(ImageUpload.interruptedRecoveryUpload)"
    }

    /// The mode, and each image with its action and reason.
    public var fields: [UpgradeField] {
        [
            UpgradeField("mode", .string(mode.rawValue)),
            UpgradeField("images", .array(decisions.map { decision in
                .object(decision.image.fields + [
                    UpgradeField("action", .string(decision.action.name)), UpgradeField("reason", .string(decision.reason)),
                ])
            })),
        ]
    }
}

extension MCUbootUpgradePlan.Decision.Action {
    /// The action's name in JSON: `upload`, `already-uploaded`, `running`, `not-needed`.
    public var name: String {
        switch self {
        case .upload: return "upload"
        case .alreadyUploaded: return "already-uploaded"
        case .running: return "running"
        case .otherSlotVariant: return "not-needed"
        }
    }
}
