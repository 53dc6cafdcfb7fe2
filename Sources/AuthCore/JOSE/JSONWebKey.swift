import Crypto
package import Foundation
import _CryptoExtras

/// A public key from a provider's JWKS (RFC 7517), converted to a swift-crypto verification key.
package struct JSONWebKey: Sendable {
    /// The key type: `RSA`, `EC` or `OKP` (Ed25519, RFC 8037).
    package let keyType: String
    /// The key id.
    package let keyID: String?
    /// The intended use (`sig`), if stated.
    package let use: String?
    /// The algorithm the key is restricted to, if stated.
    package let algorithm: String?
    /// The curve of an EC or OKP key.
    package let curve: String?
    let key: VerificationKey

    enum VerificationKey: Sendable {
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
    }

    /// Builds a key from its JWK members.
    ///
    /// - Throws: `unsupported_key` for unknown types or curves, bad encodings, or RSA keys under 2048 bits.
    package init(_ members: [String: JSONValue]) throws {
        guard let keyType = members["kty"]?.stringValue else {
            throw AuthError(.unsupportedKey, "A JWK has no 'kty'.")
        }
        func bytes(_ name: String) throws -> Data {
            guard let text = members[name]?.stringValue, let data = Base64URL.decode(text), !data.isEmpty else {
                throw AuthError(.unsupportedKey, "A \(keyType) JWK has no valid '\(name)'.")
            }
            return data
        }
        self.keyType = keyType
        self.keyID = members["kid"]?.stringValue
        self.use = members["use"]?.stringValue
        self.algorithm = members["alg"]?.stringValue
        self.curve = members["crv"]?.stringValue
        switch keyType {
        case "RSA":
            do {
                key = .rsa(try _RSA.Signing.PublicKey(n: try bytes("n"), e: try bytes("e")))
            } catch let error as AuthError {
                throw error
            } catch {
                throw AuthError(.unsupportedKey, "An RSA JWK is invalid or shorter than 2048 bits.", underlying: error)
            }
        case "EC":
            let size: Int
            switch curve {
            case "P-256": size = 32
            case "P-384": size = 48
            default: throw AuthError(.unsupportedKey, "EC curve '\(curve ?? "none")' is not supported.")
            }
            guard let x = Self.coordinate(try bytes("x"), size: size), let y = Self.coordinate(try bytes("y"), size: size) else {
                throw AuthError(.unsupportedKey, "An EC JWK's 'x' or 'y' is longer than a \(curve ?? "") coordinate.")
            }
            do {
                key = size == 32 ? .p256(try P256.Signing.PublicKey(rawRepresentation: x + y)) : .p384(try P384.Signing.PublicKey(rawRepresentation: x + y))
            } catch {
                throw AuthError(.unsupportedKey, "An EC JWK is not a point on its curve.", underlying: error)
            }
        case "OKP":
            // RFC 8037 §2: `crv` names the curve, `x` the 32-byte public key; only Ed25519 signs.
            guard curve == "Ed25519" else {
                throw AuthError(.unsupportedKey, "OKP curve '\(curve ?? "none")' is not supported (only Ed25519).")
            }
            let x = try bytes("x")
            guard x.count == 32, let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else {
                throw AuthError(.unsupportedKey, "An Ed25519 JWK's 'x' is not a 32-byte public key.")
            }
            key = .ed25519(publicKey)
        default:
            throw AuthError(.unsupportedKey, "JWK key type '\(keyType)' is not supported.")
        }
    }

    /// An EC coordinate as the curve's `size` bytes: RFC 7518 §6.2.1.2 wants the full size, but some servers drop the
    /// leading zero bytes (Glewlwyd 2.7.5's JWKS does, for one key in 128); the integer is the same, so it is padded
    /// back. A longer value is no coordinate of the curve: `nil`.
    package static func coordinate(_ bytes: Data, size: Int) -> Data? {
        guard bytes.count <= size else { return nil }
        return bytes.count == size ? bytes : Data(repeating: 0, count: size - bytes.count) + bytes
    }

    /// Whether this key may verify a signature made with `algorithm`.
    package func canVerify(_ algorithm: JWSAlgorithm) -> Bool {
        guard use == nil || use == "sig" else { return false }
        guard self.algorithm == nil || self.algorithm == algorithm.rawValue else { return false }
        switch (key, algorithm.curve) {
        case (.rsa, nil): return algorithm.keyType == "RSA"
        case (.p256, "P-256"), (.p384, "P-384"), (.ed25519, "Ed25519"): return true
        default: return false
        }
    }

    /// Whether `signature` is a valid `algorithm` signature of `signingInput` by this key.
    package func isValidSignature(_ signature: Data, for signingInput: Data, algorithm: JWSAlgorithm) -> Bool {
        isValidSignature(signature, forBytes: signingInput, algorithm: algorithm)
    }

    /// Whether `signature` is a valid `algorithm` signature of the bytes `signingInput` (hashed where they lie).
    func isValidSignature(_ signature: some DataProtocol, forBytes signingInput: some DataProtocol, algorithm: JWSAlgorithm) -> Bool {
        guard canVerify(algorithm) else { return false }
        switch key {
        case .rsa(let publicKey):
            let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            // PKCS#1 v1.5 is exactly what RS256 specifies; swift-crypto's name only warns against new designs.
            let padding: _RSA.Signing.Padding = algorithm.rawValue.hasPrefix("PS") ? .PSS : .insecurePKCS1v1_5
            switch algorithm {
            case .rs384, .ps384:
                return publicKey.isValidSignature(rsaSignature, for: SHA384.hash(data: signingInput), padding: padding)
            case .rs512, .ps512:
                return publicKey.isValidSignature(rsaSignature, for: SHA512.hash(data: signingInput), padding: padding)
            default:
                return publicKey.isValidSignature(rsaSignature, for: SHA256.hash(data: signingInput), padding: padding)
            }
        case .p256(let publicKey):
            guard signature.count == 64, Self.hasNonZeroHalves(signature),
                let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
            else { return false }
            return publicKey.isValidSignature(ecdsa, for: SHA256.hash(data: signingInput))
        case .p384(let publicKey):
            guard signature.count == 96, Self.hasNonZeroHalves(signature),
                let ecdsa = try? P384.Signing.ECDSASignature(rawRepresentation: signature)
            else { return false }
            return publicKey.isValidSignature(ecdsa, for: SHA384.hash(data: signingInput))
        case .ed25519(let publicKey):
            // RFC 8032 §5.1.7 over the signing input itself (no prehash); a signature is exactly 64 bytes.
            guard signature.count == 64 else { return false }
            return publicKey.isValidSignature(signature, for: signingInput)
        }
    }

    /// ECDSA signatures with r = 0 or s = 0 are invalid by definition (the "psychic signatures" class of bug);
    /// refuse them before they reach the verifier.
    private static func hasNonZeroHalves(_ signature: some Collection<UInt8>) -> Bool {
        let half = signature.count / 2
        return signature.prefix(half).contains { $0 != 0 } && signature.suffix(half).contains { $0 != 0 }
    }
}

/// A JWK Set (RFC 7517 §5): the provider's published signing keys.
package struct JSONWebKeySet: Sendable {
    /// The usable keys; members of unsupported types are skipped, not fatal.
    package let keys: [JSONWebKey]

    /// Creates a set from keys.
    package init(keys: [JSONWebKey]) { self.keys = keys }

    /// Parses a JWKS document.
    ///
    /// - Throws: `invalid_response` when the body is not a JSON object with a `keys` array.
    package init(data: Data) throws {
        guard let object = try? JSONValue.parseObject(data), let keys = object["keys"]?.arrayValue else {
            throw AuthError(.invalidResponse, "The JWKS document is not a JSON object with a 'keys' array.")
        }
        self.keys = keys.compactMap { $0.objectValue.flatMap { try? JSONWebKey($0) } }
    }

    /// The key to verify a JWS with `keyID` and `algorithm`.
    ///
    /// With a `kid`, the key with that id; without one, the only key that fits the algorithm
    /// (OpenID Connect Core §10.1: several keys require a `kid`).
    ///
    /// - Throws: `missing_key_id` when there is no `kid` and several keys fit; `unknown_key_id` when none fits.
    package func key(id keyID: String?, for algorithm: JWSAlgorithm) throws -> JSONWebKey {
        if let keyID {
            if let key = keys.first(where: { $0.keyID == keyID && $0.canVerify(algorithm) }) { return key }
            throw AuthError(.unknownKeyID, "No \(algorithm) key with kid '\(keyID)' is in the provider's JWKS.")
        }
        let candidates = keys.filter { $0.canVerify(algorithm) }
        switch candidates.count {
        case 1: return candidates[0]
        case 0: throw AuthError(.unknownKeyID, "The provider's JWKS has no key for \(algorithm).")
        default:
            throw AuthError(
                .missingKeyID,
                "The token has no 'kid' and the provider's JWKS holds \(candidates.count) \(algorithm) keys."
            )
        }
    }
}
