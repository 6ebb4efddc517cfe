import CBOR
import SMP
import SMPSimulator
import SMPUDP
import XCTest

/// The SUIT commands and upload target of the SMP library against the virtual SUIT device over
/// real UDP loopback sockets.
final class SUITClientTests: XCTestCase {
    private func withClient(
        faults: FaultInjection = .none, timeout: Duration = .seconds(2),
        _ body: (SMPClient, VirtualDevice) async throws -> Void
    ) async throws {
        var configuration = VirtualDeviceConfiguration(resetDelay: .zero)
        configuration.makeSUITDevice()
        let device = VirtualDevice(configuration: configuration, faultInjection: faults)
        let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let client = SMPClient(transport: try await UDPTransport.connect(host: "127.0.0.1", port: port), configuration: SMPClientConfiguration(timeout: timeout))
        do {
            try await body(client, device)
        } catch {
            await client.close()
            await server.stop()
            throw error
        }
        await client.close()
        await server.stop()
    }

    func testManifestListAndStates() async throws {
        try await withClient { client, _ in
            let roles = try await client.send(SUITManifestList())
            XCTAssertEqual(roles, [.secureTop, .applicationRoot, .applicationLocal1])
            let state = try await client.send(SUITManifestStateRead(role: .applicationRoot))
            XCTAssertEqual(state.sequenceNumber, 1)
            XCTAssertEqual(state.versionText, "1.0.0")
            XCTAssertEqual(state.digestAlgorithmName, "sha-256")
            XCTAssertEqual(state.classID?.count, 16)
            let idle = try await client.send(SUITPoll())
            XCTAssertNil(idle)
        }
    }

    func testAWrongOffsetAnswerNamesTheExpectedOffset() async throws {
        try await withClient { client, _ in
            let envelope = SUITTestDevice.envelope(sequence: 2).bytes
            let first = try await client.send(SUITUploadChunk(kind: .envelope(deferInstall: false), offset: 0, data: Array(envelope[0..<20]), length: UInt64(envelope.count)))
            XCTAssertEqual(first, SUITUploadChunk.Response(offset: 20, rc: 0))
            let ahead = try await client.exchange(SUITUploadChunk(kind: .envelope(deferInstall: false), offset: 50, data: [1, 2]).request)
            let error = try XCTUnwrap(ahead.deviceError, "a wrong offset is an error answer")
            let target = SUITUploadTarget(kind: .envelope(deferInstall: false))
            XCTAssertEqual(target.acknowledgement(ofError: error, payload: ahead.payload), UploadAcknowledgement(offset: 20), "rc 1 with the expected offset")
            do {
                _ = try await client.send(SUITUploadChunk(kind: .cache(partition: 42), offset: 0, data: [1], length: 1))
                XCTFail("an unknown partition is an error")
            } catch {
                guard case .device(.returnCode(let code, _, _), _)? = error as? SMPError else { return XCTFail("\(error)") }
                XCTAssertEqual(code, .invalidValue)
            }
        }
    }

    func testUploaderResumesFromTheDevicesOffsetDespiteLostAnswers() async throws {
        let faults = FaultInjection(drop: 0.2, duplicate: 0.1, seed: 66)
        try await withClient(faults: faults, timeout: .milliseconds(300)) { client, device in
            let envelope = SUITTestDevice.envelope(sequence: 9, uris: (0..<300).map { "file://part\($0).bin" }).bytes
            let uploader = ChunkedUploader(client: client, target: SUITUploadTarget(kind: .envelope(deferInstall: true)), options: ChunkedUploadOptions(window: 3))
            let result = try await uploader.upload(envelope)
            XCTAssertEqual(result.progress.acknowledged, UInt64(envelope.count))
            let drops = await device.faultStatistics
            XCTAssertGreaterThan(drops.dropped, 0, "the test must lose answers")
            await device.setFaultInjection(.none)
            try await client.send(SUITProcessEnvelope())
            let request = try await client.send(SUITPoll())
            XCTAssertEqual(request?.resourceID, "file://part0.bin", "the whole envelope arrived intact")
            XCTAssertEqual(request?.fileName, "part0.bin")
            let group = await device.group(.suit) as? SUITGroup
            XCTAssertEqual(group?.requestedResources, ["file://part0.bin"])
        }
    }
}
