public import AuthCore

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

    /// Reads the claims of a user info response.
    ///
    /// - Throws: `missing_claim` when `email` is absent (the `email` scope was not granted).
    public init(_ claims: UserInfoClaims) throws {
        guard let email = claims["email"]?.stringValue else {
            throw AuthError(.missingClaim, "The user info has no 'email'; request the email scope.", providerID: GOVUKProvider.id)
        }
        self.init(
            sub: claims.subject,
            email: email,
            emailVerified: claims["email_verified"]?.boolValue ?? false,
            phoneNumber: claims["phone_number"]?.stringValue,
            phoneNumberVerified: claims["phone_number_verified"]?.boolValue ?? false
        )
    }
}

/// Fetches `UserInfo` with a session's access token (the vendor's `UserService.fetchUserInfo()`).
///
/// The access token is refreshed when needed, and the response's `sub` must equal the ID token's.
public struct UserService: Sendable {
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
