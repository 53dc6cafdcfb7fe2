import Foundation

// The identity gate: where every way a user becomes signed in ends, and where a refresh's new ID token is checked
// again. A rule about who may be stored — the provider's identity rule, the subject, the profile — is written here
// once, so it holds for each entrance without anyone remembering to add it.
extension AuthClient {
    /// Signs the user of `evidence` in, in this order: the provider's identity rule
    /// (``AuthProvider/validateIdentity(_:)``: who may sign in at all), the credential, the provider's identity
    /// (``AuthProvider/resolveIdentity(_:)``), storage, the `signedIn` event. Nothing is stored when a step throws.
    func admit(_ evidence: SignInEvidence) async throws -> Session {
        try provider.validateIdentity(evidence.claims)
        let deviceSecret = try checkedDeviceSecret(evidence.tokens, claims: evidence.claims)
        var credential = makeCredential(from: evidence.tokens, claims: evidence.claims, issuer: evidence.metadata.issuer, dpopKey: evidence.dpopKey)
        credential.deviceSecret = deviceSecret
        if credential.subject == nil { credential.subject = evidence.subject }
        try await resolveIdentity(
            into: &credential,
            IdentityContext(
                grant: evidence.grant, tokens: evidence.tokens, idTokenClaims: evidence.claims,
                authorizationResponse: evidence.authorizationResponse, metadata: evidence.metadata, http: providerHTTP
            )
        )
        credential.accountName = evidence.accountName
        credential.annotations = evidence.annotations
        try await store(credential)
        log(
            .info, "signin.completed", evidence.completion,
            ["grant": evidence.grant.rawValue, "expires_in": evidence.tokens.expiresIn.map { String(format: "%.0f", $0) } ?? "unknown"])
        await eventHub.publish(AuthEvent(.signedIn, account: credential.storageKey))
        // Without verified claims (an ID token a provider's module had vouched for elsewhere: Grab's endpoint), the
        // session reads the stored token's claims, as a restored session does.
        return Session(client: self, credential: credential, idTokenClaims: evidence.claims ?? Self.storedClaims(of: credential))
    }

    /// The provider's identity rule alone, for an entrance that must know before it spends something (a native app's
    /// authorization code): ``admit(_:)`` runs it again on what is stored.
    func checkIdentityRule(_ claims: IDTokenClaims?) throws {
        try provider.validateIdentity(claims)
    }

    /// Signs in with tokens a provider's own module redeemed and vouched for, through the identity gate like every
    /// other entrance: Grab's facade, which sends the vendor's token request and may ask Grab's verification endpoint
    /// about the ID token (`claims` is then `nil` and `subject` is what Grab vouched for).
    ///
    /// - Throws: the provider's identity rule, its identity, storage errors; nothing is stored then.
    package func admitVerifiedTokens(
        _ tokens: TokenResponse, claims: IDTokenClaims?, subject: String?, metadata: ProviderMetadata, annotations: [String: String]? = nil
    ) async throws -> Session {
        try await signInEntrance {
            try await admit(
                SignInEvidence(grant: .authorizationCode, tokens: tokens, claims: claims, metadata: metadata, subject: subject, annotations: annotations)
            )
        }
    }

    /// Runs a sign-in entrance: its errors are attributed to the provider and logged once as `signin.failed`.
    func signInEntrance<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as AuthError {
            let attributed = error.attributed(to: provider.id)
            log(.notice, "signin.failed", attributed.message, ["code": attributed.code.rawValue])
            throw attributed
        }
    }

    /// Checks a refreshed ID token's identity as a sign-in's is checked: the same issuer and subject as the signed-in
    /// user (OpenID Connect Core §12.2: `iss` and `sub` as in the ID token of the original authentication;
    /// `subject_mismatch` otherwise), then the provider's identity rule.
    ///
    /// The two refusals differ in what follows. Another user or issuer — with Microsoft's multi-tenant endpoints,
    /// another tenant's issuer — is the provider's mistake (or an attack) about this one answer: the refresh is refused
    /// and the stored credential is left as it was, still signed in. A refusal by the identity rule for the same user of
    /// the same issuer — a Google account no longer in the Workspace domain, a Microsoft tenant the app no longer accepts
    /// — is the provider saying, in a token it signed, that this user may no longer be signed in: the error carries
    /// ``AuthEvent/SignOutReason/identityRejected`` and the caller signs the user out.
    func recheckIdentity(_ claims: IDTokenClaims, of current: Credential) throws {
        // With an issuer template, `iss` names the token's own tenant and `verify` checked it only against the token's
        // own claim: the signed-in user's tenant is the stored ID token's (a credential keeps the configured issuer).
        // Other providers' `iss` is compared with the configured issuer under their policy (Google has two spellings).
        let policy = provider.idTokenPolicy
        let signedInIssuer = policy.issuerTemplate == nil ? nil : Self.storedClaims(of: current)?.issuer
        guard policy.tokenIssuerMatches(claims.issuer, expected: current.issuer, claim: { claims[$0]?.stringValue }),
            signedInIssuer == nil || claims.issuer == signedInIssuer,
            claims.subject == current.subject
        else {
            throw AuthError(.subjectMismatch, "The refreshed ID token names another user or issuer than the signed-in one.", endpoint: "token_endpoint")
        }
        do {
            try provider.validateIdentity(claims)
        } catch var error as AuthError {
            error.signOutReason = .identityRejected
            throw error
        }
    }

    /// The credential to store for `tokens`: the subject from the verified claims, the expiry from the client's clock.
    func makeCredential(from tokens: TokenResponse, claims: IDTokenClaims?, issuer: String, dpopKey: DPoPKey? = nil) -> Credential {
        let now = clock.now()
        return Credential(
            providerID: provider.id,
            issuer: issuer,
            clientID: provider.client.clientID,
            subject: claims?.subject,
            accessToken: tokens.accessToken,
            tokenType: tokens.tokenType,
            refreshToken: tokens.refreshToken,
            idToken: tokens.idToken,
            expiresAt: tokens.expiresIn.map { now.addingTimeInterval($0) },
            scopes: tokens.scope.map { $0.split(separator: " ").map(String.init) } ?? provider.client.scopes,
            updatedAt: now,
            dpopKey: dpopKey
        )
    }

    /// Asks the provider for the identity its ID token does not give (``AuthProvider/resolveIdentity(_:)``) and
    /// records it in `credential`: the subject when the ID token gave none (a differing one is refused), the profile.
    ///
    /// The profile is merged over the one already stored for the same user (``storedProfile(for:subject:)``), new
    /// values winning: a provider that says some things only once — Apple posts the user's name on the first sign-in
    /// only — keeps them across later sign-ins.
    func resolveIdentity(into credential: inout Credential, _ context: IdentityContext) async throws {
        guard let identity = try await provider.resolveIdentity(context) else { return }
        guard !identity.subject.isEmpty else {
            throw AuthError(.missingClaim, "The provider's identity has no user id.", providerID: provider.id)
        }
        if let subject = credential.subject, subject != identity.subject {
            throw AuthError(.subjectMismatch, "The provider's identity names another user than the ID token.", providerID: provider.id)
        }
        credential.subject = identity.subject
        var profile = await storedProfile(for: credential, subject: identity.subject)
        profile.merge(identity.profile) { _, new in new }
        credential.profile = profile.isEmpty ? nil : profile
    }

    /// The profile stored with the credential `credential` would replace (same provider, issuer, client and account),
    /// when that credential belongs to `subject`; empty otherwise. A storage that cannot be read gives none: the sign-in
    /// then stores what this one said, as before the merge existed.
    private func storedProfile(for credential: Credential, subject: String) async -> [String: String] {
        var key = credential
        key.subject = subject
        guard let stored = try? await storage.credential(for: key.storageKey), stored.subject == subject else { return [:] }
        return stored.profile ?? [:]
    }

    /// Stores `credential` under its storage key; a storage failure that is not an ``AuthError`` becomes `storage_failed`.
    package func store(_ credential: Credential) async throws {
        do {
            try await storage.store(credential, for: credential.storageKey)
        } catch let error as AuthError {
            throw error
        } catch {
            throw AuthError(.storageFailed, "The credential could not be stored.", underlying: error)
        }
    }
}
