import AuthCore
public import Foundation

extension TestIdentityProvider {
    /// How the provider supports DPoP (RFC 9449); `nil` in ``Configuration/dpop`` means it ignores `DPoP` headers
    /// and issues bearer tokens, as a server without DPoP does.
    public struct DPoPSettings: Sendable {
        /// Whether discovery lists `dpop_signing_alg_values_supported` (``algorithms``; clients then use DPoP on their own).
        public var advertised: Bool
        /// The proof algorithms accepted and listed: `ES256`, `EdDSA` (Ed25519) or both. Default: `["ES256"]`.
        public var algorithms: [String] = ["ES256"]
        /// Whether every proof must carry the provider's current nonce (RFC 9449 §8, §9): a proof without it is
        /// answered `use_dpop_nonce` with a `DPoP-Nonce` header — 400 at the token endpoint, 401 at resources.
        public var requiresNonce: Bool
        /// How far a proof's `iat` may be from the provider's clock, in seconds.
        public var proofLifetime: TimeInterval

        /// Creates settings.
        public init(advertised: Bool = true, requiresNonce: Bool = false, proofLifetime: TimeInterval = 300) {
            self.advertised = advertised
            self.requiresNonce = requiresNonce
            self.proofLifetime = proofLifetime
        }
    }

    /// Why a DPoP proof was refused, as ``TestIdentityProvider/dpopProofFailures`` records it.
    public enum DPoPProofFailure: String, Sendable, Error {
        /// Not a compact JWS with a JSON header and claims.
        case malformed
        /// `typ` is not `dpop+jwt`.
        case wrongType = "wrong_typ"
        /// `alg` is not one of ``DPoPSettings/algorithms``.
        case unsupportedAlgorithm = "unsupported_alg"
        /// The header's `jwk` is missing, not a public key of the proof's algorithm, or carries a private member.
        case badKey = "bad_jwk"
        /// The signature does not verify with the header's key.
        case badSignature = "bad_signature"
        /// `htm` is not the request's method.
        case wrongMethod = "wrong_htm"
        /// `htu` is not the request's URL (without query and fragment).
        case wrongURI = "wrong_htu"
        /// `iat` is missing or too far from the provider's clock.
        case stale = "stale_iat"
        /// `jti` is missing or was seen before.
        case replayed = "replayed_jti"
        /// `ath` does not hash the presented access token.
        case wrongAccessTokenHash = "wrong_ath"
        /// The proof is signed by another key than the token (or code) is bound to.
        case keyMismatch = "key_mismatch"
        /// The proof lacks the provider's current nonce.
        case missingNonce = "missing_nonce"
        /// A bound token or refresh token came without any proof.
        case missingProof = "missing_proof"
    }

    /// The nonce proofs must carry now (when ``DPoPSettings/requiresNonce``).
    public var currentDPoPNonce: String { dpopNonce }

    /// Issues a new DPoP nonce: proofs with the old one are answered `use_dpop_nonce` from now on.
    public func rotateDPoPNonce() {
        dpopNonce = "n_" + SecureRandom.token(byteCount: 12)
    }

    /// Checks a DPoP proof for a request of `method` to `url` (RFC 9449 §4.3): `typ`, an `alg` of
    /// ``DPoPSettings/algorithms``, a public `jwk` of it (P-256, or OKP Ed25519) that verifies the signature, `htm`, `htu`, `iat` within ``DPoPSettings/proofLifetime``, a fresh `jti`,
    /// `ath` when an access token is presented, and the nonce when one is required. Returns the key's thumbprint.
    func verifyDPoPProof(_ proof: String, method: String, url: URL, accessToken: String?) -> Result<String, DPoPProofFailure> {
        let result = checkDPoPProof(proof, method: method, url: url, accessToken: accessToken)
        if case .failure(let failure) = result { dpopProofFailures.append(failure) }
        return result
    }

    private func checkDPoPProof(_ proof: String, method: String, url: URL, accessToken: String?) -> Result<String, DPoPProofFailure> {
        guard let settings = configuration.dpop,
            let jws = try? CompactJWS(parsing: proof), let claims = try? JSONValue.parseObject(jws.payload)
        else { return .failure(.malformed) }
        guard jws.header.type == "dpop+jwt" else { return .failure(.wrongType) }
        guard settings.algorithms.contains(jws.header.algorithm), let algorithm = JWSAlgorithm(rawValue: jws.header.algorithm),
            algorithm == .es256 || algorithm == .edDSA
        else { return .failure(.unsupportedAlgorithm) }
        guard let jwk = jws.header.members["jwk"]?.objectValue, jwk["d"] == nil, let x = jwk["x"]?.stringValue,
            algorithm == .es256
                // RFC 7518 §6.2.1.2: full-size coordinates. JSONWebKey pads short ones back for interoperability,
                // but the thumbprint below is taken over the strings, so a proof's key must be written in full.
                ? jwk["kty"]?.stringValue == "EC" && jwk["crv"]?.stringValue == "P-256" && Base64URL.decode(x)?.count == 32
                    && jwk["y"]?.stringValue.flatMap({ Base64URL.decode($0) })?.count == 32
                : jwk["kty"]?.stringValue == "OKP" && jwk["crv"]?.stringValue == "Ed25519",
            let key = try? JSONWebKey(jwk)
        else { return .failure(.badKey) }
        guard key.isValidSignature(jws.signature, for: jws.signingInput, algorithm: algorithm) else { return .failure(.badSignature) }
        guard claims["htm"]?.stringValue == method else { return .failure(.wrongMethod) }
        guard let htu = claims["htu"]?.stringValue, htu == DPoPKey.targetURI(url) else { return .failure(.wrongURI) }
        guard let issuedAt = claims["iat"]?.numberValue, abs(issuedAt - clock.now().timeIntervalSince1970) <= settings.proofLifetime else {
            return .failure(.stale)
        }
        if let accessToken {
            guard claims["ath"]?.stringValue == DPoPKey.accessTokenHash(Secret(accessToken)) else { return .failure(.wrongAccessTokenHash) }
        }
        if settings.requiresNonce || behavior.demandsNewDPoPNonceEveryTime {
            if behavior.demandsNewDPoPNonceEveryTime { rotateDPoPNonce() }
            guard claims["nonce"]?.stringValue == dpopNonce else { return .failure(.missingNonce) }
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, seenDPoPProofIDs.insert(jti).inserted else {
            return .failure(.replayed)
        }
        return .success(algorithm == .edDSA ? DPoPKey.thumbprint(ed25519: x) : DPoPKey.thumbprint(x: x, y: jwk["y"]?.stringValue ?? ""))
    }

    /// The token endpoint's answer to a refused proof: 400 `use_dpop_nonce` with the nonce, or `invalid_dpop_proof`.
    func tokenEndpointDPoPError(_ failure: DPoPProofFailure, url: URL) -> (Data, HTTPResponse) {
        if failure == .missingNonce {
            var (data, response) = oauthError("use_dpop_nonce", description: "Authorization server requires nonce in DPoP proof", url: url)
            response.headerFields[HTTPField.Name("DPoP-Nonce")!] = dpopNonce
            return (data, response)
        }
        return oauthError("invalid_dpop_proof", description: failure.rawValue, url: url)
    }

    /// A resource's 401 for a refused proof or bound token (RFC 9449 §7.1, §9): `WWW-Authenticate: DPoP` with the
    /// error, and `DPoP-Nonce` when the nonce was what was missing.
    func resourceDPoPError(_ failure: DPoPProofFailure, url: URL) -> (Data, HTTPResponse) {
        let error = failure == .missingNonce ? "use_dpop_nonce" : failure == .missingProof ? "invalid_token" : "invalid_dpop_proof"
        var headers = ["WWW-Authenticate": "DPoP error=\"\(error)\", algs=\"\((configuration.dpop?.algorithms ?? ["ES256"]).joined(separator: " "))\""]
        if failure == .missingNonce {
            headers["DPoP-Nonce"] = dpopNonce
            if let challenge = behavior.resourceNonceChallenge { headers["WWW-Authenticate"] = challenge }
        }
        return json(["error": .string(error)], status: 401, url: url, headers: headers)
    }
}
