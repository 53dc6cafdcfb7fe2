import Crypto
package import Foundation

/// The key pair a DPoP session proves possession of (RFC 9449): P-256 (ES256) or, for a provider that accepts only
/// EdDSA proofs, Ed25519 — made fresh for every sign-in, kept in the
/// ``Credential`` next to the tokens it is bound to, and never shown (it prints as its thumbprint only).
///
/// A DPoP-bound access or refresh token is useless without this key, so a token that leaks from a log, a proxy or
/// a server's database cannot be replayed by whoever took it.
package struct DPoPKey: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    private enum PrivateKey: Sendable {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    private let privateKey: PrivateKey
    /// The key's JWK SHA-256 thumbprint (RFC 7638), base64url: what the server binds tokens to (`cnf.jkt`) and what
    /// an authorization request names as `dpop_jkt`.
    package let thumbprint: String
    /// The public key as the JWK every proof carries in its header.
    private let publicJWK: JSONValue

    /// A new random key pair: P-256 (ES256), or Ed25519 when `edDSA`.
    package static func generate(edDSA: Bool = false) -> DPoPKey {
        edDSA ? DPoPKey(ed25519: Curve25519.Signing.PrivateKey()) : DPoPKey(P256.Signing.PrivateKey())
    }

    /// The JWS algorithm of its proofs: `ES256` or `EdDSA`.
    package var algorithm: String {
        if case .ed25519 = privateKey { return "EdDSA" }
        return "ES256"
    }

    /// Restores a key from its private scalar (32 bytes, as stored).
    ///
    /// - Throws: `storage_corrupted` for bytes that are not a P-256 private key.
    package init(rawRepresentation: Data) throws {
        do {
            self.init(try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation))
        } catch {
            throw AuthError(.storageCorrupted, "The stored DPoP key is not a P-256 private key; sign in again to replace it.")
        }
    }

    private init(ed25519 privateKey: Curve25519.Signing.PrivateKey) {
        self.privateKey = .ed25519(privateKey)
        let x = Base64URL.encode(privateKey.publicKey.rawRepresentation)
        self.publicJWK = ["kty": "OKP", "crv": "Ed25519", "x": .string(x)]
        self.thumbprint = Self.thumbprint(ed25519: x)
    }

    private init(_ privateKey: P256.Signing.PrivateKey) {
        self.privateKey = .p256(privateKey)
        let raw = privateKey.publicKey.rawRepresentation
        let x = Base64URL.encode(raw.prefix(32))
        let y = Base64URL.encode(raw.suffix(32))
        self.publicJWK = ["kty": "EC", "crv": "P-256", "x": .string(x), "y": .string(y)]
        self.thumbprint = Self.thumbprint(x: x, y: y)
    }

    /// RFC 7638: SHA-256 over the required members in lexicographic order, no whitespace.
    package static func thumbprint(x: String, y: String) -> String {
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(Data(SHA256.hash(data: Data(canonical.utf8))))
    }

    /// RFC 7638 with RFC 8037 §2's members for an Ed25519 key: `crv`, `kty`, `x`.
    package static func thumbprint(ed25519 x: String) -> String {
        let canonical = #"{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}"#
        return Base64URL.encode(Data(SHA256.hash(data: Data(canonical.utf8))))
    }

    /// The private scalar (P-256) or seed (Ed25519), for storage only.
    package var rawRepresentation: Data {
        switch privateKey {
        case .p256(let key): key.rawRepresentation
        case .ed25519(let key): key.rawRepresentation
        }
    }

    /// The prefix of a stored Ed25519 key's text: base64url never contains `:`, so a P-256 key stored before Ed25519
    /// keys existed (the bare base64url scalar) still decodes as it always did.
    private static let ed25519StoragePrefix = "Ed25519:"

    /// A DPoP proof (RFC 9449 §4.2) for one request: header `typ: dpop+jwt`, `alg` (ES256 or EdDSA) and the public `jwk`;
    /// claims a fresh `jti`, `htm`, `htu` (the URL without query and fragment), `iat`, and — when given — `ath`
    /// (the access token's SHA-256, for a request that presents it) and the server's `nonce`.
    ///
    /// - Throws: `invalid_configuration` when `url` has no scheme or host.
    package func proof(method: String, url: URL, accessToken: Secret? = nil, nonce: String? = nil, now: Date) throws -> String {
        guard let target = Self.targetURI(url) else {
            throw AuthError(.invalidConfiguration, "A DPoP proof needs an absolute http(s) URL.")
        }
        var claims: [String: JSONValue] = [
            "jti": .string(SecureRandom.token(byteCount: 16)),
            "htm": .string(method),
            "htu": .string(target),
            "iat": .number(now.timeIntervalSince1970.rounded(.down))
        ]
        if let accessToken { claims["ath"] = .string(Self.accessTokenHash(accessToken)) }
        if let nonce { claims["nonce"] = .string(nonce) }
        let header: JSONValue = ["typ": "dpop+jwt", "alg": .string(algorithm), "jwk": publicJWK]
        let signingInput = Base64URL.encode(try header.jsonData()) + "." + Base64URL.encode(try JSONValue.object(claims).jsonData())
        let signature: Data
        switch privateKey {
        case .p256(let key): signature = try key.signature(for: SHA256.hash(data: Data(signingInput.utf8))).rawRepresentation
        case .ed25519(let key): signature = try key.signature(for: Data(signingInput.utf8))
        }
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// `ath`: base64url(SHA-256(ASCII access token)).
    package static func accessTokenHash(_ accessToken: Secret) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.reveal().utf8))))
    }

    /// The `htu` of a request to `url`: scheme, host, port and path — no query, no fragment (RFC 9449 §4.2).
    package static func targetURI(_ url: URL) -> String? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http", components.host?.isEmpty == false
        else { return nil }
        components.scheme = scheme
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string
    }

    /// Keys compare by their public key.
    package static func == (lhs: DPoPKey, rhs: DPoPKey) -> Bool { lhs.thumbprint == rhs.thumbprint }
    /// Hashes the thumbprint.
    package func hash(into hasher: inout Hasher) { hasher.combine(thumbprint) }

    /// Decodes the stored private scalar (base64url text).
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        if text.hasPrefix(Self.ed25519StoragePrefix) {
            guard let raw = Base64URL.decode(String(text.dropFirst(Self.ed25519StoragePrefix.count))),
                let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
            else {
                throw AuthError(.storageCorrupted, "The stored DPoP key is not an Ed25519 private key; sign in again to replace it.")
            }
            self.init(ed25519: key)
            return
        }
        guard let raw = Base64URL.decode(text) else {
            throw AuthError(.storageCorrupted, "The stored DPoP key is not base64url; sign in again to replace it.")
        }
        try self.init(rawRepresentation: raw)
    }

    /// Encodes the private scalar as base64url text — an Ed25519 seed after `Ed25519:` — (storage needs it; never encode a
    /// key into a log).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch privateKey {
        case .p256: try container.encode(Base64URL.encode(rawRepresentation))
        case .ed25519: try container.encode(Self.ed25519StoragePrefix + Base64URL.encode(rawRepresentation))
        }
    }

    /// `DPoPKey(jkt: …)`: the thumbprint, never the key.
    package var description: String { "DPoPKey(jkt: \(thumbprint))" }
    /// The same as ``description``.
    package var debugDescription: String { description }
}
