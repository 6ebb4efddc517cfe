import Foundation
import SMP
@testable import SMPSerial
import XCTest

/// What opening a port that cannot be used says.
final class SerialPortErrorTests: XCTestCase {
    func testAMissingPortListsThePortsPresent() async throws {
        let path = "/dev/ttyACM-smpctl-missing"
        do {
            _ = try await SerialTransport.open(path: path)
            XCTFail("expected notFound")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
            XCTAssertEqual(error.message, "serial:\(path): no such serial port")
            let hint = try XCTUnwrap(error.hint)
            let present = SerialPortListing.present()
            if present.isEmpty {
                XCTAssertTrue(hint.contains("no serial ports are present"), hint)
            } else {
                XCTAssertTrue(hint.contains(present.joined(separator: ", ")), hint)
            }
        }
    }

    func testTheListingHasUSBNodesThenStableLinks() throws {
        let root = temporaryLinkPath("dev")
        let byID = root + "/serial/by-id"
        try FileManager.default.createDirectory(atPath: byID, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in ["ttyACM10", "ttyACM2", "ttyUSB0", "ttyS0", "console", "ttyACM0"] {
            _ = FileManager.default.createFile(atPath: "\(root)/\(name)", contents: nil)
        }
        try FileManager.default.createSymbolicLink(atPath: "\(byID)/usb-ZEPHYR_Device_1234-if00", withDestinationPath: "../../ttyACM0")
        XCTAssertEqual(SerialPortListing.present(devices: root, byID: byID), [
            "\(root)/ttyACM0", "\(root)/ttyACM2", "\(root)/ttyACM10", "\(root)/ttyUSB0",
            "\(byID)/usb-ZEPHYR_Device_1234-if00",
        ])
        let error = SerialPortFailure.notFound("/dev/ttyACM9", present: ["/dev/ttyACM0", "/dev/serial/by-id/usb-x"])
        XCTAssertEqual(error.hint, "serial ports present: /dev/ttyACM0, /dev/serial/by-id/usb-x; `smpctl ports` tells them apart")
    }

    func testADirectoryIsNotASerialPort() async throws {
        let directory = temporaryLinkPath("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            _ = try await SerialTransport.open(path: directory)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
            XCTAssertEqual(error.message, "serial:\(directory): not a serial port (a directory)")
        }
    }

    func testARegularFileIsNotASerialPort() async throws {
        let file = temporaryLinkPath("file")
        _ = FileManager.default.createFile(atPath: file, contents: Data("not a tty".utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            _ = try await SerialTransport.open(path: file)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.message, "serial:\(file): not a serial port (a regular file)")
            XCTAssertTrue(error.hint?.contains("/dev/ttyACM0") == true)
        }
    }

    func testASecondOpenIsBusyAndNamesTheHolder() async throws {
        let terminal = try TestTerminal()
        let first = try await SerialTransport.open(path: terminal.slavePath)
        do {
            _ = try await SerialTransport.open(path: terminal.slavePath)
            XCTFail("expected the port to be busy")
        } catch {
            XCTAssertEqual(error.kind, .io)
            XCTAssertTrue(error.message.hasPrefix("serial:\(terminal.slavePath): the port is in use by "), error.message)
            XCTAssertTrue(error.message.contains("(pid \(getpid()))"), "names this process: \(error.message)")
            XCTAssertTrue(error.hint?.contains("minicom") == true)
        }
        await first.close()
        let again = try await SerialTransport.open(path: terminal.slavePath)
        await again.close()
    }

    func testTheHoldersOfADeviceAreFoundInProc() throws {
        let terminal = try TestTerminal()
        let descriptor = open(terminal.slavePath, O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        let holders = PortHolders.holding(terminal.slavePath)
        XCTAssertTrue(holders.contains { $0.pid == getpid() }, "\(holders)")
        XCTAssertFalse(PortHolders.holding(terminal.slavePath, exceptDescriptor: descriptor).contains { $0.pid == getpid() })
        XCTAssertEqual(PortHolder(pid: 42, name: "minicom").description, "minicom (pid 42)")
        XCTAssertEqual(PortHolder(pid: 42, name: nil).description, "pid 42")
    }

    func testPermissionDeniedNamesTheGroupAndTheUdevRule() {
        let error = SerialPortFailure.permissionDenied("/dev/ttyACM0", group: "dialout")
        XCTAssertEqual(error.kind, .permissionDenied)
        XCTAssertEqual(error.message, "serial:/dev/ttyACM0: permission denied (the device belongs to group dialout)")
        XCTAssertEqual(
            error.hint,
            "add yourself to group dialout (sudo usermod -aG dialout $USER, then log out and in again), or install the udev rule: "
                + "sudo cp udev/60-smpctl.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger")
        let unknownGroup = SerialPortFailure.permissionDenied("/dev/ttyUSB0", group: nil)
        XCTAssertEqual(unknownGroup.message, "serial:/dev/ttyUSB0: permission denied")
        XCTAssertTrue(unknownGroup.hint?.contains("usermod -aG dialout") == true)
    }

    func testPermissionDeniedForReal() throws {
        let terminal = try TestTerminal()  // owned by us, mode 620
        // Root opens anything: check as "nobody" by changing this thread's file-system user ID,
        // which drops the capability to override permissions for this thread alone.
        typealias SetFSUID = @convention(c) (UInt32) -> Int32
        let asNobody = geteuid() == 0
        let setfsuid = dlsym(dlopen(nil, RTLD_NOW), "setfsuid").map { unsafeBitCast($0, to: SetFSUID.self) }
        if asNobody {
            guard let setfsuid else { throw XCTSkip("setfsuid is not available") }
            _ = setfsuid(65_534)
        } else {
            XCTAssertEqual(chmod(terminal.slavePath, 0), 0)
        }
        let result = Result { () throws(SMPTransportError) in try SerialPort.open(path: terminal.slavePath) }
        if asNobody, let setfsuid { _ = setfsuid(0) }
        switch result {
        case .success(let port):
            port.close()
            XCTFail("expected permission denied")
        case .failure(let error):
            XCTAssertEqual(error.kind, .permissionDenied)
            XCTAssertTrue(error.message.hasPrefix("serial:\(terminal.slavePath): permission denied"), error.message)
            XCTAssertTrue(error.message.contains("(the device belongs to group "), error.message)
            XCTAssertTrue(error.hint?.contains("60-smpctl.rules") == true)
        }
    }

    func testOpeningErrorsByErrno() {
        XCTAssertEqual(SerialPortFailure.opening("/dev/x", code: EACCES).kind, .permissionDenied)
        XCTAssertEqual(SerialPortFailure.opening("/dev/x", code: ENOENT).kind, .notFound)
        XCTAssertEqual(SerialPortFailure.opening("/dev/x", code: EBUSY).message, "serial:/dev/x: the port is in use by another program")
        XCTAssertEqual(SerialPortFailure.opening("/dev/x", code: ENXIO).kind, .closed)
        XCTAssertEqual(SerialPortFailure.opening("/dev/x", code: EIO).message, "serial:/dev/x: opening failed: Input/output error")
    }

    func testTheDisappearanceMessage() {
        let error = SerialPortFailure.disappeared("/dev/ttyACM0", detail: "Input/output error")
        XCTAssertEqual(error.kind, .closed)
        XCTAssertEqual(error.message, "serial:/dev/ttyACM0: the device disappeared (Input/output error)")
        XCTAssertTrue(error.hint?.contains("reset") == true)
    }
}
