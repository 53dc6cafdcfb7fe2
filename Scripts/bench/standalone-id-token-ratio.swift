// The stand-alone run behind BENCHMARKS.md's "PS256 and EdDSA ID token validation" figures (2026-11-28), used while the
// Benchmarks package's release build could not finish on the shared VM: compiled into the AuthCore module (it reaches
// package API) with the release flags SwiftPM uses, against a release build's swift-crypto objects:
//   swiftc -module-name AuthCore -parse-as-library -whole-module-optimization -O -package-name main -c -o AuthCore.o \
//     Sources/AuthCore/**/*.swift Scripts/bench/standalone-id-token-ratio.swift -I <release>/Modules <swift-crypto module maps>
//   swiftc -emit-executable -o id-token-ratio AuthCore.o <release objects of Crypto, _CryptoExtras, BoringSSL, SwiftASN1, HTTPTypes, Logging>
//   ./id-token-ratio 20000
// The Benchmarks package's suites "ID token PS256/EdDSA: ours vs raw verification, alternated" measure the same loop.
import Crypto
import Foundation
import _CryptoExtras

// A stand-alone run of the ID token benchmark's "alternated" suite for PS256 and EdDSA (release build, one process):
// ours = IDTokenValidator.validate (parse, pinned algorithm, key lookup, signature, every claim rule), raw =
// swift-crypto's verification of the same signing input with a pre-built key and signature.
@main
struct ParBench {
    static func main() throws {
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let ed = Curve25519.Signing.PrivateKey()
        let primitives = try rsa.publicKey.getKeyPrimitives()
        let jwks: JSONValue = [
            "keys": [
                ["kty": "RSA", "kid": "rsa-pss", "use": "sig", "alg": "PS256", "n": .string(Base64URL.encode(primitives.modulus)),
                 "e": .string(Base64URL.encode(primitives.publicExponent))],
                ["kty": "OKP", "kid": "ed", "use": "sig", "alg": "EdDSA", "crv": "Ed25519", "x": .string(Base64URL.encode(ed.publicKey.rawRepresentation))],
            ]
        ]
        let keySet = try JSONWebKeySet(data: try jwks.jsonData())
        let epoch = 1_700_000_000.0
        let now = Date(timeIntervalSince1970: epoch)
        let claims: JSONValue = [
            "iss": "https://idp.example.test", "sub": "user-1234", "aud": "test-client", "nonce": "n-0123456789",
            "iat": .number(epoch), "exp": .number(epoch + 3600), "email": "alice@example.com",
        ]
        let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 20000
        for (algorithm, kid) in [(JWSAlgorithm.ps256, "rsa-pss"), (.edDSA, "ed")] {
            let header: JSONValue = ["alg": .string(algorithm.rawValue), "kid": .string(kid), "typ": "JWT"]
            let input = Base64URL.encode(try header.jsonData()) + "." + Base64URL.encode(try claims.jsonData())
            let signature: Data =
                algorithm == .ps256
                ? try rsa.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .PSS).rawRepresentation
                : try ed.signature(for: Data(input.utf8))
            let token = input + "." + Base64URL.encode(signature)
            let validator = IDTokenValidator(issuer: "https://idp.example.test", clientID: "test-client", policy: IDTokenPolicy(allowedAlgorithms: [algorithm]))
            let signingInput = Data(input.utf8)
            let rsaPublic = rsa.publicKey
            let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            let edPublic = ed.publicKey
            let raw: () -> Bool =
                algorithm == .ps256
                ? { rsaPublic.isValidSignature(rsaSignature, for: SHA256.hash(data: signingInput), padding: .PSS) }
                : { edPublic.isValidSignature(signature, for: signingInput) }
            var ours: [Int] = [], rawTimes: [Int] = [], ratios: [Int] = []
            for index in 0..<(iterations + 10) {
                let start = ContinuousClock.now
                let claims = try validator.validate(token, keySet: keySet, nonce: "n-0123456789", accessToken: nil, now: now)
                let middle = ContinuousClock.now
                let valid = raw()
                let end = ContinuousClock.now
                precondition(valid && claims.subject == "user-1234")
                guard index >= 10 else { continue }
                let o = Int((middle - start).components.attoseconds / 1_000_000_000), r = Int((end - middle).components.attoseconds / 1_000_000_000)
                ours.append(o)
                rawTimes.append(r)
                ratios.append(o * 1000 / max(r, 1))
            }
            func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
            print("\(algorithm.rawValue): iterations \(iterations), ours p50 \(median(ours)) ns, raw p50 \(median(rawTimes)) ns, ratio of medians \(String(format: "%.3f", Double(median(ours)) / Double(median(rawTimes))))×, p50 of per-iteration ratios \(median(ratios))‰")
        }
    }
}
