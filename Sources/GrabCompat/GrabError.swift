public import AuthCore
import AuthGrab

/// GrabIdPartnerSDK's `GrabIdPartnerError`: the vendor's domain and integer code, its message and the service error,
/// for apps migrating from the vendor SDK.
///
/// ``GrabIdPartner`` throws it: the domain is the operation that failed, the code comes from the underlying
/// ``authError``'s stable code and fields, never from its message text. Any other `AuthError` has a view of it too
/// (`error.grabError`), whose domain the error's code implies.
public struct GrabError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the error happened (the vendor's `GrabIdPartnerErrorDomain`, same integer values).
    public enum Domain: Int, Sendable, CaseIterable {
        /// Loading Grab's service discovery document (0).
        case serviceDiscovery
        /// Reading the configuration (1).
        case loadConfiguration
        /// The authorization: route, browser or app, callback (2).
        case authorization
        /// The token exchange (3).
        case exchangeToken
        /// `getIdTokenInfo` (4).
        case getIdTokenInfo
        /// `logout` (5).
        case logout
        /// Using the access token (6).
        case protectedResource
        /// Reading the client public info's `custom_protocols` (7).
        case customProtocolsService
        /// Sending the user to the App Store (8).
        case appStore

        /// The vendor's case name.
        public var name: String { String(describing: self) }
    }

    /// What happened (the vendor's `GrabIdPartnerErrorCode`, same integer values). Codes from
    /// ``partnerAppError`` (10000) up are the app's own.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The vendor's integer value.
        public let rawValue: Int
        /// A code from its integer value.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The vendor's `grabIdServiceFailed` (0).
        public static let grabIdServiceFailed = Code(rawValue: 0)
        /// The vendor's `discoveryServiceFailed` (1).
        public static let discoveryServiceFailed = Code(rawValue: 1)
        /// The vendor's `idTokenInfoServiceFailed` (2).
        public static let idTokenInfoServiceFailed = Code(rawValue: 2)
        /// The vendor's `exchangeTokenServiceFailed` (3).
        public static let exchangeTokenServiceFailed = Code(rawValue: 3)
        /// The vendor's `authorizationInitializationFailure` (4).
        public static let authorizationInitializationFailure = Code(rawValue: 4)
        /// The vendor's `securityValidationFailed` (5).
        public static let securityValidationFailed = Code(rawValue: 5)
        /// The vendor's `logoutFailed` (6).
        public static let logoutFailed = Code(rawValue: 6)
        /// The vendor's `invalidIdToken` (7).
        public static let invalidIdToken = Code(rawValue: 7)
        /// The vendor's `invalidNonce` (8).
        public static let invalidNonce = Code(rawValue: 8)
        /// The vendor's `invalidConfiguration` (9).
        public static let invalidConfiguration = Code(rawValue: 9)
        /// The vendor's `somethingWentWrong` (10).
        public static let somethingWentWrong = Code(rawValue: 10)
        /// The vendor's `network` (11).
        public static let network = Code(rawValue: 11)
        /// The vendor's `invalidClientId` (12).
        public static let invalidClientId = Code(rawValue: 12)
        /// The vendor's `invalidScope` (13).
        public static let invalidScope = Code(rawValue: 13)
        /// The vendor's `invalidRedirectUrl` (14).
        public static let invalidRedirectUrl = Code(rawValue: 14)
        /// The vendor's `invalidAuthorizationCode` (15).
        public static let invalidAuthorizationCode = Code(rawValue: 15)
        /// The vendor's `invalidUrl` (16).
        public static let invalidUrl = Code(rawValue: 16)
        /// The vendor's `invalidPartnerId` (17).
        public static let invalidPartnerId = Code(rawValue: 17)
        /// The vendor's `unAuthorized` (18).
        public static let unAuthorized = Code(rawValue: 18)
        /// The vendor's `authorizationFailed` (19).
        public static let authorizationFailed = Code(rawValue: 19)
        /// The vendor's `serviceUnavailable` (20).
        public static let serviceUnavailable = Code(rawValue: 20)
        /// The vendor's `serviceError` (21).
        public static let serviceError = Code(rawValue: 21)
        /// The vendor's `invalidAccessToken` (22).
        public static let invalidAccessToken = Code(rawValue: 22)
        /// The vendor's `invalidResponse` (23).
        public static let invalidResponse = Code(rawValue: 23)
        /// The vendor's `invalidServiceDiscoveryUrl` (24).
        public static let invalidServiceDiscoveryUrl = Code(rawValue: 24)
        /// The vendor's `invalidAppBundle` (25).
        public static let invalidAppBundle = Code(rawValue: 25)
        /// The vendor's `invalidCustomProtocolUrl` (26).
        public static let invalidCustomProtocolUrl = Code(rawValue: 26)
        /// The vendor's `failedTolaunchAppStoreLink` (27).
        public static let failedTolaunchAppStoreLink = Code(rawValue: 27)
        /// The vendor's `launchAppStoreLink` (28).
        public static let launchAppStoreLink = Code(rawValue: 28)
        /// The first app-defined code; an app's own codes are 10000 and above.
        public static let partnerAppError = Code(rawValue: 10_000)

        /// An app-defined code: ``partnerAppError`` + `offset`.
        public static func partnerApp(_ offset: Int) -> Code { Code(rawValue: partnerAppError.rawValue + offset) }

        private static let names: [Int: String] = [
            0: "grabIdServiceFailed", 1: "discoveryServiceFailed", 2: "idTokenInfoServiceFailed", 3: "exchangeTokenServiceFailed",
            4: "authorizationInitializationFailure", 5: "securityValidationFailed", 6: "logoutFailed", 7: "invalidIdToken",
            8: "invalidNonce", 9: "invalidConfiguration", 10: "somethingWentWrong", 11: "network", 12: "invalidClientId",
            13: "invalidScope", 14: "invalidRedirectUrl", 15: "invalidAuthorizationCode", 16: "invalidUrl", 17: "invalidPartnerId",
            18: "unAuthorized", 19: "authorizationFailed", 20: "serviceUnavailable", 21: "serviceError", 22: "invalidAccessToken",
            23: "invalidResponse", 24: "invalidServiceDiscoveryUrl", 25: "invalidAppBundle", 26: "invalidCustomProtocolUrl",
            27: "failedTolaunchAppStoreLink", 28: "launchAppStoreLink"
        ]

        /// Whether this is an app-defined code (10000 and above).
        public var isPartnerAppError: Bool { rawValue >= Self.partnerAppError.rawValue }

        /// The vendor's case name (`partnerAppError+N` for app codes).
        public var description: String {
            if let name = Self.names[rawValue] { return name }
            return isPartnerAppError ? "partnerAppError+\(rawValue - Self.partnerAppError.rawValue)" : "code \(rawValue)"
        }
    }

    /// The domain.
    public let domain: Domain
    /// The code.
    public let code: Code
    /// A message safe to show (the vendor's `localizeMessage`).
    public let localizeMessage: String?
    /// The network or service error underneath, if any (the vendor's `serviceError`).
    public let serviceError: (any Error & Sendable)?
    /// The error in this package's terms, with its stable code, when this one came from the engine (`nil` for an
    /// error the app made with a ``Code/partnerAppError`` code).
    public let authError: AuthError?

    /// Creates an error in the vendor's argument order (an app reporting its own failures uses codes from
    /// ``Code/partnerAppError``).
    public init(code: Code, localizeMessage: String? = nil, domain: Domain, serviceError: (any Error & Sendable)? = nil) {
        self.code = code
        self.localizeMessage = localizeMessage
        self.domain = domain
        self.serviceError = serviceError
        self.authError = nil
    }

    /// `error` as the vendor reports it when it happens during `domain`'s operation.
    public init(_ error: AuthError, domain: Domain) {
        self.code = error.grabCode(in: domain)
        self.localizeMessage = error.message
        self.domain = domain
        self.serviceError = error.underlying
        self.authError = error
    }

    /// Itself: code written for `AuthError`'s view (`error.grabError`) reads a thrown `GrabError` the same way.
    public var grabError: GrabError { self }

    /// Creates an error value for comparisons.
    public init(domain: Domain, code: Code) {
        self.init(code: code, domain: domain)
    }

    /// Equal when domain and code are (the message and service error are explanations).
    public static func == (lhs: GrabError, rhs: GrabError) -> Bool {
        lhs.domain == rhs.domain && lhs.code == rhs.code
    }

    /// `domain.code (rawValue): message`.
    public var description: String {
        "GrabError(\(domain.name).\(code) [\(domain.rawValue).\(code.rawValue)])" + (localizeMessage.map { ": \($0)" } ?? "")
    }
}

extension AuthError {
    /// This error as GrabIdPartnerSDK reports it: the domain its code implies, the vendor's code. (``GrabIdPartner``
    /// throws a ``GrabError`` whose domain is the operation that failed.)
    public var grabError: GrabError {
        GrabError(self, domain: grabDomain)
    }

    /// The domain the code implies.
    private var grabDomain: GrabError.Domain {
        switch code {
        case .missingConfigurationKey, .invalidConfiguration: return .loadConfiguration
        case .discoveryFailed, .insecureEndpoint, .endpointUnavailable: return .serviceDiscovery
        case .grabAppStoreLaunched, .grabAppStoreLaunchFailed: return .appStore
        case .grabCustomProtocolInvalid: return .customProtocolsService
        case .notSignedIn: return .protectedResource
        case .stateMismatch, .missingState, .redirectMismatch, .missingAuthorizationCode,
            .issuerParameterMismatch, .missingIssuerParameter, .duplicateParameter, .userCancelled, .timedOut,
            .signInCancelled, .signInSuperseded, .appNotOpened:
            return .authorization
        default: return .exchangeToken
        }
    }

    /// The vendor's code for this error during `domain`'s operation.
    fileprivate func grabCode(in domain: GrabError.Domain) -> GrabError.Code {
        switch code {
        case .missingConfigurationKey, .invalidConfiguration:
            switch configurationKey {
            case "ClientId": return .invalidClientId
            case "RedirectUrl": return .invalidRedirectUrl
            case "Scope": return .invalidScope
            case "ServiceDiscoveryUrl": return .invalidServiceDiscoveryUrl
            default: return .invalidConfiguration
            }
        case .configurationFileNotFound: return .invalidAppBundle
        case .discoveryFailed, .insecureEndpoint, .endpointUnavailable, .discoveryIssuerMismatch: return .discoveryServiceFailed
        case .grabAppStoreLaunched: return .launchAppStoreLink
        case .grabAppStoreLaunchFailed: return .failedTolaunchAppStoreLink
        case .grabCustomProtocolInvalid: return .invalidCustomProtocolUrl
        case .stateMismatch, .missingState, .redirectMismatch, .missingAuthorizationCode, .issuerParameterMismatch,
            .missingIssuerParameter, .duplicateParameter:
            return .securityValidationFailed
        case .authorizationFailed:
            // The vendor's exchangeToken turns any `error` in the redirect (the user's denial included) into this. A
            // login that ended without a redirect (a custom web agent's own failure) did not complete: authorizationFailed.
            return oauthError == nil ? .authorizationFailed : .securityValidationFailed
        case .userCancelled, .timedOut, .signInCancelled, .signInSuperseded, .appNotOpened: return .authorizationFailed
        case .nonceMismatch: return .invalidNonce
        case .missingIDToken, .malformedIDToken, .providerValidationFailed, .unsupportedAlgorithm, .invalidSignature, .invalidIssuer, .invalidAudience,
            .tokenExpired, .invalidIssuedAt, .unknownKeyID, .missingKeyID, .missingClaim, .accessTokenHashMismatch,
            .invalidAuthorizedParty, .unsupportedCriticalHeader, .unsupportedKey:
            return .invalidIdToken
        // The vendor answers every non-2xx of the token endpoint with exchangeTokenServiceFailed (GrabApi.fetchToken),
        // whatever its `error`; the OAuth error stays readable in `authError`.
        case .invalidGrant, .tokenRequestFailed, .httpError:
            return domain == .getIdTokenInfo ? .idTokenInfoServiceFailed : .exchangeTokenServiceFailed
        case .invalidResponse, .unsupportedTokenType, .responseTooLarge, .unexpectedRedirect: return .invalidResponse
        // A request that got no answer, and a 5xx, in the codes the vendor's GrabApi gives each operation.
        case .network:
            switch domain {
            case .serviceDiscovery, .customProtocolsService: return .grabIdServiceFailed
            case .exchangeToken: return .serviceError
            case .getIdTokenInfo: return .idTokenInfoServiceFailed
            default: return .network
            }
        case .serverError:
            switch domain {
            case .serviceDiscovery, .customProtocolsService: return .discoveryServiceFailed
            case .exchangeToken: return .exchangeTokenServiceFailed
            case .getIdTokenInfo: return .idTokenInfoServiceFailed
            default: return .serviceUnavailable
            }
        case .notSignedIn, .storageFailed, .storageCorrupted, .storageUnavailable:
            if domain == .logout { return .logoutFailed }
            return code == .notSignedIn ? .invalidAccessToken : .somethingWentWrong
        default: return .somethingWentWrong
        }
    }
}
