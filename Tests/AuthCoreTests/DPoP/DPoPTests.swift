import AuthCore
import AuthDeviceFlow
import AuthFileStorage
import AuthTesting
import Foundation
import Testing

@Suite("DPoP sender-constrained tokens (RFC 9449)")
struct DPoPTests {
    private let dpopHeader = HTTPField.Name("DPoP")!

    @Test("Advertised: the code is bound (dpop_jkt), the tokens are DPoP, and token, user info and resource requests carry proofs")
    func boundEndToEnd() async throws {
        let fixture = DPoPFixture()
        let session = try await fixture.signIn()
        let credential = await session.credential
        let key = try #require(credential.dpopKey)
        #expect(credential.tokenType == "DPoP")
        #expect(try await fixture.storage.credential(for: credential.storageKey)?.dpopKey == key)

        // The token request proved the key.
        let token = try #require(await fixture.transport.exchanges(pathSuffix: "/token").first)
        let proof = try #require(token.request.value(forHTTPHeaderField: "DPoP"))
        let (header, claims) = try DPoPFixture.decode(proof)
        #expect(header["typ"] == "dpop+jwt" && header["alg"] == "ES256")
        #expect(header["jwk"]?.objectValue?["d"] == nil, "the proof carries the public key only")
        #expect(claims["htm"] == "POST")
        #expect(claims["htu"]?.stringValue == fixture.idp.endpoint("/token").absoluteString)
        #expect(claims["iat"]?.numberValue == fixture.clock.now().timeIntervalSince1970.rounded(.down))
        #expect(claims["ath"] == nil && claims["jti"]?.stringValue?.isEmpty == false)

        // User info: the DPoP scheme and a proof with ath.
        _ = try await session.userInfo()
        let userInfo = try #require(await fixture.transport.exchanges(pathSuffix: "/userinfo").last)
        let accessToken = credential.accessToken.reveal()
        #expect(userInfo.request.value(forHTTPHeaderField: "Authorization") == "DPoP \(accessToken)")
        let userInfoClaims = try DPoPFixture.decode(try #require(userInfo.request.value(forHTTPHeaderField: "DPoP"))).claims
        #expect(userInfoClaims["htm"] == "GET")
        #expect(userInfoClaims["ath"]?.stringValue == DPoPKey.accessTokenHash(credential.accessToken))

        // A protected resource sees the key the token is bound to; the query is not part of htu.
        let resource = fixture.idp.endpoint("/api/resource?page=2")
        let (body, response) = try await session.send(HTTPRequest(method: .get, url: resource))
        #expect(response.status == .ok)
        #expect(try JSONValue.parseObject(body)["jkt"]?.stringValue == key.thumbprint)
        let sent = try #require(await fixture.transport.exchanges(pathSuffix: "/resource").last)
        let resourceClaims = try DPoPFixture.decode(try #require(sent.request.value(forHTTPHeaderField: "DPoP"))).claims
        #expect(resourceClaims["htu"]?.stringValue == fixture.idp.endpoint("/api/resource").absoluteString)

        // A refresh proves the same key and keeps it.
        let refreshed = try await session.refresh()
        #expect(refreshed.tokenType == "DPoP" && refreshed.dpopKey == key)
        let refreshProof = try #require(await fixture.transport.exchanges(pathSuffix: "/token").last?.request.value(forHTTPHeaderField: "DPoP"))
        #expect(try DPoPFixture.decode(refreshProof).header["jwk"] == DPoPFixture.decode(proof).header["jwk"])
        #expect(await fixture.idp.dpopProofFailures.isEmpty)
    }

    @Test("The authorization request names the key's thumbprint as dpop_jkt, and each sign-in has a new key")
    func authorizationRequestBindsTheCode() async throws {
        let fixture = DPoPFixture()
        let first = try await fixture.client.prepareSignIn()
        let second = try await fixture.client.prepareSignIn()
        let firstJKT = try #require(first.url.queryParameters["dpop_jkt"])
        #expect(firstJKT != second.url.queryParameters["dpop_jkt"])
        let session = try await fixture.client.completeSignIn(redirect: try await fixture.agent.authorize(first))
        #expect(await session.credential.dpopKey?.thumbprint == firstJKT)
    }

    @Test("A key survives storage: a restored session still proves possession")
    func keyPersists() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dpop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = DPoPFixture(storage: FileTokenStorage(directory: directory))
        let key = try #require(await fixture.signIn().credential.dpopKey)
        let relaunched = DPoPFixture.client(
            usage: .whenAdvertised, transport: fixture.transport, storage: FileTokenStorage(directory: directory),
            logger: fixture.logger, clock: fixture.clock
        )
        let restored = try #require(try await relaunched.restoreSession())
        #expect(await restored.credential.dpopKey == key)
        let (_, response) = try await restored.send(HTTPRequest(method: .get, url: fixture.idp.endpoint("/api/resource")))
        #expect(response.status == .ok)
    }

    @Test("A device sign-in (RFC 8628) binds its tokens too: every poll proves the same key, and user info accepts it")
    func deviceFlow() async throws {
        let approval = DeviceApproval()
        var options = AuthClient.Options()
        options.pollingSleep = { _ in await approval.approveIfShown() }
        let fixture = DPoPFixture(server: .init(requiresNonce: true), options: options)
        await approval.set(idp: fixture.idp)
        let session = try await fixture.client.signInOnDevice { await approval.show($0.userCode) }
        let credential = await session.credential
        let key = try #require(credential.dpopKey)
        #expect(credential.tokenType == "DPoP")
        let polls = await fixture.tampering.proofs.filter { $0.path.hasSuffix("/token") }.map(\.proof)
        #expect(polls.count == 2, "one use_dpop_nonce, then the approved poll")
        for proof in polls {
            let jwk = try #require(try DPoPFixture.decode(proof).header["jwk"]?.objectValue)
            #expect(DPoPKey.thumbprint(x: jwk["x"]?.stringValue ?? "", y: jwk["y"]?.stringValue ?? "") == key.thumbprint)
        }
        _ = try await session.userInfo()
        #expect(try await fixture.storage.credential(for: credential.storageKey)?.dpopKey == key)
    }

    @Test("Not advertised and not required: bearer tokens, no proof, no dpop_jkt")
    func notAdvertised() async throws {
        let fixture = DPoPFixture(server: nil)
        let request = try await fixture.client.prepareSignIn()
        #expect(request.url.queryParameters["dpop_jkt"] == nil)
        let session = try await fixture.client.completeSignIn(redirect: try await fixture.agent.authorize(request))
        let credential = await session.credential
        #expect(credential.tokenType == "Bearer" && credential.dpopKey == nil)
        #expect(await fixture.tampering.proofs.isEmpty)
    }

    @Test("dpop: false keeps bearer tokens even where the provider offers DPoP")
    func neverUsed() async throws {
        let fixture = DPoPFixture(usage: .never)
        let session = try await fixture.signIn()
        #expect(await session.credential.tokenType == "Bearer")
        #expect(await fixture.tampering.proofs.isEmpty)
    }

    @Test("Hostile: a Bearer token in answer to a proof (dpop: true, a server that ignores DPoP) is dpop_not_bound, nothing stored")
    func bearerWhenDPoPRequired() async throws {
        let fixture = DPoPFixture(server: nil, usage: .always)
        let error = await authError { _ = try await fixture.signIn() }
        #expect(error?.code == .dpopNotBound)
        #expect(try await fixture.storedCount() == 0)
        #expect(await fixture.tampering.proofs.count == 1, "the proof was sent")
    }

    @Test("Hostile: a server that advertises DPoP but answers a proof with a Bearer token is dpop_not_bound, nothing stored")
    func bearerDespiteAdvertised() async throws {
        let fixture = DPoPFixture()
        await fixture.idp.update { $0.issuesBearerDespiteDPoP = true }
        let error = await authError { _ = try await fixture.signIn() }
        #expect(error?.code == .dpopNotBound)
        #expect(error?.message.contains("not stored") == true)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("Hostile: a DPoP token that no proof asked for is unsupported_token_type, nothing stored")
    func unrequestedDPoPToken() async throws {
        let fixture = DPoPFixture(server: nil)
        await fixture.idp.update { $0.tokenResponseOverrides["token_type"] = "DPoP" }
        let error = await authError { _ = try await fixture.signIn() }
        #expect(error?.code == .unsupportedTokenType)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("dpop: true against a provider that accepts only other proof algorithms is a configuration error before anything is sent")
    func requiredButUnsupportedAlgorithm() async throws {
        let fixture = DPoPFixture(usage: .always)
        await fixture.idp.update { $0.discoveryOverrides["dpop_signing_alg_values_supported"] = ["RS256"] }
        let error = await authError { _ = try await fixture.client.prepareSignIn() }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("RS256") == true)
    }

    @Test("Nonce: the token endpoint's use_dpop_nonce is retried once with its nonce; a resource's 401 nonce challenge too")
    func serverNonces() async throws {
        let fixture = DPoPFixture(server: .init(requiresNonce: true))
        let session = try await fixture.signIn()
        let tokenRequests = await fixture.transport.exchanges(pathSuffix: "/token")
        #expect(tokenRequests.map(\.status) == [400, 200])
        let nonce = await fixture.idp.currentDPoPNonce
        let retried = try DPoPFixture.decode(try #require(tokenRequests.last?.request.value(forHTTPHeaderField: "DPoP"))).claims
        #expect(retried["nonce"]?.stringValue == nonce)

        // The authorization server's nonce is also the resource's here (one host); a new one is asked for and used.
        await fixture.idp.rotateDPoPNonce()
        let (_, response) = try await session.send(HTTPRequest(method: .get, url: fixture.idp.endpoint("/api/resource")))
        #expect(response.status == .ok)
        #expect(await fixture.transport.exchanges(pathSuffix: "/resource").map(\.status) == [401, 200])
        // The refresh uses the nonce it already knows: one request.
        try await session.refresh()
        #expect(await fixture.transport.exchanges(pathSuffix: "/token").map(\.status) == [400, 200, 200])
        #expect(await fixture.idp.dpopProofFailures == [.missingNonce, .missingNonce])
    }

    @Test(
        "A resource's nonce demand is read as a challenge: DPoP error=use_dpop_nonce in any case or order is retried with the nonce; the words elsewhere are a plain 401 (refresh, then retry)",
        arguments: [
            (#"dpop algs="ES256", ERROR="use_dpop_nonce""#, true),
            (#"Bearer realm="api", DPoP error="use_dpop_nonce""#, true),
            (#"Bearer error="invalid_token", error_description="use_dpop_nonce""#, false),
            (#"Bearer error="use_dpop_nonce""#, false),
            (#"DPoP error="use_dpop_nonce"#, false)
        ])
    func resourceNonceChallengeIsParsed(challenge: String, isNonceDemand: Bool) async throws {
        let fixture = DPoPFixture(server: .init(requiresNonce: true))
        let session = try await fixture.signIn()
        let tokenRequestsBefore = await fixture.transport.exchanges(pathSuffix: "/token").count
        await fixture.idp.rotateDPoPNonce()
        await fixture.idp.update { $0.resourceNonceChallenge = challenge }
        let (_, response) = try await session.send(HTTPRequest(method: .get, url: fixture.idp.endpoint("/api/resource")))
        // Both ways end in one retry that succeeds (the DPoP-Nonce header is remembered either way); what differs is
        // whether the token was refreshed first — a nonce demand needs no new token.
        #expect(response.status == .ok)
        #expect(await fixture.transport.exchanges(pathSuffix: "/resource").map(\.status) == [401, 200])
        let refreshes = await fixture.transport.exchanges(pathSuffix: "/token").count - tokenRequestsBefore
        #expect(refreshes == (isNonceDemand ? 0 : 1))
    }

    @Test("Each WWW-Authenticate field is read on its own: a malformed one (another layer's) does not hide another field's nonce demand")
    func nonceDemandPerField() {
        var response = HTTPResponse(status: .unauthorized)
        response.headerFields.append(HTTPField(name: .wwwAuthenticate, value: #"Basic realm="unterminated"#))
        #expect(!AuthClient.demandsDPoPNonce(response))
        response.headerFields.append(HTTPField(name: .wwwAuthenticate, value: #"DPoP error="use_dpop_nonce", algs="ES256""#))
        #expect(AuthClient.demandsDPoPNonce(response))
    }

    @Test("Hostile: a server that never settles on a nonce: dpop_proof_rejected after exactly one retry, nothing stored")
    func nonceNeverSettles() async throws {
        let fixture = DPoPFixture()
        await fixture.idp.update { $0.demandsNewDPoPNonceEveryTime = true }
        let error = await authError { _ = try await fixture.signIn() }
        #expect(error?.code == .dpopProofRejected)
        #expect(error?.oauthError == "use_dpop_nonce")
        #expect(await fixture.transport.exchanges(pathSuffix: "/token").count == 2)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("Hostile: a refresh proof signed by another key is refused (invalid_dpop_proof); the refresh token is not spent")
    func refreshWithAnotherKey() async throws {
        let fixture = DPoPFixture()
        let session = try await fixture.signIn()
        let before = await session.credential
        let url = fixture.idp.endpoint("/token")
        let clock = fixture.clock
        await fixture.tampering.rewriteNext("/token") { request in
            var forged = request
            forged.headerFields[HTTPField.Name("DPoP")!] = try! DPoPKey.generate().proof(method: "POST", url: url, now: clock.now())
            return forged
        }
        let error = await authError { try await session.refresh() }
        #expect(error?.code == .dpopProofRejected)
        #expect(error?.oauthError == "invalid_dpop_proof")
        #expect(await fixture.idp.dpopProofFailures == [.keyMismatch])
        #expect(try await fixture.storage.credential(for: before.storageKey) == before, "nothing new was stored")
        // The honest client's next refresh still works: the forged attempt spent nothing.
        let refreshed = try await session.refresh()
        #expect(refreshed.refreshToken != before.refreshToken)
    }

    @Test("Hostile: a replayed proof (a jti already used) is refused; nothing stored")
    func replayedProof() async throws {
        let fixture = DPoPFixture()
        let session = try await fixture.signIn()
        let before = await session.credential
        let stolen = try #require(await fixture.tampering.proofs.first { $0.path.hasSuffix("/token") }?.proof)
        await fixture.tampering.rewriteNext("/token") { request in
            var replayed = request
            replayed.headerFields[HTTPField.Name("DPoP")!] = stolen
            return replayed
        }
        let error = await authError { try await session.refresh() }
        #expect(error?.code == .dpopProofRejected)
        #expect(await fixture.idp.dpopProofFailures == [.replayed])
        #expect(try await fixture.storage.credential(for: before.storageKey) == before)
    }

    @Test("Hostile: a proof for another URL (htu) or method (htm) is refused")
    func wrongTarget() async throws {
        let fixture = DPoPFixture()
        let session = try await fixture.signIn()
        let key = try #require(await session.credential.dpopKey)
        let clock = fixture.clock
        let elsewhere = URL(string: "https://evil.example/token")!
        await fixture.tampering.rewriteNext("/token") { request in
            var forged = request
            forged.headerFields[HTTPField.Name("DPoP")!] = try! key.proof(method: "POST", url: elsewhere, now: clock.now())
            return forged
        }
        #expect(await authError { try await session.refresh() }?.code == .dpopProofRejected)
        let tokenURL = fixture.idp.endpoint("/token")
        await fixture.tampering.rewriteNext("/token") { request in
            var forged = request
            forged.headerFields[HTTPField.Name("DPoP")!] = try! key.proof(method: "GET", url: tokenURL, now: clock.now())
            return forged
        }
        #expect(await authError { try await session.refresh() }?.code == .dpopProofRejected)
        #expect(await fixture.idp.dpopProofFailures == [.wrongURI, .wrongMethod])
    }

    @Test("Hostile: a stale proof (iat ten minutes old) is refused")
    func staleProof() async throws {
        let fixture = DPoPFixture()
        let session = try await fixture.signIn()
        let key = try #require(await session.credential.dpopKey)
        let url = fixture.idp.endpoint("/token")
        let old = fixture.clock.now().addingTimeInterval(-600)
        await fixture.tampering.rewriteNext("/token") { request in
            var forged = request
            forged.headerFields[HTTPField.Name("DPoP")!] = try! key.proof(method: "POST", url: url, now: old)
            return forged
        }
        #expect(await authError { try await session.refresh() }?.code == .dpopProofRejected)
        #expect(await fixture.idp.dpopProofFailures == [.stale])
    }

    @Test("Resource server: a stolen DPoP token is useless as a bearer token, with another key's proof, or with another token's ath")
    func stolenTokenAtResource() async throws {
        let fixture = DPoPFixture()
        let session = try await fixture.signIn()
        let credential = await session.credential
        let url = fixture.idp.endpoint("/api/resource")
        let transport = fixture.idp.transport

        var asBearer = HTTPRequest(method: .get, url: url)
        asBearer.headerFields[.authorization] = "Bearer \(credential.accessToken.reveal())"
        #expect(try await transport.send(asBearer, body: nil).1.status == .unauthorized)

        var otherKey = HTTPRequest(method: .get, url: url)
        otherKey.headerFields[.authorization] = "DPoP \(credential.accessToken.reveal())"
        otherKey.headerFields[dpopHeader] = try DPoPKey.generate().proof(method: "GET", url: url, accessToken: credential.accessToken, now: fixture.clock.now())
        #expect(try await transport.send(otherKey, body: nil).1.status == .unauthorized)

        var otherToken = HTTPRequest(method: .get, url: url)
        otherToken.headerFields[.authorization] = "DPoP \(credential.accessToken.reveal())"
        otherToken.headerFields[dpopHeader] = try #require(credential.dpopKey).proof(method: "GET", url: url, accessToken: Secret("another"), now: fixture.clock.now())
        #expect(try await transport.send(otherToken, body: nil).1.status == .unauthorized)

        #expect(await fixture.idp.dpopProofFailures == [.missingProof, .keyMismatch, .wrongAccessTokenHash])
    }

    @Test("Neither the key nor a proof reaches the log or a description")
    func nothingSecretPrinted() async throws {
        let fixture = DPoPFixture()
        let session = try await fixture.signIn()
        let credential = await session.credential
        let key = try #require(credential.dpopKey)
        let raw = Base64URL.encode(key.rawRepresentation)
        #expect(!"\(key)".contains(raw) && !String(reflecting: key).contains(raw) && !"\(credential)".contains(raw))
        let proofs = await fixture.tampering.proofs.map(\.proof)
        #expect(!proofs.isEmpty)
        for record in fixture.logger.records {
            let text = "\(record.message) \(record.metadata)"
            #expect(!text.contains(raw))
            for proof in proofs { #expect(!text.contains(proof)) }
        }
    }

    @Test("A stored DPoP token without its key, or a key with a bearer token, is storage_corrupted")
    func corruptedStorage() throws {
        var credential = Credential(
            providerID: "plain", issuer: "https://idp.example.test", clientID: "c", subject: "s",
            accessToken: Secret("at"), tokenType: "DPoP", updatedAt: Date()
        )
        #expect(throws: AuthError.self) { try credential.validatedForUse() }
        credential.tokenType = "Bearer"
        credential.dpopKey = .generate()
        #expect((try? credential.validatedForUse()) == nil)
        credential.tokenType = "DPoP"
        #expect(try credential.validatedForUse() == credential)
        // Round trip through the storage encoding.
        let decoded = try JSONDecoder().decode(Credential.self, from: JSONEncoder().encode(credential))
        #expect(decoded.dpopKey == credential.dpopKey)
        #expect(throws: AuthError.self) { try DPoPKey(rawRepresentation: Data(repeating: 0, count: 32)) }
    }

    @Test("The dpop configuration key: true, false, when_advertised, and a clear error otherwise")
    func configurationKey() throws {
        #expect(try ProviderConfiguration(["dpop": true]).dpopUsage() == .always)
        #expect(try ProviderConfiguration(["dpop": false]).dpopUsage() == .never)
        #expect(try ProviderConfiguration([:]).dpopUsage() == .whenAdvertised)
        #expect(try ProviderConfiguration(["dpop": "when_advertised"]).dpopUsage() == .whenAdvertised)
        let error = try #require(throws: AuthError.self) { try ProviderConfiguration(["dpop": "yes"]).dpopUsage() }
        #expect(error.code == .invalidConfiguration && error.message.contains("dpop"))
    }

    @Test("The JWK thumbprint (RFC 7638) of RFC 9449's example key is the jkt its examples publish")
    func thumbprintVector() {
        // RFC 9449 §4.1's example proof key; §6.1's `cnf.jkt` for it.
        let x = "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs"
        let y = "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"
        #expect(DPoPKey.thumbprint(x: x, y: y) == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
    }
}

/// Approves a device code once the client has shown it (as a person on a phone would).
private actor DeviceApproval {
    private var idp: TestIdentityProvider?
    private var userCode: String?

    func set(idp: TestIdentityProvider) { self.idp = idp }
    func show(_ code: String) { userCode = code }
    func approveIfShown() async {
        if let userCode { _ = await idp?.approveDevice(userCode: userCode) }
    }
}
