import AuthCore
import AuthGrab
public import Foundation

/// Claims from Grab's ID token verification endpoint (the vendor's `IdTokenInfo`).
public struct IdTokenInfo: Sendable, Hashable {
    /// `aud`.
    public let audience: String?
    /// `exp`.
    public let expiration: Date?
    /// `iat`.
    public let issueDate: Date?
    /// `iss`.
    public let issuer: String?
    /// `nbf`.
    public let notValidBefore: Date?
    /// `jti`.
    public let tokenId: String?
    /// `nonce`.
    public let nonce: String?
    /// `svc`: the service.
    public let service: String?
    /// `pid`: the partner id.
    public let partnerId: String?
    /// `sub`: the partner's user id.
    public let partnerUserId: String?

    /// The members Grab's endpoint answers with; each is required and non-empty, as the vendor SDK required them.
    static let members = ["aud", "exp", "iat", "iss", "nbf", "jti", "nonce", "svc", "pid", "sub"]

    /// The info from the endpoint's JSON object.
    ///
    /// - Throws: `invalid_response` naming the first member that is missing or empty.
    init(verified claims: [String: JSONValue]) throws {
        for member in Self.members {
            let value = claims[member]
            let present = value?.timestampValue != nil || !(value?.stringValue ?? value?.arrayValue?.first?.stringValue ?? "").isEmpty
            guard present else {
                throw AuthError(.invalidResponse, "Grab's ID token info has no '\(member)'.", providerID: GrabProvider.id, endpoint: "id_token_verification_endpoint")
            }
        }
        func date(_ key: String) -> Date? { claims[key]?.timestampValue }
        audience = claims["aud"]?.stringValue ?? claims["aud"]?.arrayValue?.first?.stringValue
        expiration = date("exp")
        issueDate = date("iat")
        issuer = claims["iss"]?.stringValue
        notValidBefore = date("nbf")
        tokenId = claims["jti"]?.stringValue
        nonce = claims["nonce"]?.stringValue
        service = claims["svc"]?.stringValue
        partnerId = claims["pid"]?.stringValue
        partnerUserId = claims["sub"]?.stringValue
    }

    /// Whether the info is usable at `now`: it has a nonce and a token id, and `nbf <= now < exp` (the vendor's
    /// `isValidIdToken`).
    func isValid(at now: Date) -> Bool {
        guard nonce != nil, tokenId != nil, let expiration, expiration > now else { return false }
        return notValidBefore.map { now >= $0 } ?? true
    }
}
