import ArgumentParser
import AuthFileStorage
import AuthProviders
import AuthTokenExchange
import Foundation

/// `--family NAME --family-store DIR`: the app family of OpenID Connect Native SSO whose sign-in is shared, and the
/// directory its apps share (a `FileTokenStorage`, mode 0700).
struct FamilyOptions: ParsableArguments {
    @Option(help: "The app family (OpenID Connect Native SSO) whose sign-in is shared through --family-store.")
    var family: String?

    @Option(help: "The directory the app family's processes share (the device secret and the ID token, mode 0700).")
    var familyStore: String?

    /// The family the flags name, or `nil` without `--family`.
    var value: NativeSSOFamily? {
        get throws {
            guard let family else {
                guard familyStore == nil else { throw ValidationError("--family-store goes with --family.") }
                return nil
            }
            guard let familyStore else { throw ValidationError("--family needs --family-store DIR, the directory the family's apps share.") }
            let directory = URL(fileURLWithPath: (familyStore as NSString).expandingTildeInPath, isDirectory: true)
            return NativeSSOFamily(name: family, storage: FileTokenStorage(directory: directory))
        }
    }
}
