import SMP
import SMPFirmware

/// How `upgrade` reports a failure: which step, why, and what to do next.
enum UpgradeFailure {
    /// The CLI error for `error`, raised while reading `file` or during `step` of `plan`.
    static func cliError(
        _ error: any Error, file: String, during step: (any UpgradeStep)? = nil, of plan: (any UpgradePlan)? = nil, resume: String? = nil
    ) -> CLIError {
        let resume = resume ?? "smpctl upgrade \(file)"
        switch error {
        case is CancellationError:
            let stage = step.map { " during \"\($0.summary)\"" } ?? ""
            let note = step.flatMap { plan?.interruptionNote(during: $0) }
            return CLIError(
                .interrupted, "upgrade interrupted\(stage)",
                hint: "\(note ?? "the device keeps what was done; the same command continues from there"): \(resume)")
        case let error as FirmwarePackageError:
            return CLIError(.dataError, error.description)
        case let error as UpgradePlanError:
            return CLIError(status(error), "\(file): \(error.description)", hint: error.hint(naming: .smpctl))
        case let error as UpgradeError:
            var failure = underlying(error.underlying, resume: resume)
            failure.message = UpgradeError.message(stage: error.stage, step: error.step, reason: failure.message)
            if let hint = SMPNextStep.cliHint(error.hint, error.nextStep) { failure.hint = hint }
            return failure
        default:
            return CLIError(error)
        }
    }

    private static func underlying(_ error: any Error, resume: String) -> CLIError {
        switch error {
        case let error as UpgradePlanError:
            return CLIError(status(error), error.description, hint: error.hint(naming: .smpctl))
        case let error as UpgradeVerificationError:
            return CLIError(.deviceError, error.description)
        case let error as SUITMissingResourceError:
            return CLIError(.dataError, error.description)
        case is ChunkedUploadError:
            return ImageUploadFailure.cliError(error, nil, command: resume)
        default:
            return CLIError(error)
        }
    }

    private static func status(_ error: UpgradePlanError) -> ExitStatus {
        switch error {
        case .invalidImage, .noImageHash, .emptyPackage, .suitNotSupported, .notSUIT, .suitDigest: return .dataError
        // What smpctl found on the device rules the upgrade out: its own refusal, not the device's error.
        case .noImagesListed, .singleSlot, .unknownImage, .notNewer, .alreadyPermanent, .suitDevice, .notSUITDevice: return .refused
        }
    }
}
