import SMP

/// An empty file put over an existing one: Zephyr's fs_mgmt cuts a file only when the first
/// chunk carries data, so an empty upload leaves the old content in place (and it has no delete
/// command). `fs put` asks for the size afterwards and fails rather than report a false success.
enum FSEmptyFileCheck {
    /// Throws when `remote` still holds bytes; a device that cannot report sizes gets a warning.
    static func confirmEmpty(_ client: SMPClient, remote: String) async throws {
        switch try await FSDeviceAnswer.stat(client, remote) {
        case .file(let size) where size > 0:
            throw CLIError(
                .deviceError,
                "the device kept the \(size) bytes of \(remote): it does not empty a file when it receives an empty one "
                    + "(Zephyr's fs_mgmt truncates only when the first chunk carries data)",
                hint: "delete \(remote) on the device first (fs_mgmt has no delete command: use the device's shell or application), "
                    + "then put the empty file again")
        case .file:
            return
        case .directory, .missing, .unknown:
            Output.status("warning: the device did not report the size of \(remote), so whether it is empty now is not known")
        }
    }
}
