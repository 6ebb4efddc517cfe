import SMP
import SMPSerial
import SMPSimulator
import SMPTestSupport

/// The virtual device on a pseudo-terminal served over TCP by socat (`tcp://127.0.0.1:PORT`, as
/// ser2net, QEMU and socat serve a serial line), and a transport connected to it. socat serves one
/// connection: the transport's own is the first (no probe connection).
struct SocatTCPLink {
    let transport: SerialTransport
    /// The loopback port socat listens on.
    let port: Int
    let server: PTYSimulatorServer
    let bridge: FixtureProcess

    /// Starts the device with `simulator` options, socat in front of it, and connects with `options`.
    static func start(simulator: PTYSimulatorOptions = PTYSimulatorOptions(), port options: SerialPortOptions = SerialPortOptions()) async throws
        -> SocatTCPLink
    {
        let server = PTYSimulatorServer(
            device: VirtualDevice(configuration: PTYLink.zephyrSerialDevice), linkPath: temporaryLinkPath(), options: simulator)
        let path = try await server.start()
        let socat = try FixtureTools.require("socat", package: "socat")
        let port = try LoopbackPorts.freeTCPPort()
        let scratch = try FixtureScratch.makeFolder("serial-over-tcp")
        let bridge = try FixtureProcess(
            name: "socat", executable: socat, arguments: ["TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr", "FILE:\(path),raw,echo=0"],
            workingDirectory: scratch, logURL: scratch.appendingPathComponent("socat.log"))
        // socat needs a moment to listen.
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            do {
                let transport = try await SerialTransport.open(path: "tcp://127.0.0.1:\(port)", options: options)
                return SocatTCPLink(transport: transport, port: port, server: server, bridge: bridge)
            } catch {
                if error.kind != .refused || ContinuousClock.now >= deadline {
                    bridge.stop()
                    await server.stop()
                    throw error
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Closes the transport (again, if a client closed it), stops socat and the device.
    func stop() async {
        await transport.close()
        bridge.stop()
        await server.stop()
    }
}
