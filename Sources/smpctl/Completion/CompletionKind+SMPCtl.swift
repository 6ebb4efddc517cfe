import ArgumentParser
import FoundationEssentials

extension CompletionKind {
    /// Firmware files: MCUboot images (`.bin`, `.hex`), nRF Connect SDK packages (`.zip`) and SUIT
    /// envelopes (`.suit`); directories are offered too.
    static var firmwareFile: CompletionKind { .file(extensions: FirmwareFileExtensions.all) }

    /// A connection string for `-c`: the schemes and the serial ports present (see ``ConnectionCompletion``).
    static var connectionString: CompletionKind {
        .custom { _, _, prefix in
            ConnectionCompletion.candidates(prefix: prefix, environment: ProcessInfo.processInfo.environment).escapedForRequestingShell
        }
    }

    /// A profile name for `-p`: the profiles in the config file (see ``ProfileNameCompletion``).
    static var profileName: CompletionKind {
        .custom { _, _, prefix in
            ProfileNameCompletion.names(environment: ProcessInfo.processInfo.environment).filter { $0.hasPrefix(prefix) }
                .escapedForRequestingShell
        }
    }
}

extension [String] {
    /// The candidates as the shell asking for them reads them: zsh's `_describe` takes
    /// `value:description`, so a colon in a value is written `\:` there.
    fileprivate var escapedForRequestingShell: [String] {
        CompletionShell.requesting == .zsh ? map { $0.replacing(":", with: "\\:") } : self
    }
}

/// The file name extensions of the firmware files the commands read.
enum FirmwareFileExtensions {
    /// Everything `upgrade` takes.
    static let all = ["bin", "hex", "zip", "suit"]
    /// MCUboot images, as `image upload` and `image info` take them.
    static let image = ["bin", "hex"]
}
