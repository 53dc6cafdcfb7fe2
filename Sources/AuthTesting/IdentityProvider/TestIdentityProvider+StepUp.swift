import AuthCore
import Foundation

// Step-up authentication (RFC 9470): the authentication classes and times the provider asserts, and protected
// resources that answer the `insufficient_user_authentication` challenge when a token's authentication falls short.
extension TestIdentityProvider {
    /// The provider's authentication classes (`acr`) and step-up resources (RFC 9470). With these settings every ID
    /// token carries `acr` and an `auth_time` that is the user's last authentication — kept across refreshes, as
    /// OpenID Connect Core §2 defines it — and the provider honours `acr_values`, `max_age` and `prompt=login`.
    public struct StepUpSettings: Sendable {
        /// A protected resource that requires more of the token's authentication than a valid token.
        public struct Resource: Sendable {
            /// Its path (relative to the issuer).
            public var path: String
            /// The `acr` values it accepts, in order of preference (empty: any).
            public var acrValues: [String]
            /// How old, at most, the authentication may be, in seconds (`nil`: any age).
            public var maxAge: Int?

            /// Creates a resource.
            public init(path: String, acrValues: [String] = [], maxAge: Int? = nil) {
                self.path = path
                self.acrValues = acrValues
                self.maxAge = maxAge
            }
        }

        /// The classes the provider authenticates at, weakest first: the first is a password login's, the class a
        /// login without `acr_values` gets.
        public var authenticationClasses: [String]
        /// The protected resources that answer the challenge.
        public var resources: [Resource]

        /// `urn:example:loa:1` (a password), `urn:example:loa:2` (a password and a second factor); the resources
        /// `/api/high-assurance` (`loa:2`) and `/api/recent-authentication` (an authentication at most 300 s old).
        public init(
            authenticationClasses: [String] = [Self.passwordClass, Self.multiFactorClass],
            resources: [Resource] = [
                Resource(path: "/api/high-assurance", acrValues: [Self.multiFactorClass]),
                Resource(path: "/api/recent-authentication", maxAge: 300)
            ]
        ) {
            self.authenticationClasses = authenticationClasses
            self.resources = resources
        }

        /// `urn:example:loa:1`.
        public static let passwordClass = "urn:example:loa:1"
        /// `urn:example:loa:2`.
        public static let multiFactorClass = "urn:example:loa:2"
    }

    /// The user's last authentication at the provider (its single sign-on session).
    struct Authentication {
        let time: Date
        let classReference: String
    }

    /// The `acr` and `auth_time` claims for an authorization request `query`: the user authenticates again when
    /// `interactive` (a person just logged in on the page), when there is no session yet, when `prompt=login`, when the
    /// session is older than `max_age`, or when its class is not one of `acr_values` (the first the provider supports
    /// is then used; none supported: the weakest, as `acr_values` is voluntary, OpenID Connect Core §3.1.2.1).
    func authenticationClaims(for query: [String: String], interactive: Bool) -> [String: JSONValue] {
        guard let settings = configuration.stepUp else { return [:] }
        let now = clock.now()
        let requested = (query["acr_values"] ?? "").split(separator: " ").map(String.init)
        let current = authentications[user.subject]
        var fresh = interactive || current == nil || (query["prompt"] ?? "").split(separator: " ").contains("login")
        if let current, let maxAge = query["max_age"].flatMap(Int.init), now.timeIntervalSince(current.time) > TimeInterval(maxAge) { fresh = true }
        if let current, !requested.isEmpty, !requested.contains(current.classReference) { fresh = true }
        let authentication: Authentication
        if fresh || current == nil {
            let chosen = requested.first(where: settings.authenticationClasses.contains) ?? settings.authenticationClasses.first ?? StepUpSettings.passwordClass
            authentication = Authentication(time: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)), classReference: chosen)
            authentications[user.subject] = authentication
        } else {
            authentication = current!
        }
        return ["acr": .string(authentication.classReference), "auth_time": .number(authentication.time.timeIntervalSince1970)]
    }

    /// A step-up resource (RFC 9470 §3): `401` with `insufficient_user_authentication` and the resource's
    /// `acr_values` and `max_age` when the token's `acr` is not one it accepts or its `auth_time` is older than its
    /// `max_age` (or the token says neither); `200` otherwise. A missing or invalid token is `invalid_token`, as at
    /// ``Paths/resource``.
    func stepUpResource(_ resource: StepUpSettings.Resource, _ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        let record: AccessRecord
        switch presentedAccessToken(request, url: url) {
        case .success(let presented): record = presented
        case .failure(let refusal): return refusal.response
        }
        let claims = familyClaims[record.family] ?? [:]
        let scheme = record.dpopKeyThumbprint == nil ? "Bearer" : "DPoP"
        if let challenge = behavior.stepUpChallenge {
            return json(["error": "insufficient_user_authentication"], status: 401, url: url, headers: ["WWW-Authenticate": challenge])
        }
        let acrMet = resource.acrValues.isEmpty || claims["acr"]?.stringValue.map(resource.acrValues.contains) == true
        let ageMet =
            resource.maxAge.map { maxAge in
                claims["auth_time"]?.numberValue.map { clock.now().timeIntervalSince1970 - $0 <= TimeInterval(maxAge) } ?? false
            } ?? true
        guard acrMet, ageMet else {
            var parameters = [
                "error=\"insufficient_user_authentication\"",
                "error_description=\"" + (acrMet ? "A more recent authentication is required" : "A different authentication level is required") + "\""
            ]
            if !resource.acrValues.isEmpty { parameters.append("acr_values=\"\(resource.acrValues.joined(separator: " "))\"") }
            if let maxAge = resource.maxAge { parameters.append("max_age=\(maxAge)") }
            stepUpChallenges += 1
            return json(
                ["error": "insufficient_user_authentication"], status: 401, url: url,
                headers: ["WWW-Authenticate": scheme + " " + parameters.joined(separator: ", ")]
            )
        }
        var body: [String: JSONValue] = ["ok": true, "sub": .string(record.subject)]
        body["acr"] = claims["acr"]
        body["auth_time"] = claims["auth_time"]
        return json(body, url: url)
    }
}
