import FoundationEssentials
import SMPKit

/// Command lines printed for people to paste into a POSIX shell.
enum ShellQuoting {
    /// `words` joined by spaces, each quoted when the shell would split or expand it
    /// (`/tmp/my file.bin` → `'/tmp/my file.bin'`, `ble:name=X?pair=1` → `'ble:name=X?pair=1'`);
    /// a PSK in a connection string shows as `psk=<hidden>` (``ConnectionSecrets``).
    static func commandLine(_ words: [String]) -> String {
        words.map { quoted(ConnectionSecrets.redacted($0)) }.joined(separator: " ")
    }

    /// One word, single-quoted unless it holds only characters the shell takes literally.
    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_./:=@%+,".unicodeScalars.contains(scalar)
        }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
