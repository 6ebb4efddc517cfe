import Foundation
import SMPTestSupport
import XCTest

/// `fs put`, `fs get` and `image upload` interrupted at every chunk boundary — by Ctrl-C, by
/// SIGKILL of smpctl, and by killing the device (a native_sim program restarted on the same
/// flash; the virtual device restarted afresh) — and run again as the tool advises: the rerun
/// must end with exactly the file (compared byte by byte, or for an image by the device's `match`
/// and the slot's hash). Small files, `--window 1` and a small `mtu` keep every run to a handful of
/// chunks. The rerun follows at once, within fs_mgmt's 4 s idle close, so that the device still
/// holds the interrupted upload open.
final class TransferInterruptionTests: XCTestCase {
    /// The link MTU for uploads: chunks of about 450 bytes.
    static let mtu = 512

    func testFileSystemPutOnUDPFixture() async throws {
        try await putAtEveryBoundary(on: try await fixture("udp"), size: 2000)
    }

    /// Issue 13's case: a 6000-byte file with --window 1, Ctrl-C after the second chunk, the same
    /// command again at once; then another 6000-byte file over it. The fixture's LittleFS (4 × 4
    /// KiB blocks) cannot append to the committed part nor hold the old file next to the new one.
    func testTheIssuesCaseOnUDPFixture() async throws {
        let device = try await fixture("udp")
        let scratch = try scratchFolder()
        let remote = "/lfs1/i.bin"
        let files = try [21, 22].map { try Self.randomFile(in: scratch, name: "f6k-\($0).bin", size: 6000, seed: UInt64($0)) }
        let put = ["fs", "put", files[0].path, remote, "--window", "1", "--json"]
        let interrupted = try await InterruptedSMPCtl.run(["-c", device.connection] + put, cache: scratch, progressLines: 2, stop: .sigint)
        XCTAssertEqual(interrupted.status, 130, "\(interrupted.stderr)")
        for file in files {
            let run = try await smpctl(["fs", "put", file.path, remote, "--window", "1", "--json"], on: device, scratch: scratch)
            XCTAssertEqual(run.status, 0, "\(run)\n\(device.logs)")
            XCTAssertEqual((run.lastJSONObject?["verified"] as? [String: Any])?["match"] as? Bool, true, "\(run)")
            let check = scratch.appendingPathComponent("check.bin")
            try? FileManager.default.removeItem(at: check)
            let got = try await smpctl(["fs", "get", remote, check.path, "--json"], on: device, scratch: scratch)
            XCTAssertEqual(got.status, 0, "\(got)")
            XCTAssertEqual(try Data(contentsOf: check), try Data(contentsOf: file), "\(file.lastPathComponent): the device's file differs\n\(run)")
        }
    }

    func testFileSystemGetOnUDPFixture() async throws {
        // fs_mgmt reads about 2 KB per download answer on this build: three chunks.
        try await getAtEveryBoundary(on: try await fixture("udp"), size: 6000)
    }

    func testFileSystemPutOnSerialFSFixture() async throws {
        try await putAtEveryBoundary(on: try await fixture("serial_fs"), size: 2000)
    }

    func testFileSystemGetOnSerialFSFixture() async throws {
        try await getAtEveryBoundary(on: try await fixture("serial_fs"), size: 3000)
    }

    func testFileSystemPutAndGetOnVirtualDevice() async throws {
        let folder = try ZephyrFixtureFolder.require()
        let device = try await VirtualConformanceDevice.start(like: try folder.fixture(target: "native_sim", config: "serial_fs"))
        addTeardownBlock { device.stop() }
        try await putAtEveryBoundary(on: device, size: 2000)
        try await getAtEveryBoundary(on: device, size: 3000)
    }

    func testImageUploadOnVirtualDevice() async throws {
        try ExternalTool.requirePythonModules(["imgtool"])
        let folder = try ZephyrFixtureFolder.require()
        var fixture = try folder.fixture(target: "native_sim", config: "serial_fs")
        fixture.groups.append("img")
        let device = try await VirtualConformanceDevice.start(like: fixture)
        addTeardownBlock { device.stop() }
        try await uploadAtEveryBoundary(on: device)
    }

    /// The real img_mgmt on MCUboot (QEMU): Ctrl-C and SIGKILL only (QEMU keeps no flash across a
    /// restart). This build has no `CONFIG_IMG_ENABLE_IMAGE_CHECK`: the slot's hash TLV is checked.
    func testImageUploadOnMPS2Fixture() async throws {
        try ExternalTool.requirePythonModules(["imgtool"])
        let folder = try ZephyrFixtureFolder.require()
        let device = try await QEMUConformanceDevice.start(
            try folder.fixture(target: "mps2_an385", config: "serial_recovery"), in: folder, route: .direct)
        addTeardownBlock { device.stop() }
        try await uploadAtEveryBoundary(on: device, stops: [.sigint, .sigkill])
    }

    // MARK: fs put

    /// Puts two files of `size` bytes in turn (so that the device always holds the other one),
    /// each interrupted after chunk N for every N and every way of stopping, then run again.
    private func putAtEveryBoundary(on device: any ConformanceDevice, size: Int) async throws {
        let scratch = try scratchFolder()
        let remote = "/lfs1/interrupted.bin"
        let files = try [1, 2].map { try Self.randomFile(in: scratch, name: "put-\($0).bin", size: size, seed: UInt64($0)) }
        let put = { (file: URL) in ["fs", "put", file.path, remote, "--window", "1", "--json"] }
        let first = try await smpctl(put(files[0]), on: device, mtu: Self.mtu, scratch: scratch)
        let chunks = Self.progressLines(first.stdout)
        XCTAssertGreaterThanOrEqual(chunks, 3, "the test file should take several chunks: \(first)")
        var turn = 1
        for stop in InterruptedSMPCtl.Stop.allCases {
            for boundary in 1..<chunks {
                let file = files[turn % 2]
                turn += 1
                let label = "fs put on \(device.fixture.name)\(device.isVirtual ? " (virtual)" : ""), \(stop) after chunk \(boundary)"
                try await interrupt(put(file), on: device, after: boundary, stop: stop, scratch: scratch, label: label)
                let rerun = try await smpctl(put(file), on: device, mtu: Self.mtu, scratch: scratch)
                guard rerun.status == 0 else { return XCTFail("\(label): the rerun failed\n\(rerun)\n\(device.logs)") }
                let check = scratch.appendingPathComponent("check.bin")
                try? FileManager.default.removeItem(at: check)
                let got = try await smpctl(["fs", "get", remote, check.path, "--json"], on: device, scratch: scratch)
                guard got.status == 0 else { return XCTFail("\(label): fs get failed\n\(got)\n\(device.logs)") }
                XCTAssertEqual(try Data(contentsOf: check), try Data(contentsOf: file), "\(label): the device's file differs\n\(rerun)")
            }
        }
    }

    // MARK: fs get

    /// Gets one file of `size` bytes, interrupted after chunk N for every N and every way of
    /// stopping, into a new local name each time, then run again into the same name.
    private func getAtEveryBoundary(on device: any ConformanceDevice, size: Int) async throws {
        let scratch = try scratchFolder()
        let remote = "/lfs1/download.bin"
        let file = try Self.randomFile(in: scratch, name: "get-source.bin", size: size, seed: 7)
        let put = try await smpctl(["fs", "put", file.path, remote, "--json"], on: device, scratch: scratch)
        guard put.status == 0 else { return XCTFail("fs put of the file to download failed\n\(put)\n\(device.logs)") }
        let first = try await smpctl(["fs", "get", remote, scratch.appendingPathComponent("whole.bin").path, "--window", "1", "--json"], on: device, scratch: scratch)
        let chunks = Self.progressLines(first.stdout)
        XCTAssertGreaterThanOrEqual(chunks, 3, "the test file should take several chunks: \(first)")
        for stop in InterruptedSMPCtl.Stop.allCases {
            for boundary in 1..<chunks {
                let local = scratch.appendingPathComponent("got-\(stop)-\(boundary).bin")
                let get = ["fs", "get", remote, local.path, "--window", "1", "--json"]
                let label = "fs get on \(device.fixture.name)\(device.isVirtual ? " (virtual)" : ""), \(stop) after chunk \(boundary)"
                if stop == .deviceKill && device.isVirtual {
                    // The virtual device comes back without its files: put the file again first.
                    try await interrupt(get, on: device, after: boundary, stop: stop, scratch: scratch, label: label)
                    let again = try await smpctl(["fs", "put", file.path, remote, "--json"], on: device, scratch: scratch)
                    XCTAssertEqual(again.status, 0, "\(label): fs put after the restart failed\n\(again)")
                } else {
                    try await interrupt(get, on: device, after: boundary, stop: stop, scratch: scratch, label: label)
                }
                let rerun = try await smpctl(get, on: device, scratch: scratch)
                guard rerun.status == 0 else { return XCTFail("\(label): the rerun failed\n\(rerun)\n\(device.logs)") }
                XCTAssertEqual(try Data(contentsOf: local), try Data(contentsOf: file), "\(label): the downloaded file differs\n\(rerun)")
            }
        }
    }

    // MARK: image upload

    /// Uploads a small signed image, interrupted after chunk N for every N and every way of
    /// stopping, then run again: the device must report `match` and list the image's hash in slot 1.
    private func uploadAtEveryBoundary(on device: any ConformanceDevice, stops: [InterruptedSMPCtl.Stop] = InterruptedSMPCtl.Stop.allCases) async throws {
        let scratch = try scratchFolder()
        let image = try Self.signedImage(in: scratch, appSize: 2000)
        let upload = ["image", "upload", image.path, "--window", "1", "--json"]
        let first = try await smpctl(upload, on: device, mtu: Self.mtu, scratch: scratch)
        let chunks = Self.progressLines(first.stdout)
        XCTAssertGreaterThanOrEqual(chunks, 3, "the image should take several chunks: \(first)")
        let imageHash = first.lastJSONObject?["imageHash"] as? String
        // A device built with CONFIG_IMG_ENABLE_IMAGE_CHECK answers `match`; then it must be true.
        let checks = first.lastJSONObject?["match"] as? Bool != nil
        XCTAssertTrue(!device.isVirtual || checks, "the virtual device hashes uploads: \(first)")
        for stop in stops {
            for boundary in 1..<chunks {
                let label = "image upload on \(device.fixture.name)\(device.isVirtual ? " (virtual)" : ""), \(stop) after chunk \(boundary)"
                // Start each round from an empty slot, so that the upload really has chunks to send.
                let erase = try await smpctl(["image", "erase", "--yes", "--json"], on: device, scratch: scratch)
                XCTAssertEqual(erase.status, 0, "\(label): image erase failed\n\(erase)")
                try await interrupt(upload, on: device, after: boundary, stop: stop, scratch: scratch, label: label)
                let rerun = try await smpctl(upload, on: device, mtu: Self.mtu, scratch: scratch)
                guard rerun.status == 0 else { return XCTFail("\(label): the rerun failed\n\(rerun)\n\(device.logs)") }
                if checks {
                    XCTAssertEqual(rerun.lastJSONObject?["match"] as? Bool, true, "\(label): the device's hash of the upload does not match\n\(rerun)")
                }
                let list = try await smpctl(["image", "list", "--json"], on: device, scratch: scratch)
                let slots = list.lastJSONObject?["images"] as? [[String: Any]] ?? []
                XCTAssertEqual(slots.first { ($0["slot"] as? Int) == 1 }?["imageHash"] as? String, imageHash, "\(label): slot 1\n\(list)")
            }
        }
    }

    // MARK: support

    /// Runs `arguments` and stops it after `boundary` acknowledged chunks; power-cycles the device
    /// for ``InterruptedSMPCtl/Stop/deviceKill``.
    private func interrupt(
        _ arguments: [String], on device: any ConformanceDevice, after boundary: Int, stop: InterruptedSMPCtl.Stop, scratch: URL, label: String
    ) async throws {
        let outcome = try await InterruptedSMPCtl.run(
            ["-c", Self.connection(device, mtu: Self.mtu)] + arguments, cache: scratch, progressLines: boundary, stop: stop)
        XCTAssertTrue(outcome.reached, "\(label): the run ended before its chunk \(boundary) (exit \(outcome.status))\n\(outcome.stdout)\(outcome.stderr)")
        if stop == .sigint && outcome.reached && outcome.status != 130 && outcome.status != 0 {
            XCTFail("\(label): Ctrl-C should exit 130 (or 0 when it came after the end), not \(outcome.status)\n\(outcome.stderr)")
        }
        if stop == .deviceKill { try await device.powerCycle() }
    }

    private func smpctl(_ arguments: [String], on device: any ConformanceDevice, mtu: Int? = nil, scratch: URL) async throws -> SMPCtlInvocation {
        try await SMPCtlInvocation.run(["-c", Self.connection(device, mtu: mtu)] + arguments, cache: scratch, timeout: 30)
    }

    /// The device's connection string, with `?mtu=` (or `&mtu=`) when given.
    static func connection(_ device: any ConformanceDevice, mtu: Int?) -> String {
        guard let mtu else { return device.connection }
        return device.connection + (device.connection.contains("?") ? "&" : "?") + "mtu=\(mtu)"
    }

    static func progressLines(_ stdout: String) -> Int {
        stdout.split(separator: "\n").filter { $0.contains("\"event\":\"progress\"") }.count
    }

    /// A native_sim fixture on erased flash, stopped (and its folder removed) when the test ends.
    private func fixture(_ config: String) async throws -> any ConformanceDevice {
        let folder = try ZephyrFixtureFolder.require()
        let device = try await NativeSimConformanceDevice.start(try folder.fixture(target: "native_sim", config: config), in: folder, route: .direct)
        addTeardownBlock { device.stop() }
        return device
    }

    private func scratchFolder() throws -> URL {
        let folder = try FixtureScratch.makeFolder("interrupt")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    static func randomFile(in folder: URL, name: String, size: Int, seed: UInt64) throws -> URL {
        var generator = SplitMix64(seed: seed)
        let url = folder.appendingPathComponent(name)
        try Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
        return url
    }

    /// A small MCUboot image signed by imgtool (no key: a SHA-256 TLV), version 2.0.0.
    static func signedImage(in folder: URL, appSize: Int) throws -> URL {
        // The load address of the MCUboot fixture's RAM-load images (the virtual device ignores it).
        let app = try randomFile(in: folder, name: "app.bin", size: appSize, seed: 11)
        let image = folder.appendingPathComponent("app-2.0.0.bin")
        let sign = try ProcessRunner.run(
            ExternalTool.python,
            ["-m", "imgtool.main", "sign", "--version", "2.0.0", "--header-size", "0x200", "--pad-header", "--align", "4", "--slot-size", "0x80000",
             "--load-addr", "0x20240000", app.path, image.path], timeout: 60)
        guard sign.status == 0 else { throw SignedTestImage.Failure(description: "imgtool sign failed:\n\(sign.stdout)\(sign.stderr)") }
        return image
    }
}
