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

/// What fetches the signed-in user's info (the vendor's `UserServicing`): an app's code depends on this protocol, and
/// its tests give it a stand-in.
public protocol UserServicing: Sendable {
    /// The signed-in user's info.
    func fetchUserInfo() async throws -> UserInfo
}

/// Fetches `UserInfo` with a session's access token (the vendor's `UserService.fetchUserInfo()`).
///
/// The access token is refreshed when needed, and the response's `sub` must equal the ID token's.
public struct UserService: UserServicing {
    private let session: Session

    /// A service for `session`.
    public init(session: Session) {
        self.session = session
    }

    /// The signed-in user's info.
    public func fetchUserInfo() async throws -> UserInfo {
        try UserInfo(try await session.userInfo())
    }
}
