public import AuthCore
public import Foundation

/// The JSON parsers provider responses reach, and the credential checks a restored credential passes, for the
/// fuzzers. Not API.
public enum JSONHarness {
    /// Runs `data` through every parser of provider JSON: token response, key set, discovery document, ID token
    /// claims, and the encoder back.
    public static func parseAll(_ data: Data) {
        _ = try? TokenResponse(json: data)
        _ = try? JSONWebKeySet(data: data)
        if let object = try? JSONValue.parseObject(data) {
            _ = try? ProviderMetadata(document: object)
            _ = try? IDTokenClaims(object)
            _ = try? JSONValue.object(object).jsonData()
        }
    }

    /// `value` encoded as JSON.
    public static func data(_ value: JSONValue) throws -> Data {
        try value.jsonData()
    }

    /// The checks a credential read back from storage passes before use (tokens present, no control characters).
    public static func validateForUse(_ credential: Credential) throws {
        _ = try credential.validatedForUse()
    }

    /// Whether the engine would refresh `credential` at `now`, `margin` seconds ahead (its expiry check, which must
    /// not trap on any stored date).
    public static func isExpired(_ credential: Credential, at now: Date, margin: TimeInterval) -> Bool {
        credential.isExpired(at: now, margin: margin)
    }
}
