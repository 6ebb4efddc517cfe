import Foundation
import SMPTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The supervisor behind ``QEMUDevice/Memory/persistent`` (`Tests/Scripts/qemu/persistent_flash.py`):
/// a QEMU that ends by itself is reported, and QEMU does not outlive a killed supervisor.
final class PersistentQEMUMemoryTests: XCTestCase {
    func testQEMUThatEndsIsReported() async throws {
        let device = try await start()
        let qemu = try XCTUnwrap(children(of: device.pid).first, "no QEMU under the supervisor\n\(device.log)")
        kill(qemu, SIGKILL)
        let deadline = Date().addingTimeInterval(10)
        while device.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        XCTAssertFalse(device.isRunning, "the supervisor still runs after QEMU was killed\n\(device.log)")
        XCTAssertTrue(device.log.contains("persistent_flash: QEMU"), "no message about QEMU ending\n\(device.log)")
    }

    func testQEMUEndsWithItsSupervisor() async throws {
        let device = try await start()
        let qemu = try XCTUnwrap(children(of: device.pid).first, "no QEMU under the supervisor\n\(device.log)")
        kill(device.pid, SIGKILL)
        // QEMU gets SIGKILL from the kernel (PR_SET_PDEATHSIG); whoever adopts it reaps it.
        let deadline = Date().addingTimeInterval(10)
        while isAlive(qemu) && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        XCTAssertFalse(isAlive(qemu), "QEMU \(qemu) outlived its supervisor")
        if isAlive(qemu) { kill(qemu, SIGKILL) }
    }

    private func start() async throws -> QEMUDevice {
        let folder = try ZephyrFixtureFolder.require()
        let device = try await QEMUDevice.start(
            try folder.fixture(target: "mps2_an385", config: "serial_recovery"), in: folder, memory: .persistent)
        addTeardownBlock {
            device.stop()
            try? FileManager.default.removeItem(at: device.scratch)
        }
        return device
    }

    /// The children of `pid` (from /proc).
    private func children(of pid: Int32) -> [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0) }
    }

    /// Whether `pid` runs (a zombie has ended).
    private func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
