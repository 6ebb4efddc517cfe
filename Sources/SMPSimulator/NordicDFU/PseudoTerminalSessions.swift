import DescriptorIO
import Logging
import Synchronization

/// The pseudo-terminal a virtual serial bootloader is served on, and the loop that serves each
/// opening of its slave by a host: between openings it polls until a host is back; an opening is
/// handed to a conversation, which may end by "re-enumerating" (the pseudo-terminal is closed, so
/// the host sees the device disappear, and a new one is linked at the same path).
final class PseudoTerminalSessions: Sendable {
    /// Handles one opening by the host until it closes its end (false) or the device goes away
    /// and comes back (true).
    typealias Conversation = @Sendable (DescriptorChannel) async -> Bool

    /// The symbolic link made to the slave, if one was asked for.
    let linkPath: String?
    private let name: String
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var terminal: PseudoTerminal?
        var channel: DescriptorChannel?
        var serving: Task<Void, Never>?
        var hostConnections = 0
    }

    /// Sessions for the bootloader `name` (for logs), linked at `linkPath` when given.
    init(linkPath: String?, name: String, logger: Logger) {
        self.linkPath = linkPath
        self.name = name
        self.logger = logger
    }

    /// The path hosts open while serving: the link, or the slave itself.
    var path: String? { state.withLock { $0.terminal }.map { linkPath ?? $0.devicePath } }

    /// How often a host opened the port.
    var hostConnections: Int { state.withLock { $0.hostConnections } }

    /// Opens the pseudo-terminal, makes the link and serves each opening with `conversation`;
    /// returns the path to open.
    func start(_ conversation: @escaping Conversation) throws(SimulatorServerError) -> String {
        guard state.withLock({ $0.terminal == nil }) else { throw SimulatorServerError(.alreadyStarted, "\(path ?? "serial link"): already running") }
        let terminal = try openTerminal()
        state.withLock { $0.serving = Task { await self.serve(conversation) } }
        return linkPath ?? terminal.devicePath
    }

    /// Stops serving: the host sees the device disappear; the link is removed.
    func stop() async {
        let (serving, channel) = state.withLock { ($0.serving, $0.channel) }
        serving?.cancel()
        channel?.close()
        await serving?.value
        state.withLock { $0.serving = nil }
        closeTerminal()
    }

    private func openTerminal() throws(SimulatorServerError) -> PseudoTerminal {
        let terminal = try PseudoTerminal.open(linkedAt: linkPath)
        state.withLock { $0.terminal = terminal }
        logger.debug("virtual \(name) on \(linkPath ?? terminal.devicePath) (\(terminal.devicePath))")
        return terminal
    }

    private func closeTerminal() {
        guard let terminal = state.withLock({ state in defer { state.terminal = nil }; return state.terminal }) else { return }
        terminal.close()
        if let linkPath { terminal.unlink(link: linkPath) }
    }

    private func serve(_ conversation: Conversation) async {
        while !Task.isCancelled {
            guard let terminal = state.withLock({ $0.terminal }), terminal.hostIsConnected(), let descriptor = terminal.duplicateMaster() else {
                try? await Task.sleep(for: .milliseconds(5))
                continue
            }
            let channel: DescriptorChannel
            do {
                channel = try DescriptorChannel(owning: descriptor, readMode: .continuous)
            } catch {
                logger.debug("\(name) simulator: cannot serve the master: \(error.detail)")
                try? await Task.sleep(for: .milliseconds(50))
                continue
            }
            state.withLock {
                $0.channel = channel
                $0.hostConnections += 1
            }
            let reenumerate = await conversation(channel)
            channel.close()
            await channel.closed()
            state.withLock { $0.channel = nil }
            if reenumerate && !Task.isCancelled {
                closeTerminal()
                do {
                    _ = try openTerminal()
                } catch {
                    logger.error("\(name) simulator: cannot come back after the disconnect: \(error)")
                    return
                }
            }
        }
    }
}
