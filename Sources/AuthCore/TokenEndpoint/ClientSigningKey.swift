import Crypto
package import Foundation
import _CryptoExtras

/// A confidential client's private key for `private_key_jwt` client authentication (RFC 7523 §2.2) and signed
/// request objects (RFC 9101).
///
/// Made from a PEM file or a private JWK; the key never appears in a description, a log line or an error (the
/// description names only the algorithm and the key id). RSA keys must be at least 2048 bits (swift-crypto refuses
/// smaller ones).
///
/// ```swift
/// let key = try ClientSigningKey(pem: String(contentsOfFile: "client.key"), algorithm: .rs256, keyID: "2024-01")
/// let registration = ClientRegistration(clientID: "svc", redirectURI: callback, authenticationMethod: .privateKeyJWT, signingKey: key)
/// ```
public final class ClientSigningKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The JWS algorithms a client assertion can be signed with.
    public enum Algorithm: String, Sendable, CaseIterable {
        /// RSASSA-PKCS1-v1_5 with SHA-256.
        case rs256 = "RS256"
        /// RSASSA-PKCS1-v1_5 with SHA-384.
        case rs384 = "RS384"
        /// RSASSA-PKCS1-v1_5 with SHA-512.
        case rs512 = "RS512"
        /// RSASSA-PSS with SHA-256.
        case ps256 = "PS256"
        /// RSASSA-PSS with SHA-384.
        case ps384 = "PS384"
        /// RSASSA-PSS with SHA-512.
        case ps512 = "PS512"
        /// ECDSA P-256 with SHA-256.
        case es256 = "ES256"
        /// EdDSA with Ed25519 (RFC 8037).
        case edDSA = "EdDSA"

        var isRSA: Bool { self != .es256 && self != .edDSA }
    }

    private enum Key: Sendable {
        case rsa(_RSA.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    /// The algorithm every signature uses.
    package let algorithm: Algorithm
    /// The `kid` header, when the provider needs it to find the public key.
    package let keyID: String?
    private let key: Key

    /// A key from PEM text (PKCS#8 or the traditional RSA / EC forms).
    ///
    /// - Throws: `invalid_configuration` when the PEM is not a private key of the kind `algorithm` needs.
    public init(pem: String, algorithm: Algorithm, keyID: String? = nil) throws {
        self.algorithm = algorithm
        self.keyID = keyID
        do {
            switch algorithm {
            case .es256: key = .p256(try P256.Signing.PrivateKey(pemRepresentation: pem))
            case .edDSA: key = .ed25519(try Curve25519.Signing.PrivateKey(pemRepresentation: pem))
            default: key = .rsa(try _RSA.Signing.PrivateKey(pemRepresentation: pem))
            }
        } catch {
            let kind = algorithm == .es256 ? " P-256" : algorithm == .edDSA ? "n Ed25519" : "n RSA (2048 bits or more)"
            throw AuthError(
                .invalidConfiguration,
                "The client's private key is not a\(kind) private key in PEM form, as \(algorithm.rawValue) needs."
            )
        }
    }

    /// A key from a private JWK (`kty` RSA with `n`, `e`, `d`, `p`, `q`; EC `P-256` with `d`; or OKP `Ed25519` with `d`).
    ///
    /// - Parameters:
    ///   - jwk: the private JWK's members.
    ///   - algorithm: the algorithm; by default the JWK's `alg`, else RS256 for RSA, ES256 for EC and EdDSA for OKP.
    /// - Throws: `invalid_configuration` naming what is missing.
    public init(jwk: [String: JSONValue], algorithm: Algorithm? = nil) throws {
        func bytes(_ name: String) throws -> Data {
            guard let text = jwk[name]?.stringValue, let data = Base64URL.decode(text) else {
                throw AuthError(.invalidConfiguration, "The client's private JWK has no valid '\(name)' member.")
            }
            return data
        }
        let declared = jwk["alg"]?.stringValue.flatMap(Algorithm.init(rawValue:))
        keyID = jwk["kid"]?.stringValue
        switch jwk["kty"]?.stringValue {
        case "RSA":
            let chosen = algorithm ?? declared ?? .rs256
            guard chosen.isRSA else { throw AuthError(.invalidConfiguration, "An RSA key cannot sign \(chosen.rawValue).") }
            self.algorithm = chosen
            do {
                key = .rsa(try _RSA.Signing.PrivateKey(n: try bytes("n"), e: try bytes("e"), d: try bytes("d"), p: try bytes("p"), q: try bytes("q")))
            } catch let error as AuthError {
                throw error
            } catch {
                throw AuthError(.invalidConfiguration, "The client's private RSA JWK is not a valid key of 2048 bits or more.")
            }
        case "EC":
            guard jwk["crv"]?.stringValue == "P-256" else {
                throw AuthError(.invalidConfiguration, "Only P-256 EC keys are supported for client authentication.")
            }
            let chosen = algorithm ?? declared ?? .es256
            guard chosen == .es256 else { throw AuthError(.invalidConfiguration, "A P-256 key cannot sign \(chosen.rawValue).") }
            self.algorithm = chosen
            do {
                key = .p256(try P256.Signing.PrivateKey(rawRepresentation: try bytes("d")))
            } catch let error as AuthError {
                throw error
            } catch {
                throw AuthError(.invalidConfiguration, "The client's private EC JWK has an invalid 'd'.")
            }
        case "OKP":
            guard jwk["crv"]?.stringValue == "Ed25519" else {
                throw AuthError(.invalidConfiguration, "Only Ed25519 OKP keys are supported for client authentication.")
            }
            let chosen = algorithm ?? declared ?? .edDSA
            guard chosen == .edDSA else { throw AuthError(.invalidConfiguration, "An Ed25519 key cannot sign \(chosen.rawValue).") }
            self.algorithm = chosen
            guard let privateKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: try bytes("d")) else {
                throw AuthError(.invalidConfiguration, "The client's private Ed25519 JWK has an invalid 'd'.")
            }
            key = .ed25519(privateKey)
        default:
            throw AuthError(.invalidConfiguration, "The client's private JWK must have kty RSA, EC or OKP.")
        }
    }

    /// The JWS signature over `signingInput` (for ES256 the raw `r‖s` form JWS uses; for EdDSA the 64-byte Ed25519
    /// signature of the input itself).
    package func sign(_ signingInput: Data) throws -> Data {
        do {
            switch (key, algorithm) {
            case (.ed25519(let key), _):
                return try key.signature(for: signingInput)
            case (.p256(let key), _):
                return try key.signature(for: SHA256.hash(data: signingInput)).rawRepresentation
            case (.rsa(let key), .rs256): return try key.signature(for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5).rawRepresentation
            case (.rsa(let key), .rs384): return try key.signature(for: SHA384.hash(data: signingInput), padding: .insecurePKCS1v1_5).rawRepresentation
            case (.rsa(let key), .rs512): return try key.signature(for: SHA512.hash(data: signingInput), padding: .insecurePKCS1v1_5).rawRepresentation
            case (.rsa(let key), .ps256): return try key.signature(for: SHA256.hash(data: signingInput), padding: .PSS).rawRepresentation
            case (.rsa(let key), .ps384): return try key.signature(for: SHA384.hash(data: signingInput), padding: .PSS).rawRepresentation
            case (.rsa(let key), _): return try key.signature(for: SHA512.hash(data: signingInput), padding: .PSS).rawRepresentation
            }
        } catch {
            throw AuthError(.invalidConfiguration, "The client's private key could not sign (\(algorithm.rawValue)).")
        }
    }

    /// A compact JWS of `claims` signed with this key: header `alg`, `typ` and, when set, `kid`.
    package func signedJWT(type: String, claims: [String: JSONValue]) throws -> String {
        var header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "typ": .string(type)]
        if let keyID { header["kid"] = .string(keyID) }
        let signingInput = Base64URL.encode(try JSONValue.object(header).jsonData()) + "." + Base64URL.encode(try JSONValue.object(claims).jsonData())
        return signingInput + "." + Base64URL.encode(try sign(Data(signingInput.utf8)))
    }

    /// The public half as a JWK (to register with the provider, or for a test provider to verify with).
    package func publicJWK() throws -> [String: JSONValue] {
        var jwk: [String: JSONValue]
        switch key {
        case .rsa(let key):
            let parameters = try key.publicKey.getKeyPrimitives()
            jwk = ["kty": "RSA", "n": .string(Base64URL.encode(parameters.modulus)), "e": .string(Base64URL.encode(parameters.publicExponent))]
        case .p256(let key):
            let raw = key.publicKey.rawRepresentation
            jwk = ["kty": "EC", "crv": "P-256", "x": .string(Base64URL.encode(raw.prefix(32))), "y": .string(Base64URL.encode(raw.suffix(32)))]
        case .ed25519(let key):
            jwk = ["kty": "OKP", "crv": "Ed25519", "x": .string(Base64URL.encode(key.publicKey.rawRepresentation))]
        }
        jwk["alg"] = .string(algorithm.rawValue)
        jwk["use"] = "sig"
        if let keyID { jwk["kid"] = .string(keyID) }
        return jwk
    }

    /// `ClientSigningKey(RS256, kid: …)`: never the key.
    public var description: String { "ClientSigningKey(\(algorithm.rawValue)\(keyID.map { ", kid: \($0)" } ?? ""))" }
    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Keys compare by identity: two loads of one file are different values, which is harmless for a registration.
    public static func == (lhs: ClientSigningKey, rhs: ClientSigningKey) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
