public import AuthCore
import AuthTesting
import Crypto
public import Foundation

/// GOV.UK One Login's identity signing side, emulated: a P-256 key published in a DID document
/// (`/.well-known/did.json`, `did:web`) and the core identity JWTs it signs, shaped like GOV.UK's simulator's.
///
/// Tests build hostile core identity JWTs with it (another audience, another subject, expired, or signed by
/// ``impostor(of:)`` — a key the DID document does not publish, under the same `kid`).
public struct GOVUKIdentitySigner: Sendable {
    /// The DID controller (`did:web:<host>`; a port as `%3A<port>`).
    public let controller: String
    /// The key id after `#` in the `kid`.
    public let keyID: String
    /// The `iss` of the JWTs.
    public let issuer: String
    private let privateKey: P256.Signing.PrivateKey

    /// A signer with a fresh key, for the DID document at `didDocumentURL`.
    public init(didDocumentURL: URL, issuer: String, keyID: String = "identity-key-1") {
        self.init(didDocumentURL: didDocumentURL, issuer: issuer, keyID: keyID, privateKey: P256.Signing.PrivateKey())
    }

    init(didDocumentURL: URL, issuer: String, keyID: String = "identity-key-1", privateKey: P256.Signing.PrivateKey) {
        var host = didDocumentURL.host ?? ""
        if let port = didDocumentURL.port { host += "%3A\(port)" }
        self.init(controller: "did:web:" + host, keyID: keyID, issuer: issuer, privateKey: privateKey)
    }

    private init(controller: String, keyID: String, issuer: String, privateKey: P256.Signing.PrivateKey) {
        self.controller = controller
        self.keyID = keyID
        self.issuer = issuer
        self.privateKey = privateKey
    }

    /// A signer with the same controller, `kid` and issuer but another key: its JWTs do not verify.
    public static func impostor(of signer: GOVUKIdentitySigner) -> GOVUKIdentitySigner {
        GOVUKIdentitySigner(controller: signer.controller, keyID: signer.keyID, issuer: signer.issuer, privateKey: P256.Signing.PrivateKey())
    }

    /// The full key id (`<controller>#<keyID>`), the JWT's `kid`.
    public var fullKeyID: String { controller + "#" + keyID }

    /// The DID document publishing the public key under `assertionMethod`.
    public var didDocument: [String: JSONValue] {
        let point = privateKey.publicKey.rawRepresentation
        return [
            "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/jwk/v1"],
            "id": .string(controller),
            "assertionMethod": [
                [
                    "type": "JsonWebKey",
                    "id": .string(fullKeyID),
                    "controller": .string(controller),
                    "publicKeyJwk": [
                        "kty": "EC", "crv": "P-256",
                        "x": .string(Base64URL.encode(point.prefix(32))),
                        "y": .string(Base64URL.encode(point.suffix(32)))
                    ]
                ]
            ]
        ]
    }

    /// The claims GOV.UK puts in a core identity JWT: `iss`, `aud`, `sub`, `nbf`, `iat`, `exp` (a day later), `vot`,
    /// `vtm` and the verifiable credential `vc`.
    public func claims(
        audience: String,
        subject: String,
        vot: String = "P2",
        credential: [String: JSONValue],
        trustmark: String,
        now: Date,
        lifetime: TimeInterval = 24 * 3600
    ) -> [String: JSONValue] {
        let issued = now.timeIntervalSince1970.rounded(.down)
        return [
            "iss": .string(issuer), "aud": .string(audience), "sub": .string(subject), "nbf": .number(issued),
            "iat": .number(issued), "exp": .number(issued + lifetime), "vot": .string(vot), "vtm": .string(trustmark),
            "vc": .object(credential)
        ]
    }

    /// Signs `claims` with ES256 under ``fullKeyID`` (or `headerOverrides`).
    public func jwt(_ claims: [String: JSONValue], headerOverrides: [String: JSONValue] = [:]) -> String {
        let header: [String: JSONValue] = ["alg": "ES256", "kid": .string(fullKeyID)].merging(headerOverrides) { _, override in override }
        let key = privateKey
        return TestJWT.make(header: header, claims: claims) { input in
            // Signing with a valid P-256 key cannot fail.
            try! key.signature(for: input).rawRepresentation
        }
    }

    /// The verifiable credential of GOV.UK's simulator's default user (GEOFFREY HEARNSHAW, born 1955-04-19).
    public static let simulatorCredential: [String: JSONValue] = [
        "type": ["VerifiableCredential", "IdentityCheckCredential"],
        "credentialSubject": [
            "name": [["nameParts": [["value": "GEOFFREY", "type": "GivenName"], ["value": "HEARNSHAW", "type": "FamilyName"]]]],
            "birthDate": [["value": "1955-04-19"]]
        ]
    ]

    /// The postal address of GOV.UK's simulator's default user (its `uprn` is a number, as the simulator sends it).
    public static let simulatorAddress: JSONValue = [
        [
            "addressCountry": "GB", "buildingName": "", "streetName": "FRAMPTON ROAD", "postalCode": "GL1 5QB",
            "buildingNumber": "26", "addressLocality": "GLOUCESTER", "validFrom": "2000-01-01", "uprn": 100_120_472_196,
            "subBuildingName": ""
        ]
    ]
}
