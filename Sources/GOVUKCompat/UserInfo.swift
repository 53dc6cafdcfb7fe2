public import AuthCore
import AuthGOVUK

/// GOV.UK One Login's user info (snake_case on the wire), as the vendor's `UserDetails` module models it.
public struct UserInfo: Sendable, Hashable, Codable {
    /// The user's subject.
    public let sub: String
    /// The e-mail address.
    public let email: String
    /// Whether the e-mail address is verified.
    public let emailVerified: Bool
    /// The phone number, when the `phone` scope was granted.
    public let phoneNumber: String?
    /// Whether the phone number is verified.
    public let phoneNumberVerified: Bool

    /// Creates user info.
    public init(sub: String, email: String, emailVerified: Bool, phoneNumber: String?, phoneNumberVerified: Bool) {
        self.sub = sub
        self.email = email
        self.emailVerified = emailVerified
        self.phoneNumber = phoneNumber
        self.phoneNumberVerified = phoneNumberVerified
    }

    enum CodingKeys: String, CodingKey {
        case sub, email
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case phoneNumberVerified = "phone_number_verified"
    }

    /// Reads the claims of a user info response with the vendor's rules: `email`, `email_verified` and
    /// `phone_number_verified` are required (the vendor's `Codable` type fails without them), `phone_number` is not.
    ///
    /// - Throws: `missing_claim` naming the absent claim and the scope that brings it.
    public init(_ claims: UserInfoClaims) throws {
        func required<T>(_ name: String, _ value: T?, scope: String) throws -> T {
            guard let value else {
                throw AuthError(.missingClaim, "The user info has no '\(name)'; request the \(scope) scope.", providerID: GOVUKProvider.id)
            }
            return value
        }
        self.init(
            sub: claims.subject,
            email: try required("email", claims["email"]?.stringValue, scope: "email"),
            emailVerified: try required("email_verified", claims["email_verified"]?.boolValue, scope: "email"),
            phoneNumber: claims["phone_number"]?.stringValue,
            phoneNumberVerified: try required("phone_number_verified", claims["phone_number_verified"]?.boolValue, scope: "phone")
        )
    }
}

extension UserInfo {
    /// Reads the user from a verified ID token of GOV.UK's secure token service, as GOV.UK's own app does
    /// (`IdTokenPayload.swift`: `email` is required; its ID tokens also carry `email_verified`). The token service
    /// publishes no user-info endpoint and no phone claims: `phoneNumber` is `nil` and `phoneNumberVerified` is
    /// `false` unless the token says otherwise.
    ///
    /// - Throws: `missing_claim` naming `email` or `email_verified` when the ID token lacks it.
    public init(idTokenClaims claims: IDTokenClaims) throws {
        func required<T>(_ name: String, _ value: T?) throws -> T {
            guard let value else {
                throw AuthError(
                    .missingClaim, "The ID token of GOV.UK's token service has no '\(name)' (the service has no user-info endpoint to ask instead).",
                    providerID: GOVUKProvider.id)
            }
            return value
        }
        self.init(
            sub: claims.subject,
            email: try required("email", claims["email"]?.stringValue),
            emailVerified: try required("email_verified", claims["email_verified"]?.boolValue),
            phoneNumber: claims["phone_number"]?.stringValue,
            phoneNumberVerified: claims["phone_number_verified"]?.boolValue ?? false
        )
    }
}

/// What fetches the signed-in user's info (the vendor's `UserServicing`): an app's code depends on this protocol, and
/// its tests give it a stand-in.
public protocol UserServicing: Sendable {
    /// The signed-in user's info.
    func fetchUserInfo() async throws -> UserInfo
}

/// Fetches `UserInfo` with a session's access token (the vendor's `UserService.fetchUserInfo()`).
///
/// The access token is refreshed when needed, and the response's `sub` must equal the ID token's. At GOV.UK's secure
/// token service, which has no user-info endpoint (`GOVUKAppConfiguration.effectiveUserInfoEndpoint` is `nil`), the
/// user comes from the session's verified ID token instead, as GOV.UK's own app reads it (see
/// ``UserInfo/init(idTokenClaims:)``); no request is made.
public struct UserService: UserServicing {
    private let session: Session

    /// A service for `session`.
    public init(session: Session) {
        self.session = session
    }

    /// The signed-in user's info.
    ///
    /// - Throws: `missing_id_token` or `missing_claim` at the token service when the ID token is absent or lacks
    ///   `email`/`email_verified`; otherwise the errors of `Session.userInfo()`, and `missing_claim` as
    ///   ``UserInfo/init(_:)``.
    public func fetchUserInfo() async throws -> UserInfo {
        if let provider = session.client.provider as? GOVUKProvider, provider.configuration.effectiveUserInfoEndpoint == nil {
            guard let claims = await session.idTokenClaims else {
                throw AuthError(
                    .missingIDToken, "The session holds no ID token to read the user from; GOV.UK's token service has no user-info endpoint.",
                    providerID: GOVUKProvider.id)
            }
            return try UserInfo(idTokenClaims: claims)
        }
        return try UserInfo(try await session.userInfo())
    }
}
