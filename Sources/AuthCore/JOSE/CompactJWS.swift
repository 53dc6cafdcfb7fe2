public import Foundation

/// A JWS in compact serialization (`header.payload.signature`), parsed but not yet verified.
///
/// Parsing never trusts the input: the length is capped, each segment must be strict base64url, the header
/// must be a JSON object with a string `alg`. Nothing here verifies anything; see ``IDTokenValidator``.
public struct CompactJWS: Sendable {
    /// The protected header.
    public let header: JOSEHeader
    /// The decoded payload bytes.
    public let payload: Data
    /// The decoded signature bytes.
    public let signature: Data
    /// The bytes that were signed: the ASCII text `header.payload`.
    public let signingInput: Data

    /// The largest token accepted, in bytes. Real ID tokens are a few kilobytes.
    public static let maximumLength = 64 * 1024

    /// Parses `token`.
    ///
    /// - Throws: `malformed_id_token` for an oversized token, a wrong segment count, invalid base64url,
    ///   or a header that is not a JSON object with an `alg`.
    public init(parsing token: String) throws {
        let bytes = token.utf8
        guard bytes.count <= Self.maximumLength else {
            throw AuthError(.malformedIDToken, "The token is larger than \(Self.maximumLength) bytes.")
        }
        let segments = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw AuthError(
                .malformedIDToken,
                "The token has \(segments.count) segments; a signed JWT has 3 (an encrypted one has 5 and is not supported)."
            )
        }
        guard let headerBytes = Base64URL.decode(Substring(segments[0])),
            let payload = Base64URL.decode(Substring(segments[1])),
            let signature = Base64URL.decode(Substring(segments[2]))
        else {
            throw AuthError(.malformedIDToken, "A token segment is not valid base64url.")
        }
        let headerObject: [String: JSONValue]
        do {
            headerObject = try JSONValue.parseObject(headerBytes)
        } catch {
            throw AuthError(.malformedIDToken, "The token header is not a JSON object.")
        }
        self.header = try JOSEHeader(headerObject)
        self.payload = payload
        self.signature = signature
        self.signingInput = Data(token.utf8.prefix(segments[0].count + 1 + segments[1].count))
    }
}

/// The protected header of a JWS.
public struct JOSEHeader: Sendable, Hashable {
    /// The `alg` value as sent (possibly one this package refuses, such as `none`).
    public let algorithm: String
    /// The key id, if any.
    public let keyID: String?
    /// The `typ`, if any.
    public let type: String?
    /// The `crit` extension names, if any; any entry makes the token unacceptable, as none are understood.
    public let critical: [String]?
    /// Every member of the header. Key-carrying members (`jku`, `jwk`, `x5u`, `x5c`) are never used.
    public let members: [String: JSONValue]

    init(_ members: [String: JSONValue]) throws {
        guard let algorithm = members["alg"]?.stringValue else {
            throw AuthError(.malformedIDToken, "The token header has no 'alg'.")
        }
        if let kid = members["kid"], kid.stringValue == nil {
            throw AuthError(.malformedIDToken, "The token header's 'kid' is not a string.")
        }
        self.algorithm = algorithm
        self.keyID = members["kid"]?.stringValue
        self.type = members["typ"]?.stringValue
        if let crit = members["crit"] {
            guard let names = crit.arrayValue?.compactMap(\.stringValue), !names.isEmpty else {
                throw AuthError(.malformedIDToken, "The token header's 'crit' is not a non-empty array of names.")
            }
            self.critical = names
        } else {
            self.critical = nil
        }
        self.members = members
    }
}

extension CompactJWS {
    /// The payload as a JSON object, once the signature has verified with `key`.
    ///
    /// - Throws: `invalid_signature`; `malformed` when the payload is not a JSON object. Messages name `tokenKind`.
    package func verifiedClaims(with key: JSONWebKey, algorithm: JWSAlgorithm, tokenKind: String, malformed: AuthError.Code) throws -> [String: JSONValue] {
        guard key.isValidSignature(signature, for: signingInput, algorithm: algorithm) else {
            throw AuthError(.invalidSignature, "The \(tokenKind)'s \(algorithm) signature does not verify with the provider's key.")
        }
        do {
            return try JSONValue.parseObject(payload)
        } catch {
            throw AuthError(malformed, "The \(tokenKind)'s payload is not a JSON object.")
        }
    }
}
