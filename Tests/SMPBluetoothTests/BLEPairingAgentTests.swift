import SMP
import SMPBluetooth
import Synchronization
import XCTest

/// Pairing through the library's own agent against the mock, whose device requires an
/// authenticated link and whose IO capability chooses the method bluetoothd asks the agent for.
final class BLEPairingAgentTests: XCTestCase {
    /// A person at the terminal, scripted: what they answer, and what they were shown and asked.
    private final class ScriptedPerson: BLEPairingInteraction {
        enum Answer: Sendable { case passkey(UInt32), confirm(Bool), never }
        let answer: Answer
        let log = Mutex<[String]>([])

        init(_ answer: Answer) { self.answer = answer }

        func passkey(for device: BLEDevice) async throws(BLEPairingRefusal) -> UInt32 {
            log.withLock { $0.append("passkey? \(device.address)") }
            switch answer {
            case .passkey(let passkey): return passkey
            case .confirm, .never:
                try? await Task.sleep(for: .seconds(60))
                throw BLEPairingRefusal("gave up")
            }
        }

        func display(passkey: UInt32, for device: BLEDevice) async {
            log.withLock { $0.append("shown \(BLEPasskey.sixDigits(passkey))") }
        }

        func confirm(passkey: UInt32, for device: BLEDevice) async throws(BLEPairingRefusal) -> Bool {
            log.withLock { $0.append("confirm \(BLEPasskey.sixDigits(passkey))?") }
            if case .confirm(let yes) = answer { return yes }
            return false
        }
    }

    private func authenticatedPeripheral(_ io: String, _ extra: [String] = []) async throws -> MockedPeripheral {
        try await startPeripheral(["--security", "authenticate", "--io-capability", io, "--passkey", "654321"] + extra)
    }

    private func echo(_ peripheral: MockedPeripheral, _ options: BLEConnectOptions) async throws -> String {
        let transport = try await BLETransport.open(.address(MockedPeripheral.address), options: options)
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(3)))
        let echoed = try await client.send(OSEcho("paired"))
        await client.close()
        return echoed
    }

    private func openError(_ peripheral: MockedPeripheral, _ options: BLEConnectOptions) async -> SMPTransportError? {
        do {
            let transport = try await BLETransport.open(.address(MockedPeripheral.address), options: options)
            await transport.close()
            return nil
        } catch {
            return error
        }
    }

    func testAPasskeyGivenPairsAndTheBondIsReused() async throws {
        let peripheral = try await authenticatedPeripheral("DisplayOnly")
        let echoed = try await echo(peripheral, peripheral.options(passkey: 654_321))
        XCTAssertEqual(echoed, "paired")
        let again = try await echo(peripheral, peripheral.options(passkey: 654_321))
        XCTAssertEqual(again, "paired")
        XCTAssertEqual(try peripheral.mock.stats()["pairings"], 1, "the bond is used as it is, without a second Pair()")
    }

    func testAWrongPasskeyIsReportedAsSuch() async throws {
        let peripheral = try await authenticatedPeripheral("DisplayOnly")
        let error = await openError(peripheral, peripheral.options(passkey: 111_111))
        XCTAssertEqual(error?.kind, .permissionDenied)
        XCTAssertTrue(error?.message.contains("pairing failed: wrong passkey") ?? false, "\(String(describing: error))")
    }

    func testWithNoOneToAskAndNoPasskeyPairingIsRefusedAtOnce() async throws {
        let peripheral = try await authenticatedPeripheral("DisplayOnly")
        // Refused by the agent, not ended by bluetoothd's timeout ("timed out") nor the 20 s one.
        let error = await openError(peripheral, peripheral.options(pair: true, timeout: .seconds(20)))
        XCTAssertTrue(error?.message.contains("pairing refused: the device asks for the passkey it displays") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.hint?.contains("passkey=NNNNNN") ?? false, "\(String(describing: error?.hint))")
    }

    func testThePersonIsAskedForThePasskey() async throws {
        let peripheral = try await authenticatedPeripheral("DisplayOnly")
        let person = ScriptedPerson(.passkey(654_321))
        let echoed = try await echo(peripheral, peripheral.options(pair: true, interaction: person))
        XCTAssertEqual(echoed, "paired")
        XCTAssertEqual(person.log.withLock { $0 }, ["passkey? \(MockedPeripheral.address)"])
    }

    func testAPasskeyToTypeOnTheDeviceIsShownOnce() async throws {
        let peripheral = try await authenticatedPeripheral("KeyboardOnly")
        let person = ScriptedPerson(.never)
        let echoed = try await echo(peripheral, peripheral.options(pair: true, interaction: person))
        XCTAssertEqual(echoed, "paired")
        XCTAssertEqual(person.log.withLock { $0 }, ["shown 654321"], "bluetoothd calls DisplayPasskey for each key typed")
        XCTAssertGreaterThan(try peripheral.mock.stats()["agent_calls"] ?? 0, 1)
    }

    func testNumericComparison() async throws {
        let peripheral = try await authenticatedPeripheral("DisplayYesNo")
        let declined = await openError(peripheral, peripheral.options(pair: true, interaction: ScriptedPerson(.confirm(false))))
        XCTAssertTrue(declined?.message.contains("pairing refused: 654321 was not confirmed") ?? false, "\(String(describing: declined))")
        let unasked = await openError(peripheral, peripheral.options(pair: true))
        XCTAssertTrue(unasked?.message.contains("confirm that it displays 654321") ?? false, "\(String(describing: unasked))")
        XCTAssertTrue(unasked?.hint?.contains("confirm=1") ?? false, "\(String(describing: unasked?.hint))")
        let person = ScriptedPerson(.confirm(true))
        let echoed = try await echo(peripheral, peripheral.options(pair: true, interaction: person))
        XCTAssertEqual(echoed, "paired")
        XCTAssertEqual(person.log.withLock { $0 }, ["confirm 654321?"])
    }

    func testANumberAcceptedUnseenPairsWithoutAsking() async throws {
        let peripheral = try await authenticatedPeripheral("DisplayYesNo")
        let person = ScriptedPerson(.confirm(false))
        let echoed = try await echo(peripheral, peripheral.options(acceptsAnyNumber: true, interaction: person))
        XCTAssertEqual(echoed, "paired")
        XCTAssertEqual(person.log.withLock { $0 }, [])
    }

    func testJustWorksIsNotEnoughForAnAuthenticatedCharacteristic() async throws {
        let peripheral = try await authenticatedPeripheral("NoInputNoOutput")
        let error = await openError(peripheral, peripheral.options(pair: true))
        XCTAssertTrue(error?.message.contains("refused Just Works pairing") ?? false, "\(String(describing: error))")
    }

    func testBluetoothdGivingUpCancelsTheQuestion() async throws {
        let peripheral = try await authenticatedPeripheral("DisplayOnly", ["--pairing-timeout", "0.5"])
        // bluetoothd's 0.5 s ends it ("timed out"), not the connection's 20 s.
        let error = await openError(peripheral, peripheral.options(pair: true, interaction: ScriptedPerson(.never), timeout: .seconds(20)))
        XCTAssertTrue(error?.message.contains("pairing failed: timed out") ?? false, "\(String(describing: error))")
    }

    func testAnUnpairedDeviceThatRefusesAccessGetsThePairingHint() async throws {
        let peripheral = try await startPeripheral(["--security", "encrypt"])
        let error = await openError(peripheral, peripheral.options())
        XCTAssertTrue(error?.message.contains("the device requires an encrypted, paired link") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.hint?.contains("passkey=NNNNNN") ?? false, "\(String(describing: error?.hint))")
        let echoed = try await echo(peripheral, peripheral.options(pair: true))
        XCTAssertEqual(echoed, "paired", "Just Works is enough for encryption")
    }

    func testATimeoutOnAnUnpairedLinkIsDiagnosed() async throws {
        let peripheral = try await startPeripheral()
        let transport = try await BLETransport.open(.address(MockedPeripheral.address), options: peripheral.options())
        let diagnosis = await transport.diagnosis()
        XCTAssertTrue(diagnosis?.contains("the link is not paired") ?? false, "\(String(describing: diagnosis))")
        await transport.close()
        let paired = try await BLETransport.open(.address(MockedPeripheral.address), options: peripheral.options(pair: true))
        let none = await paired.diagnosis()
        XCTAssertNil(none)
        await paired.close()
    }

    func testBondsArePairedListedAndRemoved() async throws {
        let peripheral = try await authenticatedPeripheral("DisplayOnly")
        let options = peripheral.options(passkey: 654_321)
        let (device, newly) = try await BLEBonds.pair(.address(MockedPeripheral.address), options: options)
        XCTAssertTrue(newly)
        XCTAssertTrue(device.isPaired && device.isTrusted && device.isBonded, "\(device)")
        let (_, again) = try await BLEBonds.pair(.address(MockedPeripheral.address), options: options)
        XCTAssertFalse(again, "paired already")
        let bonds = try await BLEBonds.list(busAddress: peripheral.mock.busAddress)
        XCTAssertEqual(bonds.map(\.address), [MockedPeripheral.address])
        let removed = try await BLEBonds.remove(address: MockedPeripheral.address, busAddress: peripheral.mock.busAddress)
        XCTAssertTrue(removed.isPaired)
        let none = try await BLEBonds.list(busAddress: peripheral.mock.busAddress)
        XCTAssertEqual(none.count, 0)
        do {
            _ = try await BLEBonds.remove(address: MockedPeripheral.address, busAddress: peripheral.mock.busAddress)
            XCTFail("removed a device twice")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
        }
    }
}
