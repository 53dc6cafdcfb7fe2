import AuthCore
import Foundation

/// The `user` parameter Apple posts with the authorization response on a user's **first** sign-in to the app only:
/// `{"name":{"firstName":"…","lastName":"…"},"email":"…"}`
/// (https://developer.apple.com/documentation/sign_in_with_apple/request_an_authorization_to_the_sign_in_with_apple_server,
/// "Handle the response").
///
/// It is **not signed**: anyone who can post to the redirect URI can write anything in it. It is display data only —
/// the name to greet the user with. It never decides who signed in: the subject and the email address come from the
/// validated ID token, and an `email` here that differs from the token's is ignored.
public struct AppleAuthorizedUser: Sendable, Hashable {
    /// `name.firstName`.
    public let firstName: String?
    /// `name.lastName`.
    public let lastName: String?
    /// `email` as posted (never trusted: see the type's discussion).
    public let email: String?

    /// The longest name part kept: the JSON is attacker-writable, and a profile is stored and shown.
    static let maximumLength = 256

    /// Parses the posted JSON; `nil` when it is not a JSON object (a malformed or hostile value is dropped, never an
    /// error: the sign-in does not depend on it).
    public init?(json text: String) {
        guard text.utf8.count <= 16 * 1024, let object = try? JSONValue.parseObject(Data(text.utf8)) else { return nil }
        let name = object["name"]?.objectValue
        firstName = Self.cleaned(name?["firstName"]?.stringValue)
        lastName = Self.cleaned(name?["lastName"]?.stringValue)
        email = Self.cleaned(object["email"]?.stringValue)
    }

    /// `firstName lastName`, or whichever is present.
    public var fullName: String? {
        let parts = [firstName, lastName].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// `text` without control characters and surrounding whitespace, cut to ``maximumLength`` characters; `nil` when
    /// nothing is left.
    static func cleaned(_ text: String?) -> String? {
        guard let text else { return nil }
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint && !CharacterSet.controlCharacters.contains($0) }))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return visible.isEmpty ? nil : String(visible.prefix(maximumLength))
    }
}
