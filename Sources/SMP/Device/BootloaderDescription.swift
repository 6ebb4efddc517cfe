/// Which bootloader a device runs, as far as it tells: the name its application reports (OS
/// group's bootloader info) and, for MCUboot, its mode and downgrade rule; or, when the bootloader
/// itself answers (MCUboot's serial recovery, which has no bootloader info), the evidence of that.
public enum BootloaderDescription: Sendable, Hashable {
    /// The bootloader's name as the application reports it; `mode` is MCUboot's mode (nil for
    /// another bootloader).
    case named(String, mode: OSBootloaderMode.Answer?)
    /// MCUboot's serial recovery answered, not an application.
    case serialRecovery(ServerRecognition)
}

extension SMPClient {
    /// Asks the device which bootloader it runs: its name, then MCUboot's mode. A device without
    /// bootloader info that turns out to be MCUboot's serial recovery is described as such; any
    /// other device without it fails with the device's answer.
    public func describeBootloader() async throws -> BootloaderDescription {
        let name: String
        do {
            name = try await send(OSBootloaderName())
        } catch {
            guard SMPClient.isNotSupported(error) else { throw error }
            let recognition = try await recogniseServer()
            guard recognition.isSerialRecovery else { throw error }
            return .serialRecovery(recognition)
        }
        guard name == "MCUboot" else { return .named(name, mode: nil) }
        return .named(name, mode: try await send(OSBootloaderMode()))
    }
}
