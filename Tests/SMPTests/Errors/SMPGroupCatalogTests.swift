import XCTest
@testable import SMP

/// What ``SMPGroupCatalog`` derives from the built-in descriptors: the same names, hints and
/// probes the hand-written lists held before.
final class SMPGroupCatalogTests: XCTestCase {
    func testNamesAndKnownGroups() {
        let names: [UInt16: String] = [
            0: "os", 1: "image", 2: "statistics", 3: "settings", 4: "log", 5: "crash", 6: "split", 7: "run",
            8: "fs", 9: "shell", 10: "enum", 11: "transport", 63: "zephyr-basic", 66: "suit", 128: "memfault",
        ]
        XCTAssertEqual(SMPGroupCatalog.builtIn.map(\.group.rawValue), names.keys.sorted())
        for (id, name) in names {
            XCTAssertEqual(SMPGroup(rawValue: id).name, name)
            XCTAssertEqual(SMPGroup(name: name), SMPGroup(rawValue: id))
            XCTAssertEqual(SMPGroup(name: name.uppercased()), SMPGroup(rawValue: id))
        }
        XCTAssertNil(SMPGroup.perUser.name)
    }

    func testEnablingOptions() {
        XCTAssertEqual(SMPGroup.image.enablingOption, "CONFIG_MCUMGR_GRP_IMG")
        XCTAssertEqual(SMPGroup.zephyrBasic.enablingOption,
                       "CONFIG_MCUMGR_GRP_ZBASIC with CONFIG_MCUMGR_GRP_ZBASIC_STORAGE_ERASE")
        XCTAssertEqual(SMPGroup.log.enablingOption, "a Mynewt group: Zephyr has no such group")
        XCTAssertEqual(SMPGroup.transport.enablingOption, "CONFIG_MCUMGR_GRP_* options")
        XCTAssertEqual(SMPGroup(rawValue: 77).enablingOption, "CONFIG_MCUMGR_GRP_* options")
    }

    func testProbesAreHarmlessReads() {
        let probed = SMPGroupCatalog.builtIn.filter { $0.probe != nil }.map(\.name)
        XCTAssertEqual(probed, ["os", "image", "statistics", "settings", "log", "run", "fs", "shell", "suit"])
        for descriptor in SMPGroupCatalog.builtIn {
            guard let probe = descriptor.probe else { continue }
            XCTAssertEqual(probe.group, descriptor.group, descriptor.name)
            XCTAssertEqual(probe.name, "probe \(descriptor.name)")
            XCTAssertNotNil(descriptor.command(probe.command), "\(descriptor.name): the probe's command is listed")
            // The shell's empty command line is a write that runs nothing.
            XCTAssertEqual(probe.operation, descriptor.group == .shell ? .write : .read, descriptor.name)
        }
    }

    func testCommandsNameTheirTypes() {
        for descriptor in SMPGroupCatalog.builtIn {
            XCTAssertEqual(Set(descriptor.commands.map(\.id)).count, descriptor.commands.count, descriptor.name)
            XCTAssertFalse(descriptor.commands.contains { $0.name.isEmpty }, descriptor.name)
        }
        let file = SMPGroupDescriptor.fileSystem.command(FileSystemCommandID.file)
        XCTAssertEqual(file?.types.map { String(describing: $0) }, ["FileDownloadChunk", "FileUploadChunk"])
    }

    func testRegistrationRejectsTakenIDsAndNames() {
        let clash = SMPGroupDescriptor(group: .fileSystem, name: "mine", title: "mine", enablingOption: "-")
        XCTAssertThrowsError(try SMPGroupCatalog.register(clash)) { error in
            XCTAssertTrue(String(describing: error).hasPrefix("cannot register group 8 \"mine\": its ID or name belongs to fs (8)"),
                          String(describing: error))
        }
        let nameClash = SMPGroupDescriptor(group: SMPGroup(rawValue: 4000), name: "FS", title: "mine", enablingOption: "-")
        XCTAssertThrowsError(try SMPGroupCatalog.register(nameClash)) { error in
            XCTAssertTrue(String(describing: error).hasPrefix("cannot register group 4000 \"FS\": its ID or name belongs to fs (8)"),
                          String(describing: error))
        }
        XCTAssertNil(SMPGroup(rawValue: 4000).name)
    }
}
