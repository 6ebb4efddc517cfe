/// Which SMP server answers: the application's (Zephyr's MCUmgr, Mynewt's newtmgr) or MCUboot's
/// serial recovery, and what showed it.
///
/// MCUboot's serial recovery implements a small subset of the protocol (image list and upload,
/// reset, and with their Kconfig options echo, MCUmgr parameters, image state, slot info and
/// storage erase); it never answers bootloader or application info. Devices do not say which
/// server they run, so `SMPClient.recogniseServer()` infers it from their answers.
public struct ServerRecognition: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of server.
    public enum Role: String, Sendable, Hashable {
        /// The application's SMP server.
        case application
        /// MCUboot's serial recovery: the bootloader itself.
        case serialRecovery = "mcuboot-serial-recovery"
    }

    /// Which server answers.
    public var role: Role
    /// What showed it, in words ("the image list flags no image active…").
    public var evidence: [String]

    /// Creates a recognition.
    public init(role: Role, evidence: [String]) {
        self.role = role
        self.evidence = evidence
    }

    /// Whether MCUboot's serial recovery answers.
    public var isSerialRecovery: Bool { role == .serialRecovery }

    /// "MCUboot serial recovery" or "the application".
    public var name: String { isSerialRecovery ? "MCUboot serial recovery" : "the application" }

    public var description: String { "\(name) (\(evidence.joined(separator: "; ")))" }

    /// What the device's answers show, as `SMPClient.recogniseServer()` gathers them.
    public struct Observations: Sendable, Hashable {
        /// Whether bootloader info (os group, command 8) answered; nil when not asked.
        public var answersBootloaderInfo: Bool?
        /// The image list; nil when not asked, or when the device has no image group.
        public var images: [ImageSlotState]?
        /// Whether the device answered the image list with "not supported".
        public var lacksImageGroup: Bool
        /// Whether application info (os group, command 7) answered; nil when not asked.
        public var answersApplicationInfo: Bool?
        /// The device's buffer count; nil when it did not report parameters.
        public var bufferCount: Int?

        /// Creates observations.
        public init(
            answersBootloaderInfo: Bool? = nil, images: [ImageSlotState]? = nil, lacksImageGroup: Bool = false,
            answersApplicationInfo: Bool? = nil, bufferCount: Int? = nil
        ) {
            self.answersBootloaderInfo = answersBootloaderInfo
            self.images = images
            self.lacksImageGroup = lacksImageGroup
            self.answersApplicationInfo = answersApplicationInfo
            self.bufferCount = bufferCount
        }
    }

    /// The recognition the observations support, or nil when they do not decide yet (then
    /// application info and the parameters are the next things to ask).
    ///
    /// - An answer to bootloader info, or no image group: an application (MCUboot's recovery
    ///   implements neither bootloader info nor a missing image list).
    /// - Images listed, none flagged active: recovery (MCUboot without
    ///   `CONFIG_BOOT_SERIAL_IMG_GRP_IMAGE_STATE` sends no flags; an application flags what it runs).
    /// - Otherwise an answer to application info means an application; no answer and a single
    ///   buffer mean recovery.
    public static func decide(_ seen: Observations) -> ServerRecognition? {
        if seen.answersBootloaderInfo == true {
            return ServerRecognition(role: .application, evidence: ["it answers bootloader info, which MCUboot's serial recovery does not implement"])
        }
        if seen.lacksImageGroup {
            return ServerRecognition(role: .application, evidence: ["it has no image group, which MCUboot's serial recovery always has"])
        }
        guard let images = seen.images else { return nil }
        if !images.isEmpty && !images.contains(where: \.active) {
            return ServerRecognition(role: .serialRecovery, evidence: [
                "it lists images without flags (an application flags the image it runs)",
            ])
        }
        guard let applicationInfo = seen.answersApplicationInfo else { return nil }
        if applicationInfo {
            return ServerRecognition(role: .application, evidence: ["it answers application info (os info), which MCUboot's serial recovery does not implement"])
        }
        if seen.bufferCount == 1 {
            return ServerRecognition(role: .serialRecovery, evidence: [
                "it answers neither bootloader nor application info, and has a single buffer, as MCUboot's serial recovery does",
            ])
        }
        return ServerRecognition(role: .application, evidence: ["it lists an active image and has more than one buffer"])
    }
}
