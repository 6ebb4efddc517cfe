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
        XCTAssertEqual(error.hint, "serial ports present: /dev/ttyACM0, /dev/serial/by-id/usb-x")
        XCTAssertEqual(error.nextStep, .listSerialPorts)
        XCTAssertEqual(error.advice, "serial ports present: /dev/ttyACM0, /dev/serial/by-id/usb-x; list the serial ports to tell them apart")
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

    func testPermissionAdviceFollowsTheNodesOwnerGroupAndMode() {
        let me = SerialPortAccess.User(userID: 1000, processGroups: [1000], memberGroups: [1000])
        let rootOnly = SerialPortAccess(ownerID: 0, groupID: 0, mode: 0o600, owner: "root", group: "root")
        XCTAssertEqual(rootOnly.summary, "crw------- root:root")
        let rootAdvice = rootOnly.advice(path: "/dev/ttyACM0", for: me, udevRule: "udev/60-smpctl.rules")
        XCTAssertFalse(rootAdvice.contains("usermod"), "never join root: \(rootAdvice)")
        XCTAssertTrue(rootAdvice.contains("only root may open /dev/ttyACM0 (crw------- root:root)"), rootAdvice)
        XCTAssertTrue(rootAdvice.contains("sudo install -m 644 udev/60-smpctl.rules /etc/udev/rules.d/"), rootAdvice)
        XCTAssertTrue(rootAdvice.contains("uaccess"), rootAdvice)

        // A group that may not write gives nothing to join either.
        let readOnlyGroup = SerialPortAccess(ownerID: 0, groupID: 20, mode: 0o640, owner: "root", group: "dialout")
        XCTAssertFalse(readOnlyGroup.advice(path: "/dev/ttyUSB0", for: me, udevRule: "r").contains("usermod"))

        let dialout = SerialPortAccess(ownerID: 0, groupID: 20, mode: 0o660, owner: "root", group: "dialout")
        let join = dialout.advice(path: "/dev/ttyUSB0", for: me, udevRule: "r")
        XCTAssertTrue(join.hasPrefix("group dialout may open /dev/ttyUSB0 (crw-rw---- root:dialout): add yourself to it with sudo usermod -aG dialout $USER"), join)
        let plugdev = SerialPortAccess(ownerID: 0, groupID: 46, mode: 0o660, owner: "root", group: "plugdev")
        XCTAssertTrue(plugdev.advice(path: "/dev/ttyACM1", for: me, udevRule: "r").contains("usermod -aG plugdev"))

        let addedLately = SerialPortAccess.User(userID: 1000, processGroups: [1000], memberGroups: [1000, 20])
        XCTAssertTrue(dialout.advice(path: "/dev/ttyUSB0", for: addedLately, udevRule: "r").hasPrefix("you are in group dialout"))

        let mine = SerialPortAccess(ownerID: 1000, groupID: 5, mode: 0, owner: "me", group: "tty")
        XCTAssertEqual(
            mine.advice(path: "/dev/pts/3", for: me, udevRule: "r"),
            "you own /dev/pts/3 but its mode (c--------- me:tty) does not let you read and write it: chmod u+rw /dev/pts/3")
    }

    func testPermissionDeniedForReal() throws {
        let terminal = try TestTerminal()  // owned by us, mode 620
        // Root opens anything: check as "nobody" by changing this thread's file-system user ID,
        // which drops the capability to override permissions for this thread alone.
        typealias SetFSUID = @convention(c) (UInt32) -> Int32
        let asNobody = geteuid() == 0
        let setfsuid = dlsym(dlopen(nil, RTLD_NOW), "setfsuid").map { unsafeBitCast($0, to: SetFSUID.self) }
        func open() -> Result<SerialPort, SMPTransportError> {
            if asNobody, let setfsuid { _ = setfsuid(65_534) }
            defer { if asNobody, let setfsuid { _ = setfsuid(0) } }
            return Result { () throws(SMPTransportError) in try SerialPort.open(path: terminal.slavePath) }
        }
        func refusal() -> SMPTransportError {
            switch open() {
            case .success(let port):
                port.close()
                XCTFail("\(terminal.slavePath) opened, but access should have been refused")
                return SMPTransportError(.io, "opened")
            case .failure(let error):
                return error
            }
        }
        if asNobody {
            guard setfsuid != nil else { return XCTFail("setfsuid is not available") }
            // root:root 0600: the udev rule, never "join root".
            XCTAssertEqual(chown(terminal.slavePath, 0, 0), 0)
            XCTAssertEqual(chmod(terminal.slavePath, 0o600), 0)
            let rootOnly = refusal()
            XCTAssertEqual(rootOnly.kind, .permissionDenied)
            XCTAssertEqual(rootOnly.message, "serial:\(terminal.slavePath): permission denied (crw------- root:root)")
            XCTAssertTrue(rootOnly.hint?.contains("60-smpctl.rules") == true, "\(rootOnly)")
            XCTAssertFalse(rootOnly.hint?.contains("usermod") == true, "\(rootOnly)")
            // root:dialout 0660: nobody is not in dialout.
            let dialout = try XCTUnwrap(getgrnam("dialout")).pointee.gr_gid
            XCTAssertEqual(chown(terminal.slavePath, 0, dialout), 0)
            XCTAssertEqual(chmod(terminal.slavePath, 0o660), 0)
            let group = refusal()
            XCTAssertEqual(group.message, "serial:\(terminal.slavePath): permission denied (crw-rw---- root:dialout)")
            XCTAssertTrue(group.hint?.contains("sudo usermod -aG dialout $USER") == true, "\(group)")
        } else {
            XCTAssertEqual(chmod(terminal.slavePath, 0), 0)
            let own = refusal()
            XCTAssertEqual(own.kind, .permissionDenied)
            XCTAssertTrue(own.hint?.contains("chmod u+rw \(terminal.slavePath)") == true, "\(own)")
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
