/// A JWS signature algorithm (RFC 7518 §3) that this package can verify.
///
/// Only asymmetric algorithms exist here: `none` and the HMAC family (`HS256`, …) have no value of this type,
/// so no configuration can ever enable them for a public client.
public struct JWSAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `alg` header value, such as `RS256`.
    public let rawValue: String

    /// The algorithm for an `alg` value, or `nil` for anything this package refuses to verify.
    public init?(rawValue: String) {
        guard Self.verifiable.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(known: String) { rawValue = known }

    /// RSASSA-PKCS1-v1_5 with SHA-256.
    public static let rs256 = JWSAlgorithm(known: "RS256")
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    public static let rs384 = JWSAlgorithm(known: "RS384")
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    public static let rs512 = JWSAlgorithm(known: "RS512")
    /// RSASSA-PSS with SHA-256.
    public static let ps256 = JWSAlgorithm(known: "PS256")
    /// RSASSA-PSS with SHA-384.
    public static let ps384 = JWSAlgorithm(known: "PS384")
    /// RSASSA-PSS with SHA-512.
    public static let ps512 = JWSAlgorithm(known: "PS512")
    /// ECDSA with P-256 and SHA-256.
    public static let es256 = JWSAlgorithm(known: "ES256")
    /// ECDSA with P-384 and SHA-384.
    public static let es384 = JWSAlgorithm(known: "ES384")
    /// EdDSA with Ed25519 (RFC 8037: JWK `kty: OKP`, `crv: Ed25519`).
    public static let edDSA = JWSAlgorithm(known: "EdDSA")

    private static let verifiable: Set<String> = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA"]

    /// The `alg` value.
    public var description: String { rawValue }

    /// The JWK key type (`kty`) this algorithm needs.
    var keyType: String { rawValue.hasPrefix("ES") ? "EC" : rawValue == "EdDSA" ? "OKP" : "RSA" }

    /// The JWK curve (`crv`) this algorithm needs, for ECDSA.
    var curve: String? {
        switch rawValue {
        case "ES256": "P-256"
        case "ES384": "P-384"
        case "EdDSA": "Ed25519"
        default: nil
        }
    }
}
