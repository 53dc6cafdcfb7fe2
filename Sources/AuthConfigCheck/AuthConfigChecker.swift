public import AuthCore
public import AuthProviders
import Foundation

/// One problem found in an app's auth configuration.
public struct ConfigFinding: Sendable, Equatable, CustomStringConvertible {
    /// How serious it is.
    public enum Severity: String, Sendable {
        /// Sign-in will not work (or is unsafe): the check fails.
        case error
        /// Legal but risky; the check still passes.
        case warning
    }

    /// How serious it is.
    public let severity: Severity
    /// The file it is in.
    public let file: String
    /// The key concerned.
    public let key: String
    /// What is wrong and what to do.
    public let message: String

    /// Creates a finding.
    public init(severity: Severity, file: String, key: String, message: String) {
        self.severity = severity
        self.file = file
        self.key = key
        self.message = message
    }

    /// `file: error: key: message`, the format editors and CI logs understand.
    public var description: String { "\(file): \(severity.rawValue): \(key): \(message)" }
}

/// Checks an app's auth configuration against each provider's rules: required keys, redirect schemes registered
/// in `CFBundleURLTypes`, hand-off schemes in `LSApplicationQueriesSchemes`, `https` where required, no client
/// secrets in an app, and warnings for risky-but-legal settings.
public struct AuthConfigChecker: Sendable {
    /// A provider configuration file to check.
    public struct ConfigurationFile: Sendable {
        /// The provider id.
        public let providerID: ProviderID
        /// The file name, for messages.
        public let file: String
        /// Its contents.
        public let values: ProviderConfiguration

        /// Creates an entry.
        public init(providerID: ProviderID, file: String, values: ProviderConfiguration) {
            self.providerID = providerID
            self.file = file
            self.values = values
        }
    }

    private let registry: ProviderRegistry

    /// A checker for the built-in providers (or `registry`'s).
    public init(registry: ProviderRegistry = .builtIn) {
        self.registry = registry
    }

    /// Checks an Info.plist (its GrabIdPartnerSDK and Uber sections, URL types and queried schemes) and provider
    /// configuration files.
    public func check(infoPlist: (file: String, values: ProviderConfiguration)?, configurations: [ConfigurationFile]) -> [ConfigFinding] {
        var findings: [ConfigFinding] = []
        var all = configurations
        let registeredSchemes = Set(
            (infoPlist?.values["CFBundleURLTypes"]?.arrayValue ?? []).flatMap {
                $0["CFBundleURLSchemes"]?.arrayValue?.compactMap { $0.stringValue?.lowercased() } ?? []
            })
        let queried = Set(infoPlist?.values["LSApplicationQueriesSchemes"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        if let plist = infoPlist {
            if plist.values["GrabIdPartnerSDK"] != nil {
                all.append(ConfigurationFile(providerID: "grab", file: plist.file, values: plist.values))
                // GrabIdPartnerSDK's README lists both: `grab` (the Grab app) and `grabconnect` (its login feature).
                let missing = ["grab", "grabconnect"].filter { !queried.contains($0) }
                if !missing.isEmpty {
                    findings.append(
                        ConfigFinding(
                            severity: .warning, file: plist.file, key: "LSApplicationQueriesSchemes",
                            message: "add \(missing.joined(separator: " and ")), or the hand-off to the Grab app is never tried: the login is on the web"))
                }
            }
            if plist.values["Uber"] != nil {
                all.append(ConfigurationFile(providerID: "uber", file: plist.file, values: plist.values))
                let missing = ["uber", "uberauth", "ubereats", "uberdriver"].filter { !queried.contains($0) }
                if !missing.isEmpty {
                    findings.append(
                        ConfigFinding(
                            severity: .warning, file: plist.file, key: "LSApplicationQueriesSchemes",
                            message: "add \(missing.joined(separator: ", ")) for native Uber destinations; without them every login is in app"))
                }
            }
        }
        for entry in all {
            findings += check(entry, registeredSchemes: infoPlist == nil ? nil : registeredSchemes, plistFile: infoPlist?.file)
        }
        return findings
    }

    private func check(_ entry: ConfigurationFile, registeredSchemes: Set<String>?, plistFile: String?) -> [ConfigFinding] {
        var findings: [ConfigFinding] = []
        func error(_ key: String, _ message: String) { findings.append(ConfigFinding(severity: .error, file: entry.file, key: key, message: message)) }
        func warning(_ key: String, _ message: String) { findings.append(ConfigFinding(severity: .warning, file: entry.file, key: key, message: message)) }

        let section = entry.values.section(entry.providerID == "grab" ? "GrabIdPartnerSDK" : entry.providerID == "uber" ? "Uber" : "") ?? entry.values
        for key in ["client_secret", "clientSecret", "ClientSecret"] where section[key] != nil {
            error(key, "never ship a client secret in an app: it is public to anyone who has the app; use a public client with PKCE")
        }
        let provider: any AuthProvider
        do {
            provider = try registry.provider(named: entry.providerID.rawValue, configuration: entry.values)
        } catch let failure as AuthError {
            let key = failure.message.firstQuoted ?? entry.providerID.rawValue
            error(key, failure.message)
            return findings
        } catch let other {
            error(entry.providerID.rawValue, "\(other)")
            return findings
        }
        let redirect = provider.client.redirectURI
        let scheme = redirect.scheme?.lowercased() ?? ""
        if scheme == "http", !redirect.isLoopback, redirect.host?.lowercased() != "localhost" {
            error("redirect", "the redirect URI \(redirect.absoluteString) uses plain http on a non-loopback host")
        }
        if scheme != "http", scheme != "https", let registeredSchemes, !registeredSchemes.contains(scheme) {
            findings.append(
                ConfigFinding(
                    severity: .error, file: plistFile ?? entry.file, key: "CFBundleURLTypes",
                    message: "the redirect scheme '\(scheme)' (\(entry.providerID)) is not registered, so the redirect never reaches the app"))
        }
        switch entry.providerID {
        case "govuk":
            if entry.values.bool("prefersEphemeralWebSession") == false {
                warning("prefersEphemeralWebSession", "GOV.UK One Login recommends an ephemeral web session; false shares browser cookies")
            }
        case "schibsted":
            if entry.values.string("environment")?.lowercased() == "pre" {
                warning("environment", "the pre-production environment is configured; use proCom, proNo, proFi or proDk in a release")
            }
        case "onelogin":
            if !(entry.values.string("scopes") ?? "").split(separator: " ").contains("offline_access") {
                warning("scopes", "without offline_access OneLogin issues no refresh token; users sign in again when the access token expires")
            }
        default:
            break
        }
        return findings
    }
}

extension String {
    /// The first text between single quotes, which AuthError messages use for configuration keys.
    var firstQuoted: String? {
        let parts = split(separator: "'", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[1]) : nil
    }
}
