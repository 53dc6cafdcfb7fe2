import AuthCore
import Foundation

extension HostileScenario {
    /// Encrypted ID tokens (JWE, RFC 7516) for a client registered for RSA-OAEP / A256GCM (OpenID Connect Core §3.1.3.7
    /// step 1, §10.2): what does not decrypt, decrypts to an unsigned token, or arrives in the clear is refused with its
    /// own code.
    static let encryptedIDToken: [HostileScenario] = [
        encrypted("hostile-jwe-idtoken-honest", "ID token signed, then encrypted to the client's key as registered", "OIDC Core §10.2", .accepted) {
            $0.idTokenEncryption = .init()
        },
        encrypted("hostile-jwe-idtoken-wrong-key", "JWE encrypted to another key: it does not decrypt", "RFC 7516 §5.2, RFC 7516 §11.5", .rejected(.decryptionFailed)) {
            $0.idTokenEncryption = .init(recipient: .strangerRSA)
        },
        encrypted("hostile-jwe-idtoken-tampered-tag", "JWE whose authentication tag was altered", "RFC 7516 §5.2", .rejected(.decryptionFailed)) {
            $0.idTokenEncryption = .init(tamperedTag: true)
        },
        encrypted("hostile-jwe-idtoken-unsigned-inside", "JWE that decrypts to an unsigned (alg none) ID token", "OIDC Core §10.2, RFC 8725 §3.1", .rejected(.unsignedResponse)) {
            $0.idTokenEncryption = .init()
            $0.signing = .unsigned
        },
        encrypted(
            "hostile-jwe-idtoken-in-the-clear", "signed ID token not encrypted though the client registered encryption", "OIDC Core §3.1.3.7 step 1",
            .rejected(.unencryptedResponse)
        ) {
            $0.idTokenEncryption = nil
        },
        encrypted("rfc8725-jwe-rsa1_5", "JWE with RSA1_5 key transport (PKCS#1 v1.5 padding oracle)", "RFC 8725 §3.2", .rejected(.unsupportedAlgorithm)) {
            $0.idTokenEncryption = .init(algorithm: "RSA1_5")
        },
        encrypted("hostile-jwe-idtoken-other-enc", "JWE with another enc than the registered one", "RFC 8725 §3.1 (no algorithm confusion)", .rejected(.unsupportedAlgorithm)) {
            $0.idTokenEncryption = .init(encryption: "A128CBC-HS256")
        }
    ]

    private static func encrypted(
        _ id: String,
        _ summary: String,
        _ reference: String,
        _ expectation: Expectation,
        configure: @escaping @Sendable (inout TestIdentityProvider.Behavior) -> Void
    ) -> HostileScenario {
        var scenario = HostileScenario(id: id, summary: summary, reference: reference, stage: .idToken, expectation: expectation, configure: configure)
        scenario.registeredEncryption = ResponseEncryption(algorithm: "RSA-OAEP", contentEncryption: "A256GCM")
        return scenario
    }
}
