import AuthCore
import Foundation

/// GOV.UK's DID document (`/.well-known/did.json`, W3C DID Core with `did:web`): the public keys that sign core
/// identity JWTs, listed under `assertionMethod` as `JsonWebKey` entries whose `id` is `<controller>#<key id>` —
/// the value the JWT's `kid` header names.
enum DIDDocument {
    /// The document's assertion keys as a key set (each key's `kid` is its full DID URL), keeping only keys the
    /// expected controller controls.
    ///
    /// - Throws: `invalid_response` when the body is not a DID document, or the document is not `controller`'s.
    static func assertionKeys(_ data: Data, controller: String) throws -> JSONWebKeySet {
        guard let document = try? JSONValue.parseObject(data), let methods = document["assertionMethod"]?.arrayValue else {
            throw AuthError(.invalidResponse, "The DID document is not a JSON object with an 'assertionMethod' array.", providerID: GOVUKProvider.id)
        }
        guard document["id"]?.stringValue == controller else {
            throw AuthError(
                .invalidResponse,
                "The DID document is '\(document["id"]?.stringValue ?? "unnamed")', not the expected '\(controller)'.",
                providerID: GOVUKProvider.id
            )
        }
        let keys = methods.compactMap { method -> JSONWebKey? in
            guard let id = method["id"]?.stringValue, id.hasPrefix(controller + "#"),
                (method["controller"]?.stringValue ?? controller) == controller,
                var jwk = method["publicKeyJwk"]?.objectValue
            else { return nil }
            jwk["kid"] = .string(id)
            return try? JSONWebKey(jwk)
        }
        return JSONWebKeySet(keys: keys)
    }
}
