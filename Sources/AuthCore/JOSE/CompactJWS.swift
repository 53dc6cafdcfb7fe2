package import Foundation

/// A JWS in compact serialization (`header.payload.signature`), parsed but not yet verified.
///
/// Parsing never trusts the input: the length is capped, each segment must be strict base64url, the header
/// must be a JSON object with a string `alg`. Nothing here verifies anything; see ``IDTokenValidator``.
package struct CompactJWS: Sendable {
    /// The protected header.
    package let header: JOSEHeader
    /// The decoded payload bytes.
    package var payload: Data { Data(payloadBytes) }
    /// The decoded signature bytes.
    package var signature: Data { Data(signatureBytes) }

    // Arrays rather than `Data`: one allocation each instead of two, on the path of every ID token.
    let payloadBytes: [UInt8]
    let signatureBytes: [UInt8]
    /// The bytes that were signed: the ASCII text `header.payload`.
    package var signingInput: Data { Data(token.utf8.prefix(signingInputLength)) }

    /// The token as received; the signing input is its first ``signingInputLength`` bytes, hashed in place.
    private let token: String
    private let signingInputLength: Int

    /// The largest token accepted, in bytes. Real ID tokens are a few kilobytes.
    package static let maximumLength = 64 * 1024

    /// Parses `token`.
    ///
    /// - Throws: `malformed_id_token` for an oversized token, a wrong segment count, invalid base64url,
    ///   or a header that is not a JSON object with an `alg`.
    package init(parsing token: String) throws {
        var token = token
        guard token.utf8.count <= Self.maximumLength else {
            throw AuthError(.malformedIDToken, "The token is larger than \(Self.maximumLength) bytes.")
        }
        // One pass over the contiguous UTF-8: find the dots, decode each segment in place.
        let parsed = token.withUTF8 { bytes -> Result<(JOSEHeader, [UInt8], [UInt8], Int), AuthError> in
            let text = UnsafeRawBufferPointer(bytes)
            var dotCount = 0
            var first = -1
            var second = -1
            if let base = text.baseAddress {
                for index in 0..<text.count where base.load(fromByteOffset: index, as: UInt8.self) == UInt8(ascii: ".") {
                    dotCount += 1
                    if dotCount == 1 { first = index } else if dotCount == 2 { second = index }
                }
            }
            guard dotCount == 2 else {
                return .failure(
                    AuthError(
                        .malformedIDToken,
                        "The token has \(dotCount + 1) segments; a signed JWT has 3 (an encrypted one has 5 and is not supported)."
                    ))
            }
            // Built only on failure: an AuthError sanitizes its message, which costs more than parsing a header.
            func malformed() -> AuthError { AuthError(.malformedIDToken, "A token segment is not valid base64url.") }
            guard let payload = Self.decode(UnsafeRawBufferPointer(rebasing: text[(first + 1)..<second])),
                let signature = Self.decode(UnsafeRawBufferPointer(rebasing: text[(second + 1)...]))
            else { return .failure(malformed()) }
            // The header is read once, here: decoded on the stack and parsed from there.
            let headerText = UnsafeRawBufferPointer(rebasing: text[..<first])
            guard let headerLength = Base64URL.decodedLength(headerText.count) else { return .failure(malformed()) }
            var headerIsBase64 = true
            let headerObject = withUnsafeTemporaryAllocation(byteCount: max(headerLength, 1), alignment: 1) { buffer -> [String: JSONValue]? in
                let decoded = UnsafeMutableRawBufferPointer(rebasing: buffer[..<headerLength])
                guard Base64URL.decode(headerText, into: decoded) else {
                    headerIsBase64 = false
                    return nil
                }
                guard case .object(let object)? = try? JSONParser.parse(bytes: UnsafeRawBufferPointer(decoded)) else { return nil }
                return object
            }
            guard headerIsBase64 else { return .failure(malformed()) }
            guard let headerObject else {
                return .failure(AuthError(.malformedIDToken, "The token header is not a JSON object."))
            }
            do {
                return .success((try JOSEHeader(headerObject), payload, signature, second))
            } catch let error as AuthError {
                return .failure(error)
            } catch {
                return .failure(AuthError(.malformedIDToken, "The token header is invalid."))
            }
        }
        (header, payloadBytes, signatureBytes, signingInputLength) = try parsed.get()
        self.token = token
    }

    /// The bytes `text` encodes, `nil` when it is not strict base64url.
    private static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let count = Base64URL.decodedLength(text.count) else { return nil }
        var valid = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            valid = Base64URL.decode(text, into: UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
        return valid ? bytes : nil
    }

    /// Calls `body` with the signing input's bytes, in place in the token.
    func withSigningInput<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var token = token
        return token.withUTF8 { body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer($0)[..<signingInputLength])) }
    }
}

/// The protected header of a JWS.
package struct JOSEHeader: Sendable, Hashable {
    /// The `alg` value as sent (possibly one this package refuses, such as `none`).
    package let algorithm: String
    /// The key id, if any.
    package let keyID: String?
    /// The `typ`, if any.
    package let type: String?
    /// The `crit` extension names, if any; any entry makes the token unacceptable, as none are understood.
    package let critical: [String]?
    /// Every member of the header. Key-carrying members (`jku`, `jwk`, `x5u`, `x5c`) are never used.
    package let members: [String: JSONValue]

    init(_ members: [String: JSONValue]) throws {
        guard let algorithm = members["alg"]?.stringValue else {
            throw AuthError(.malformedIDToken, "The token header has no 'alg'.")
        }
        let kid = members["kid"]
        if let kid, kid.stringValue == nil {
            throw AuthError(.malformedIDToken, "The token header's 'kid' is not a string.")
        }
        self.algorithm = algorithm
        self.keyID = kid?.stringValue
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
    /// The token's algorithm, when it is one of `allowed` (the client's pinned list: never `none`, never a value from
    /// the token's own say-so) and no header extension is marked critical (RFC 7515 §4.1.11: a recipient must refuse
    /// one it does not understand, and this client understands none).
    ///
    /// - Throws: `unsupported_algorithm`, `unsupported_critical_header`. Messages name `tokenKind`.
    package func pinnedAlgorithm(allowed: [JWSAlgorithm], tokenKind: String) throws -> JWSAlgorithm {
        guard let algorithm = JWSAlgorithm(rawValue: header.algorithm), allowed.contains(algorithm) else {
            throw AuthError(
                .unsupportedAlgorithm,
                "The \(tokenKind) is signed with '\(header.algorithm)'; only \(allowed.map(\.rawValue).joined(separator: ", ")) \(allowed.count == 1 ? "is" : "are") accepted."
            )
        }
        if let critical = header.critical {
            throw AuthError(
                .unsupportedCriticalHeader,
                "The \(tokenKind) marks header extensions as critical (\(critical.joined(separator: ", "))), which this client does not understand."
            )
        }
        return algorithm
    }

    /// The payload as a JSON object, once the signature has verified with `key`.
    ///
    /// - Throws: `invalid_signature`; `malformed` when the payload is not a JSON object. Messages name `tokenKind`.
    package func verifiedClaims(with key: JSONWebKey, algorithm: JWSAlgorithm, tokenKind: String, malformed: AuthError.Code) throws -> [String: JSONValue] {
        guard withSigningInput({ key.isValidSignature(signatureBytes, forBytes: $0, algorithm: algorithm) }) else {
            throw AuthError(.invalidSignature, "The \(tokenKind)'s \(algorithm) signature does not verify with the provider's key.")
        }
        do {
            guard case .object(let object) = try payloadBytes.withUnsafeBytes({ try JSONParser.parse(bytes: $0) }) else {
                throw JSONValue.NotAnObject()
            }
            return object
        } catch {
            throw AuthError(malformed, "The \(tokenKind)'s payload is not a JSON object.")
        }
    }
}
