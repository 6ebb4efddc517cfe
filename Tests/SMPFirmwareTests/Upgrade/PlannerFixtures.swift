import SMP
import SMPFirmware

/// Images and device states for planner tests.
enum PlannerFixtures {
    /// An image whose hash is 32 × `tag`.
    static func image(
        _ number: Int = 0, version: String, tag: UInt8, slot: Int? = nil, target: PackageTarget = .application
    ) -> MCUbootUpgradeImage {
        MCUbootUpgradeImage(
            image: number, slot: slot, target: target, fileName: "img\(number)-\(tag).bin", bytes: [tag],
            hash: hash(tag), version: MCUbootImageVersion(parsing: version) ?? MCUbootImageVersion(major: 0, minor: 0, revision: 0, build: 0))
    }

    static func hash(_ tag: UInt8) -> [UInt8] { [UInt8](repeating: tag, count: 32) }

    /// A listed slot; `flags` holds a (active), c (confirmed), p (pending), P (permanent).
    static func slot(_ slot: UInt64, _ version: String, tag: UInt8, _ flags: String = "", image: UInt64 = 0) -> ImageSlotState {
        ImageSlotState(
            image: image, slot: slot, version: version, hash: hash(tag), bootable: true, pending: flags.contains("p"),
            confirmed: flags.contains("c"), active: flags.contains("a"), permanent: flags.contains("P"))
    }

    static func device(_ slots: [ImageSlotState], mode: MCUbootMode = .swapUsingMove, noDowngrade: Bool = false) -> MCUbootDeviceState {
        MCUbootDeviceState(parameters: MCUmgrParameters(bufferSize: 2048, bufferCount: 4), mode: mode, noDowngrade: noDowngrade, slots: slots)
    }

    /// The plan's steps as names, with the image number of image steps: `upload:0`, `reset`…
    static func names(_ plan: MCUbootUpgradePlan) -> [String] {
        plan.steps.map { step in
            switch step {
            case .upload(let image, _, _), .test(let image), .confirm(let image): return "\(step.name):\(image.image)"
            case .confirmRunning(let image): return "\(step.name):\(image)"
            case .verifyRunning(let images), .verifyConfirmed(let images):
                return "\(step.name):" + images.map { String($0.image) }.joined(separator: ",")
            default: return step.name
            }
        }
    }
}
