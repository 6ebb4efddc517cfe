import Foundation
import SMPTestSupport

/// File system edge cases, the same on real Zephyr and on the virtual device: an empty file put
/// over an existing one (fs_mgmt keeps the old content: smpctl must say so), directory
/// destinations (a trailing `/`, the mount point), missing directories and the error codes
/// Zephyr answers for them, and local destinations that are directories or devices. Each runs on
/// a fresh device with files small enough to be stored inline in LittleFS's metadata (the
/// fixtures' 4 × 4 KiB file system has room for about two files of a block each).
extension ConformanceScenarios {
    static let fileSystemEdges: [ConformanceScenario] = [
        ConformanceScenario(
            name: "an empty file put over a 40-byte file: the device keeps it, smpctl exits 2 and says so; a new empty file is created",
            area: .fileSystem, freshDevice: true,
            steps: [
                ScenarioStep({ ["fs", "put", try $0.file("kept.bin", size: 40).path, "/lfs1/emptied.bin", "--json"] }, check: Expect.success()),
                ScenarioStep({ ["fs", "put", try $0.file("empty.bin", size: 0).path, "/lfs1/emptied.bin", "--json"] },
                    check: Expect.deviceError("the device kept the 40 bytes of /lfs1/emptied.bin")),
                ScenarioStep(["fs", "stat", "/lfs1/emptied.bin", "--json"], check: Expect.success { json, _ in
                    Expect.equal(json["size"] as? Int, 40, "size after the empty put")
                }),
                ScenarioStep({ ["fs", "put", try $0.file("empty.bin", size: 0).path, "/lfs1/new-empty.bin", "--json"] }, check: Expect.success()),
                ScenarioStep(["fs", "stat", "/lfs1/new-empty.bin", "--json"], check: Expect.success { json, _ in
                    Expect.equal(json["size"] as? Int, 0, "size of the new empty file")
                }),
            ]),
        ConformanceScenario(
            name: "fs put to /lfs1/ and to /lfs1 (a directory) puts the local name inside it; fs get into a local folder and to /dev/null",
            area: .fileSystem, freshDevice: true,
            steps: [
                ScenarioStep({ ["fs", "put", try $0.file("into.bin", size: 30).path, "/lfs1/", "--json"] }, check: Expect.success { json, _ in
                    Expect.equal(json["remote"] as? String, "/lfs1/into.bin", "remote")
                }),
                ScenarioStep({ ["fs", "put", try $0.file("mount.bin", size: 20).path, "/lfs1", "--json"] }, check: Expect.success { json, _ in
                    Expect.equal(json["remote"] as? String, "/lfs1/mount.bin", "remote")
                }),
                ScenarioStep(["fs", "stat", "/lfs1/mount.bin", "--json"], check: Expect.success { json, _ in
                    Expect.equal(json["size"] as? Int, 20, "size")
                }),
                ScenarioStep(["fs", "stat", "/lfs1", "--json"], check: Expect.deviceError("FS_MGMT_ERR_FILE_IS_DIRECTORY")),
                ScenarioStep({ ["fs", "get", "/lfs1/into.bin", try downloads($0).path, "--json"] }) { run, context in
                    let got = try? Data(contentsOf: context.scratch.appendingPathComponent("downloads/into.bin"))
                    let sent = try? Data(contentsOf: context.scratch.appendingPathComponent("into.bin"))
                    return Expect.success { json, context in
                        Expect.equal(json["local"] as? String, context.scratch.appendingPathComponent("downloads/into.bin").path, "local")
                    }(run, context) + Expect.that(got != nil && got == sent, "downloads/into.bin differs from the file put")
                },
                ScenarioStep(["fs", "get", "/lfs1/into.bin", "/dev/null", "--json"]) { run, context in
                    var info = stat()
                    return Expect.success()(run, context)
                        + Expect.that(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/null is no longer a character device")
                },
            ]),
        ConformanceScenario(
            name: "a missing directory, a missing mount point and a file used as a directory are named (Zephyr: MOUNT_POINT_NOT_FOUND, UNKNOWN)",
            area: .fileSystem, freshDevice: true,
            steps: [
                ScenarioStep({ ["fs", "put", try $0.file("small.bin", size: 10).path, "/lfs1/no-such-dir/x.bin", "--json"] },
                    check: Expect.deviceError("the directory /lfs1/no-such-dir does not exist")),
                ScenarioStep({ ["fs", "put", try $0.file("small.bin", size: 10).path, "/nofs/x.bin", "--json"] },
                    check: Expect.deviceError("no file system is mounted at /nofs")),
                ScenarioStep({ ["fs", "put", try $0.file("small.bin", size: 10).path, "/lfs1/small-file.bin", "--json"] }, check: Expect.success()),
                ScenarioStep({ ["fs", "put", try $0.file("small.bin", size: 10).path, "/lfs1/small-file.bin/x.bin", "--json"] },
                    check: Expect.deviceError("/lfs1/small-file.bin is a file on the device, not a directory")),
                ScenarioStep(["fs", "stat", "/lfs1/no-such-dir/x.bin", "--json"], check: Expect.deviceError("FS_MGMT_ERR_FILE_NOT_FOUND")),
                ScenarioStep(["fs", "stat", "/lfs1/small-file.bin/", "--json"], check: Expect.deviceError("FS_MGMT_ERR_UNKNOWN")),
            ]),
    ]

    /// The scenario's `downloads` folder (made on first use).
    static func downloads(_ context: ScenarioContext) throws -> URL {
        let url = context.scratch.appendingPathComponent("downloads")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
