#if canImport(Glibc)
import Glibc
#endif

/// Who may open a device node — its owner, group and mode — and what the user can do to get
/// access when opening it was refused. The advice follows the node as it is: joining a group is
/// suggested only when that group may read and write it (never `root`); otherwise the udev rule
/// of this package (which grants the logged-in user access through `uaccess`).
struct SerialPortAccess: Sendable, Equatable {
    /// The node's owner and group (numbers) and permission bits.
    var ownerID: UInt32
    var groupID: UInt32
    var mode: UInt32
    /// Their names, or the numbers when they have none.
    var owner: String
    var group: String

    /// The node as `stat(2)` reports it, nil when it cannot be read.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(ownerID: status.st_uid, groupID: status.st_gid, mode: UInt32(status.st_mode & 0o7777))
    }

    /// A node with these owner, group and mode bits (names looked up in the user and group databases).
    init(ownerID: UInt32, groupID: UInt32, mode: UInt32, owner: String? = nil, group: String? = nil) {
        self.ownerID = ownerID
        self.groupID = groupID
        self.mode = mode
        self.owner = owner ?? getpwuid(ownerID).map { String(cString: $0.pointee.pw_name) } ?? String(ownerID)
        self.group = group ?? getgrgid(groupID).map { String(cString: $0.pointee.gr_name) } ?? String(groupID)
    }

    /// `crw------- root:root`.
    var summary: String {
        let letters = Array("rwxrwxrwx")
        let bits = (0..<9).map { mode & (0o400 >> UInt32($0)) != 0 ? String(letters[$0]) : "-" }.joined()
        return "c\(bits) \(owner):\(group)"
    }

    /// The user asking: their user ID, the groups this process has, and the groups the user
    /// belongs to in the group database (which a login session only gets when it starts).
    struct User: Sendable, Equatable {
        var userID: UInt32
        var processGroups: Set<UInt32>
        var memberGroups: Set<UInt32>

        /// The user running this process.
        static var current: User {
            let count = getgroups(0, nil)
            var groups = [gid_t](repeating: 0, count: Int(max(0, count)))
            let read = count > 0 ? getgroups(count, &groups) : 0
            var process = Set(groups.prefix(Int(max(0, read))))
            process.insert(getegid())
            var member = process
            if let entry = getpwuid(geteuid()) {
                var found = [gid_t](repeating: 0, count: 256)
                var size = Int32(found.count)
                if getgrouplist(entry.pointee.pw_name, entry.pointee.pw_gid, &found, &size) >= 0 {
                    member.formUnion(found.prefix(Int(size)))
                }
            }
            return User(userID: geteuid(), processGroups: process, memberGroups: member)
        }
    }

    /// What to do to open the node at `path`, for `user`.
    func advice(path: String, for user: User = .current, udevRule: String) -> String {
        let groupMayUse = mode & 0o060 == 0o060
        if ownerID == user.userID && mode & 0o600 != 0o600 {
            return "you own \(path) but its mode (\(summary)) does not let you read and write it: chmod u+rw \(path)"
        }
        let udev = "install the udev rule, which gives the user logged in at the machine access through uaccess "
            + "(Zephyr, Nordic and J-Link USB IDs; add your adapter's vendor ID to it for others): "
            + "sudo install -m 644 \(udevRule) /etc/udev/rules.d/ && sudo udevadm control --reload "
            + "&& sudo udevadm trigger --subsystem-match=tty"
        guard groupMayUse && groupID != 0 else {
            return "only \(owner) may open \(path) (\(summary)), and no group gives access to it: \(udev); "
                + "or, until it is unplugged: sudo setfacl -m u:$USER:rw \(path)"
        }
        if user.memberGroups.contains(groupID) && !user.processGroups.contains(groupID) {
            return "you are in group \(group), which may open \(path) (\(summary)), but this login session started "
                + "before you were added: log out and in again (or run the command under `newgrp \(group)`)"
        }
        if user.processGroups.contains(groupID) {
            return "group \(group) may open \(path) (\(summary)) and you are in it, yet access was refused "
                + "(an ACL or a security module?): check `getfacl \(path)`, or \(udev)"
        }
        return "group \(group) may open \(path) (\(summary)): add yourself to it with sudo usermod -aG \(group) $USER, "
            + "then log out and in again; or \(udev)"
    }
}
