import AuthCore
import AuthTesting
import Foundation
import Testing

/// The JWE decryptor (RFC 7516 §5.2) on tokens made in the test with swift-crypto (`TestJWE`): every supported key
/// management and content encryption pair round-trips; a wrong key, a tampered tag, ciphertext or header, an
/// unsupported or unregistered algorithm and an oversized or malformed token are refused with their codes.
@Suite("JWE decryption")
struct JWEDecryptorTests {
    static let plaintext = Data("{\"sub\":\"alice\",\"note\":\"a JWE round trip\"}".utf8)
    static let secret = "a-client-secret-of-the-test-client"
    let decryptor = JWEDecryptor(keys: [TestJWE.clientRSAKey, TestJWE.clientP256Key], clientSecret: Secret(Self.secret))

    static func recipient(for algorithm: String) -> TestJWE.Recipient {
        algorithm.hasPrefix("RSA") ? .clientRSA : algorithm.hasPrefix("ECDH") ? .clientP256 : .secret(secret)
    }

    static let pairs: [(String, String)] = JWEKeyManagement.allCases.flatMap { management in
        JWEContentEncryption.allCases.map { (management.rawValue, $0.rawValue) }
    }

    @Test("Every supported alg/enc pair decrypts what it encrypted", arguments: pairs)
    func roundTrip(_ pair: (String, String)) throws {
        let (algorithm, encryption) = pair
        let token = try TestJWE.encrypt(Self.plaintext, algorithm: algorithm, encryption: encryption, to: Self.recipient(for: algorithm))
        #expect(CompactJWE.looksEncrypted(token))
        let jwe = try CompactJWE(parsing: token)
        #expect(try decryptor.decrypt(jwe, expected: ResponseEncryption(algorithm: algorithm, contentEncryption: encryption)) == Self.plaintext)
        #expect(try decryptor.decrypt(jwe, expected: nil) == Self.plaintext)
    }

    @Test("A JWE for another key does not decrypt", arguments: ["RSA-OAEP", "RSA-OAEP-256", "ECDH-ES", "ECDH-ES+A256KW", "A128KW"])
    func wrongKey(_ algorithm: String) throws {
        let recipient: TestJWE.Recipient =
            algorithm.hasPrefix("RSA") ? .strangerRSA : algorithm.hasPrefix("ECDH") ? .strangerP256 : .secret("another secret")
        let token = try TestJWE.encrypt(Self.plaintext, algorithm: algorithm, encryption: "A256GCM", to: recipient)
        #expect(code { try decryptor.decrypt(try CompactJWE(parsing: token), expected: nil) } == .decryptionFailed)
    }

    @Test("A tampered tag, ciphertext, IV or header does not decrypt", arguments: [1, 2, 3, 4], ["A128GCM", "A128CBC-HS256", "A256CBC-HS512"])
    func tampered(_ segment: Int, _ encryption: String) throws {
        let token = try TestJWE.encrypt(Self.plaintext, algorithm: "RSA-OAEP", encryption: encryption, to: .clientRSA) { segments in
            guard var bytes = Base64URL.decode(String(decoding: segments[segment], as: UTF8.self)), !bytes.isEmpty else { return }
            bytes[bytes.startIndex] ^= 0x80
            segments[segment] = Data(Base64URL.encode(bytes).utf8)
        }
        #expect(code { try decryptor.decrypt(try CompactJWE(parsing: token), expected: nil) } == .decryptionFailed)
    }

    @Test("A header changed after encryption (the additional data) does not decrypt")
    func tamperedHeader() throws {
        let token = try TestJWE.encrypt(Self.plaintext, algorithm: "ECDH-ES", encryption: "A256GCM", to: .clientP256) { segments in
            var header = try! JSONValue.parseObject(Base64URL.decode(String(decoding: segments[0], as: UTF8.self))!)
            header["kid"] = "another"
            segments[0] = Data(Base64URL.encode(try! JSONValue.object(header).jsonData()).utf8)
        }
        #expect(code { try decryptor.decrypt(try CompactJWE(parsing: token), expected: nil) } == .decryptionFailed)
    }

    @Test("RSA1_5, dir, PBES2, 192-bit and unknown algorithms are refused", arguments: ["RSA1_5", "dir", "PBES2-HS256+A128KW", "A192KW", "A128GCMKW", "none"])
    func unsupportedAlgorithm(_ algorithm: String) throws {
        let token = try TestJWE.encrypt(Self.plaintext, algorithm: algorithm, encryption: "A128GCM", to: .clientRSA)
        #expect(code { try decryptor.decrypt(try CompactJWE(parsing: token), expected: nil) } == .unsupportedAlgorithm)
    }

    @Test("An unsupported enc is refused")
    func unsupportedEncryption() throws {
        let token = try TestJWE.encrypt(Self.plaintext, algorithm: "RSA-OAEP", encryption: "A128GCM", to: .clientRSA, header: ["enc": "A192GCM"])
        #expect(code { try decryptor.decrypt(try CompactJWE(parsing: token), expected: nil) } == .unsupportedAlgorithm)
    }

    @Test("Another alg or enc than the registered pair is refused before any key is used")
    func unregisteredPair() throws {
        let token = try TestJWE.encrypt(Self.plaintext, algorithm: "RSA-OAEP-256", encryption: "A128GCM", to: .clientRSA)
        let jwe = try CompactJWE(parsing: token)
        #expect(code { try decryptor.decrypt(jwe, expected: ResponseEncryption(algorithm: "RSA-OAEP", contentEncryption: "A128GCM")) } == .unsupportedAlgorithm)
        #expect(code { try decryptor.decrypt(jwe, expected: ResponseEncryption(algorithm: "RSA-OAEP-256", contentEncryption: "A256GCM")) } == .unsupportedAlgorithm)
    }

    @Test("A client without the key or secret an algorithm needs cannot decrypt")
    func missingKey() throws {
        let none = JWEDecryptor(keys: [], clientSecret: nil)
        for algorithm in ["RSA-OAEP", "ECDH-ES", "A128KW"] {
            let token = try TestJWE.encrypt(Self.plaintext, algorithm: algorithm, encryption: "A128GCM", to: Self.recipient(for: algorithm))
            #expect(code { try none.decrypt(try CompactJWE(parsing: token), expected: nil) } == .decryptionFailed)
        }
    }

    @Test("Oversized, wrongly segmented, non-base64url, compressed and critical-header tokens are refused")
    func malformed() throws {
        let token = try TestJWE.encrypt(Self.plaintext, algorithm: "RSA-OAEP", encryption: "A128GCM", to: .clientRSA)
        #expect(code { _ = try CompactJWE(parsing: String(repeating: "a", count: CompactJWE.maximumLength + 1) + "....") } == .decryptionFailed)
        #expect(code { _ = try CompactJWE(parsing: token + ".extra") } == .decryptionFailed)
        #expect(code { _ = try CompactJWE(parsing: "a.b.c") } == .decryptionFailed)
        #expect(code { _ = try CompactJWE(parsing: token.replacingOccurrences(of: ".", with: ".=", options: [], range: token.range(of: "."))) } == .decryptionFailed)
        #expect(code { _ = try CompactJWE(parsing: "bm90IGpzb24...." + "AA") } == .decryptionFailed)
        let zipped = try TestJWE.encrypt(Self.plaintext, algorithm: "RSA-OAEP", encryption: "A128GCM", to: .clientRSA, header: ["zip": "DEF"])
        #expect(code { _ = try CompactJWE(parsing: zipped) } == .unsupportedAlgorithm)
        let critical = try TestJWE.encrypt(Self.plaintext, algorithm: "RSA-OAEP", encryption: "A128GCM", to: .clientRSA, header: ["crit": ["exp"]])
        #expect(code { _ = try CompactJWE(parsing: critical) } == .unsupportedCriticalHeader)
    }

    @Test("ECDH-ES refuses an ephemeral key that is not a P-256 point")
    func invalidEphemeralKey() throws {
        let offCurve: JSONValue = [
            "kty": "EC", "crv": "P-256", "x": .string(Base64URL.encode(Data(repeating: 1, count: 32))), "y": .string(Base64URL.encode(Data(repeating: 2, count: 32)))
        ]
        for epk: JSONValue in [offCurve, ["kty": "EC", "crv": "P-384", "x": "AA", "y": "AA"], "not a key"] {
            let token = try TestJWE.encrypt(Self.plaintext, algorithm: "ECDH-ES", encryption: "A128GCM", to: .clientP256, header: ["epk": epk])
            #expect(code { try decryptor.decrypt(try CompactJWE(parsing: token), expected: nil) } == .decryptionFailed)
        }
    }

    @Test("The Concat KDF gives RFC 7518 appendix C's key")
    func concatKDFVector() {
        let z = Data([
            158, 86, 217, 29, 129, 113, 53, 211, 114, 131, 66, 131, 191, 132, 38, 156, 251, 49, 110, 163, 218, 128, 106, 72, 246, 218, 167, 121, 140, 254, 144, 196
        ])
        let key = JWEDecryptor.concatKDF(z, length: 16, algorithmID: "A128GCM", apu: Data("Alice".utf8), apv: Data("Bob".utf8))
        #expect(Base64URL.encode(key) == "VqqN6vgjbSBcIijNcacQGg")
    }

    @Test("A decryption key never shows itself, and publishes only its public half for encryption")
    func keyDescription() throws {
        #expect("\(TestJWE.clientRSAKey)" == "ClientDecryptionKey(RSA, kid: enc-rsa)")
        #expect(String(reflecting: TestJWE.clientP256Key) == "ClientDecryptionKey(P-256, kid: enc-ec)")
        let rsa = try TestJWE.clientRSAKey.publicJWK()
        #expect(rsa["kty"] == "RSA" && rsa["use"] == "enc" && rsa["kid"] == "enc-rsa" && rsa["d"] == nil && rsa["p"] == nil)
        let ec = try TestJWE.clientP256Key.publicJWK()
        #expect(ec["kty"] == "EC" && ec["crv"] == "P-256" && ec["d"] == nil)
        #expect(code { _ = try ClientDecryptionKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----") } == .invalidConfiguration)
        #expect(code { _ = try ClientDecryptionKey(jwk: ["kty": "oct", "k": "AAAA"]) } == .invalidConfiguration)
    }

    private func code(_ body: () throws -> Any) -> AuthError.Code? {
        do {
            _ = try body()
            return nil
        } catch let error as AuthError {
            return error.code
        } catch {
            return "unexpected"
        }
    }
}
