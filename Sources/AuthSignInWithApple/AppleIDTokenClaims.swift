public import AuthCore
import Foundation

/// Typed access to the claims Apple puts in its ID tokens, over validated `IDTokenClaims` (AuthCore).
///
/// Apple sends its booleans as JSON booleans or as the strings `"true"`/`"false"` (both occur, and Apple's examples
/// show strings), so each is read in either form
/// (https://developer.apple.com/documentation/sign_in_with_apple/authenticating-users-with-sign-in-with-apple,
/// "Retrieve the user's information from Apple ID servers"):
///
/// - `email`: the user's address, or a private relay address (`…@privaterelay.appleid.com`) when they chose to hide
///   theirs; `email_verified`: always true for Apple's addresses; `is_private_email`: whether it is a relay address.
/// - `real_user_status`: ``RealUserStatus`` — Apple's judgement whether the user is likely a real person.
/// - `nonce_supported`: whether the platform supports nonces (it does everywhere this package runs; the engine requires
///   the nonce it sent whatever this says).
public struct AppleIDTokenClaims: Sendable, Hashable {
    /// Apple's real user indicator (`real_user_status`).
    public enum RealUserStatus: Int, Sendable, Hashable {
        /// 0: not supported on the user's platform, or no judgement.
        case unsupported = 0
        /// 1: Apple cannot tell.
        case unknown = 1
        /// 2: very likely a real person.
        case likelyReal = 2
    }

    /// The validated claims these are read from.
    public let claims: IDTokenClaims

    /// Wraps validated claims.
    public init(_ claims: IDTokenClaims) { self.claims = claims }

    /// `sub`: the stable, team-scoped user identifier (the same in every app and website of the team).
    public var subject: String { claims.subject }
    /// `email`, when the user shared one (only scopes including `email`).
    public var email: String? { claims["email"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
    /// `email_verified`, as a boolean whether Apple sent a boolean or a string.
    public var emailVerified: Bool? { Self.flag(claims["email_verified"]) }
    /// `is_private_email`: whether ``email`` is a private relay address.
    public var isPrivateEmail: Bool? { Self.flag(claims["is_private_email"]) }
    /// `real_user_status`, when present and one of Apple's three values.
    public var realUserStatus: RealUserStatus? {
        switch claims["real_user_status"] {
        case .number(let value)?: RealUserStatus(rawValue: Int(value))
        case .string(let text)?: Int(text).flatMap(RealUserStatus.init(rawValue:))
        default: nil
        }
    }
    /// `nonce_supported`, as a boolean.
    public var nonceSupported: Bool? { Self.flag(claims["nonce_supported"]) }

    /// A boolean claim sent as a boolean or as the string `true`/`false`.
    static func flag(_ value: JSONValue?) -> Bool? {
        switch value {
        case .bool(let flag)?: flag
        case .string(let text)?: text == "true" ? true : text == "false" ? false : nil
        default: nil
        }
    }
}
