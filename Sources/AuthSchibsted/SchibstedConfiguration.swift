public import AuthCore
public import Foundation

/// A Schibsted account environment: the server is the issuer; there is no discovery.
public enum SchibstedEnvironment: Sendable, Hashable {
    /// `https://login.schibsted.com` (v6: `sweden`).
    case proCom
    /// `https://login.schibsted.fi` (v6: `finland`).
    case proFi
    /// `https://payment.schibsted.no` (v6: `norway`).
    case proNo
    /// `https://login.schibsted.dk` (v5 only).
    case proDk
    /// `https://identity-pre.schibsted.com`, the pre-production environment.
    case pre
    /// Another server (tests, emulators).
    case custom(URL)

    /// The v6 names.
    public static let sweden = SchibstedEnvironment.proCom
    /// The v6 names.
    public static let finland = SchibstedEnvironment.proFi
    /// The v6 names.
    public static let norway = SchibstedEnvironment.proNo

    /// The environment for a name: `pre`, `proCom`, `proNo`, `proFi`, `proDk`, `sweden`, `norway`, `finland`
    /// (case-insensitive), or `nil`.
    public init?(name: String) {
        switch name.lowercased() {
        case "procom", "sweden": self = .proCom
        case "profi", "finland": self = .proFi
        case "prono", "norway": self = .proNo
        case "prodk": self = .proDk
        case "pre": self = .pre
        default: return nil
        }
    }

    /// The server URL, which is also the issuer.
    public var serverURL: URL {
        switch self {
        case .proCom: URL(string: "https://login.schibsted.com")!
        case .proFi: URL(string: "https://login.schibsted.fi")!
        case .proNo: URL(string: "https://payment.schibsted.no")!
        case .proDk: URL(string: "https://login.schibsted.dk")!
        case .pre: URL(string: "https://identity-pre.schibsted.com")!
        case .custom(let url): url
        }
    }

    /// The session service: `https://session-service.<server host>`.
    public var sessionServiceURL: URL {
        URL(string: "https://session-service.\(serverURL.host ?? "")")!
    }

    /// The user's SDRN (Schibsted data resource name) for a legacy user id, as the vendor SDK 6 builds it:
    /// `sdrn:schibsted.com:user:<id>` (Sweden, pre and custom servers), `sdrn:spid.no:user:<id>` (Norway),
    /// `sdrn:schibsted.fi:user:<id>` (Finland); `nil` for Denmark, which SDK 6 no longer serves.
    public func sdrn(userId: String) -> String? {
        switch self {
        case .proCom, .pre, .custom: "sdrn:schibsted.com:user:\(userId)"
        case .proNo: "sdrn:spid.no:user:\(userId)"
        case .proFi: "sdrn:schibsted.fi:user:\(userId)"
        case .proDk: nil
        }
    }

    /// Whether the country-specific eID methods (`eid-dk`, `eid-fi`, `eid-no`, `eid-se`) may be requested.
    package var allowsCountryEID: Bool {
        switch self {
        case .pre, .custom: true
        default: false
        }
    }

    /// `path` on this environment's server (the compatibility module's profile and session endpoints use it too).
    package func endpoint(_ path: String) -> URL {
        URL(string: serverURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + path)!
    }

    /// `path` on this environment's session service (simplified login).
    package func sessionServiceEndpoint(_ path: String) -> URL {
        URL(string: sessionServiceURL.absoluteString + path)!
    }
}

/// An authentication method Schibsted account can be asked to require (`acr_values`).
public enum MFAType: String, Sendable, CaseIterable {
    /// Password.
    case password
    /// One-time code.
    case otp
    /// SMS code.
    case sms
    /// Any electronic ID.
    case eid
    /// Danish eID (pre only).
    case eidDK = "eid-dk"
    /// Finnish eID (pre only).
    case eidFI = "eid-fi"
    /// Norwegian eID (pre only).
    case eidNO = "eid-no"
    /// Swedish BankID (pre only).
    case eidSE = "eid-se"

    /// The vendor SDK 5 spelling of a country eID, `.preEid(.se)`.
    public static func preEid(_ country: PreEidType) -> MFAType { country.method }
    /// The vendor SDK 6 spelling of a country eID, `.preBankId(.se)`.
    public static func preBankId(_ country: PreEidType) -> MFAType { country.method }
    /// The vendor SDK 6 name of ``otp``.
    public static let oneTimeCode = MFAType.otp
    /// The vendor SDK 6 name of ``eid``.
    public static let bankId = MFAType.eid

    /// The `amr` value the server reports for this method. Schibsted's pre environment reports a country eID
    /// (`eid-se`, …) as plain `eid`, so both vendor SDK versions (5.1.3 `IdTokenValidator`, 6.x `verifyAMR`)
    /// expect `eid` for those, and only that.
    var expectedAMRValue: String {
        switch self {
        case .eidDK, .eidFI, .eidNO, .eidSE: MFAType.eid.rawValue
        default: rawValue
        }
    }

    /// Whether the ID token's `amr` satisfies this method, by the vendor's rule: `amr` contains
    /// ``expectedAMRValue``.
    func isSatisfied(by amr: [String]) -> Bool {
        amr.contains(expectedAMRValue)
    }
}

/// A country of the pre-environment eIDs (the vendor's `PreEidType`, 6.x `PreBankId`).
public enum PreEidType: String, Sendable, CaseIterable {
    /// Denmark.
    case dk = "eid-dk"
    /// Finland.
    case fi = "eid-fi"
    /// Norway.
    case no = "eid-no"
    /// Sweden.
    case se = "eid-se"

    /// The method for this country.
    var method: MFAType { MFAType(rawValue: rawValue) ?? .eid }
}

/// The client's configuration (the vendor's `ClientConfiguration`, which SchibstedCompat names it).
public struct SchibstedConfiguration: Sendable, Hashable {
    /// The environment.
    public let environment: SchibstedEnvironment
    /// The client id (a `public_mobile_client`).
    public let clientId: String
    /// The redirect URI.
    public let redirectURI: URL

    /// Creates a configuration.
    public init(environment: SchibstedEnvironment, clientId: String, redirectURI: URL) {
        self.environment = environment
        self.clientId = clientId
        self.redirectURI = redirectURI
    }

    /// The environment, by the vendor SDK 5 name (`clientConfiguration.env`), for example to pass to SchibstedCompat's
    /// `SimplifiedLoginManager`.
    public var env: SchibstedEnvironment { environment }

    /// The issuer: the server URL.
    public var issuer: String { environment.serverURL.absoluteString }

    /// Reads `environment` (a name) or `serverURL`, `clientId` and `redirectURI` from a dictionary.
    ///
    /// - Throws: `missing_configuration_key` naming the key; `invalid_configuration` for an unknown environment.
    public init(_ configuration: ProviderConfiguration) throws {
        let id = SchibstedProvider.id
        let environment: SchibstedEnvironment
        if let name = configuration.string("environment") {
            guard let known = SchibstedEnvironment(name: name) else {
                throw AuthError(.invalidConfiguration, "Unknown Schibsted environment '\(name)'; use pre, proCom, proNo, proFi, proDk, sweden, norway or finland.", providerID: id)
            }
            environment = known
        } else if configuration["serverURL"] != nil {
            environment = .custom(try configuration.requiredURL("serverURL", providerID: id))
        } else {
            throw AuthError(.missingConfigurationKey, "The configuration key 'environment' is missing (or set 'serverURL').", providerID: id)
        }
        self.init(
            environment: environment,
            clientId: try configuration.requiredString("clientId", aliases: ["clientID", "client_id"], providerID: id),
            redirectURI: try configuration.requiredURL("redirectURI", aliases: ["redirectUri", "redirect_uri"], providerID: id)
        )
    }
}
