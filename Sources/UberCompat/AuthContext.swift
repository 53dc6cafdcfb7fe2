public import AuthUber
import Foundation

/// User information to prefill on the login screen (sent through a pushed authorization request; in-app only).
public struct Prefill: Sendable, Equatable {
    /// The e-mail address.
    public var email: String?
    /// The phone number.
    public var phoneNumber: String?
    /// The first name.
    public var firstName: String?
    /// The last name.
    public var lastName: String?

    /// Creates a prefill.
    public init(email: String? = nil, phoneNumber: String? = nil, firstName: String? = nil, lastName: String? = nil) {
        self.email = email
        self.phoneNumber = phoneNumber
        self.firstName = firstName
        self.lastName = lastName
    }

    /// `login_hint`: standard base64 of the JSON `{email, phone, first_name, last_name}`, absent fields omitted.
    public var loginHint: String {
        var object: [String: String] = [:]
        object["email"] = email
        object["phone"] = phoneNumber
        object["first_name"] = firstName
        object["last_name"] = lastName
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding a dictionary of strings cannot fail.
        return (try! encoder.encode(object)).base64EncodedString()
    }
}

/// How the login is done and what it returns.
public struct AuthContext: Sendable {
    /// Where the login happens.
    public var authDestination: UberDestination
    /// Screens to force.
    public var prompt: Set<UberPrompt>
    /// Whether the code is exchanged here (PKCE and tokens) or returned for a backend.
    public var shouldExchangeAuthCode: Bool
    /// Prefill (in-app only).
    public var prefill: Prefill?
    /// With `shouldExchangeAuthCode == false`: whether the authorization uses PKCE, so the backend must send
    /// ``UberClient/codeVerifier`` with the code (the default, safer). `false` requests the code without PKCE, as the
    /// vendor SDK did, for a backend that cannot send `code_verifier` yet; the code is then bound only to `state` and
    /// the redirect. Ignored when the code is exchanged here (always PKCE).
    public var backendExchangeUsesPKCE = true
    /// Scopes asked for in addition to the configuration's (the vendor factory's `scopes:`; see
    /// ``AuthorizationCodeAuthProvider/scopes``).
    public var additionalScopes: [String] = []

    /// Creates a context. Defaults: the native apps in the vendor's order, falling back to in app (the vendor's
    /// `.native()`), and the code exchanged here — unlike the vendor SDK, whose default handed the bare code to the
    /// app: a plain `login()` then signs the user in with tokens kept in safe storage. Pass
    /// `shouldExchangeAuthCode: false` for a backend that redeems the code.
    public init(
        authDestination: UberDestination = .native,
        prompt: Set<UberPrompt> = [],
        shouldExchangeAuthCode: Bool = true,
        prefill: Prefill? = nil
    ) {
        self.authDestination = authDestination
        self.prompt = prompt
        self.shouldExchangeAuthCode = shouldExchangeAuthCode
        self.prefill = prefill
    }
}
