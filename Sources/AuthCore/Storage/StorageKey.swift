import Foundation

/// Identifies one account's credential: provider, issuer, client and subject.
///
/// Namespacing by all four means two providers, two environments of one provider, or two users of one
/// provider never overwrite each other.
public struct StorageKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The provider id.
    public var providerID: ProviderID
    /// The issuer.
    public var issuer: String
    /// The client id.
    public var clientID: String
    /// The user's subject (`sub`), or `default` for providers without ID tokens.
    public var account: String

    /// Creates a key.
    public init(providerID: ProviderID, issuer: String, clientID: String, account: String) {
        self.providerID = providerID
        self.issuer = issuer
        self.clientID = clientID
        self.account = account
    }

    /// A single string form, unambiguous because each part is percent-escaped.
    public var rawValue: String {
        [providerID.rawValue, issuer, clientID, account].map(FormEncoding.escape).joined(separator: "/")
    }

    /// The string form.
    public var description: String { rawValue }

    /// Whether this key belongs to the same provider, issuer and client as `other` (any account).
    package func sameClient(as other: StorageKey) -> Bool {
        providerID == other.providerID && issuer == other.issuer && clientID == other.clientID
    }
}
