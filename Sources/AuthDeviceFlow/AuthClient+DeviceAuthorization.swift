public import AuthCore
import Foundation

extension AuthClient {
    /// Starts a device sign-in (RFC 8628 §3.1): asks the provider's `device_authorization_endpoint` for a device
    /// code and the user code to show.
    ///
    /// - Parameters:
    ///   - scopes: the scopes to request; the provider's configured scopes by default.
    ///   - parameters: extra request parameters the provider documents (never the engine's own).
    /// - Throws: `endpoint_unavailable` when the provider has no device authorization endpoint; `invalid_response`
    ///   for an answer without a device code, a user code, a usable verification URI or a sane lifetime;
    ///   `insecure_endpoint` for a verification URI that is not https (or loopback-IP http); the token-request errors.
    public func startDeviceAuthorization(scopes: [String]? = nil, parameters: [String: String] = [:]) async throws -> DeviceAuthorization {
        do {
            let metadata = try await metadata()
            guard let endpoint = metadata.deviceAuthorizationEndpoint else {
                throw AuthError(
                    .endpointUnavailable, "The provider has no device authorization endpoint (RFC 8628); sign in with a browser instead.", endpoint: "device_authorization_endpoint"
                )
            }
            let requested = scopes ?? provider.client.scopes
            for name in parameters.keys where ["client_id", "scope", "client_secret", "client_assertion", "client_assertion_type"].contains(name) {
                throw AuthError(.invalidConfiguration, "The parameter '\(name)' is set by the engine; remove it from the device authorization parameters.")
            }
            let object = try await postAuthenticatedForm(
                endpoint, endpoint: "device_authorization_endpoint", parameters: [("scope", requested.joined(separator: " "))],
                extraParameters: parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, metadata: metadata,
                what: "device authorization response")
            let authorization = try deviceAuthorization(from: object, metadata: metadata, scopes: requested)
            log(
                .info, "device.started", "Device sign-in started; waiting for the user's approval.",
                ["expires_in": String(Int(authorization.expiresAt.timeIntervalSince(clock.now())))])
            return authorization
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        }
    }

    /// Polls the token endpoint until the user approves or declines the device sign-in, or its code expires
    /// (RFC 8628 §3.4–3.5), then validates and stores the tokens exactly as a code flow's.
    ///
    /// Polls honour the provider's `interval`; `authorization_pending` keeps waiting, `slow_down` adds 5 seconds to
    /// every later interval. An ID token is validated in full (signature, issuer, audience, expiry, `iat`, `at_hash`);
    /// no nonce is checked because the device flow sends none. RFC 8628 defines no ID token and some servers
    /// (django-oauth-toolkit) send none even for `openid`: the session's subject then comes from the user info
    /// endpoint, and an ID token issued on refresh must name the same one.
    ///
    /// - Parameters:
    ///   - authorization: what ``startDeviceAuthorization(scopes:parameters:)`` returned.
    ///   - onPoll: called before each wait (for a "waiting for approval" line with the time left).
    /// - Throws: `access_denied` when the user declines; `device_code_expired`; `user_cancelled` when the task is
    ///   cancelled; the ID token and token-request errors. Nothing is stored when any check fails.
    public func completeDeviceAuthorization(
        _ authorization: DeviceAuthorization,
        onPoll: (@Sendable (DevicePollStatus) -> Void)? = nil
    ) async throws -> Session {
        try await grantSignIn { try await self.pollForApproval(authorization, onPoll: onPoll) }
    }

    /// ``startDeviceAuthorization(scopes:parameters:)``, `prompt` (show the code), then
    /// ``completeDeviceAuthorization(_:onPoll:)``.
    ///
    /// - Parameters:
    ///   - scopes: the scopes to request; the provider's configured scopes by default.
    ///   - prompt: shows ``DeviceAuthorization/userCode`` and ``DeviceAuthorization/verificationURI`` to the user.
    ///   - onPoll: called before each wait.
    public func signInOnDevice(
        scopes: [String]? = nil,
        prompt: @Sendable (DeviceAuthorization) async throws -> Void,
        onPoll: (@Sendable (DevicePollStatus) -> Void)? = nil
    ) async throws -> Session {
        let authorization = try await startDeviceAuthorization(scopes: scopes)
        try await prompt(authorization)
        return try await completeDeviceAuthorization(authorization, onPoll: onPoll)
    }

    /// Polls the token endpoint until the user approves, declines or the code expires, then finishes the sign-in.
    private func pollForApproval(_ authorization: DeviceAuthorization, onPoll: (@Sendable (DevicePollStatus) -> Void)?) async throws -> Session {
        do {
            var interval = authorization.interval
            var polls = 0
            // One key for every poll: the token that the approval finally brings is bound to it.
            let dpopKey = try newDPoPKey(for: authorization.metadata)
            while true {
                let remaining = authorization.expiresAt.timeIntervalSince(clock.now())
                guard remaining > 0 else {
                    throw AuthError(.deviceCodeExpired, "The device code expired before the sign-in was approved; start again.")
                }
                onPoll?(DevicePollStatus(polls: polls, interval: interval, remaining: remaining))
                do {
                    try await options.pollingSleep(interval)
                } catch {
                    throw AuthError(.userCancelled, "The device sign-in was cancelled while waiting for approval.")
                }
                try Task.checkCancellation()
                polls += 1
                let tokens: TokenResponse
                do {
                    tokens = try await requestTokens(.deviceCode(authorization.deviceCode), metadata: authorization.metadata, dpopKey: dpopKey)
                } catch let error as AuthError where error.oauthError == "authorization_pending" {
                    continue
                } catch let error as AuthError where error.oauthError == "slow_down" {
                    interval += .seconds(5)
                    log(.debug, "device.slow_down", "The provider asked to poll more slowly.", ["interval": "\(interval)"])
                    continue
                } catch let error as AuthError where error.oauthError == "access_denied" {
                    throw AuthError(.accessDenied, "The user declined the sign-in on the verification page.", oauthError: "access_denied", httpStatus: error.httpStatus)
                } catch let error as AuthError where error.oauthError == "expired_token" {
                    throw AuthError(
                        .deviceCodeExpired, "The device code expired before the sign-in was approved; start again.", oauthError: "expired_token", httpStatus: error.httpStatus)
                }
                return try await finishDeviceSignIn(tokens, authorization: authorization, dpopKey: dpopKey)
            }
        } catch is CancellationError {
            throw AuthError(.userCancelled, "The device sign-in was cancelled while waiting for approval.", providerID: provider.id)
        }
    }

    private func finishDeviceSignIn(_ tokens: TokenResponse, authorization: DeviceAuthorization, dpopKey: DPoPKey?) async throws -> Session {
        try await admitGrantedTokens(
            tokens, grant: .deviceCode, metadata: authorization.metadata, dpopKey: dpopKey, openIDRequested: authorization.openIDRequested,
            completion: "Signed in on the device.")
    }

    /// Parses and checks a device authorization response (RFC 8628 §3.2).
    private func deviceAuthorization(from object: [String: JSONValue], metadata: ProviderMetadata, scopes: [String]) throws -> DeviceAuthorization {
        guard let deviceCode = object["device_code"]?.stringValue, !deviceCode.isEmpty else {
            throw AuthError(.invalidResponse, "The device authorization response has no 'device_code'.")
        }
        guard let userCode = object["user_code"]?.stringValue, !userCode.isEmpty, userCode.count <= 64 else {
            throw AuthError(.invalidResponse, "The device authorization response has no usable 'user_code'.")
        }
        // `verification_url` is the name some providers (Google) used before RFC 8628 settled on `verification_uri`.
        guard let text = (object["verification_uri"] ?? object["verification_url"])?.stringValue, let verification = URL(string: text),
            verification.scheme != nil
        else {
            throw AuthError(.invalidResponse, "The device authorization response has no absolute 'verification_uri'.")
        }
        // The user opens these: a provider (or an attacker in its place) must not send them to cleartext or `file:`.
        try verification.requireSecureEndpoint("verification_uri", providerID: provider.id)
        var complete: URL?
        if let text = object["verification_uri_complete"]?.stringValue {
            guard let url = URL(string: text), url.scheme != nil else {
                throw AuthError(.invalidResponse, "The device authorization response's 'verification_uri_complete' is not an absolute URL.")
            }
            try url.requireSecureEndpoint("verification_uri_complete", providerID: provider.id)
            complete = url
        }
        guard let lifetime = object["expires_in"]?.lifetimeValue, lifetime > 0 else {
            throw AuthError(.invalidResponse, "The device authorization response's 'expires_in' is not a positive number of seconds.")
        }
        var interval = Duration.seconds(5)
        if let value = object["interval"], value != .null {
            // At least 1 s (a zero interval would hammer the token endpoint), at most 5 minutes.
            guard let seconds = value.lifetimeValue else {
                throw AuthError(.invalidResponse, "The device authorization response's 'interval' is not a number of seconds.")
            }
            interval = .seconds(Int(min(max(seconds, 1), 300)))
        }
        return DeviceAuthorization(
            userCode: ProviderText.sanitized(userCode, limit: 64),
            verificationURI: verification,
            verificationURIComplete: complete,
            expiresAt: clock.now().addingTimeInterval(min(lifetime, 3600)),
            interval: interval,
            scopes: scopes,
            deviceCode: Secret(deviceCode),
            metadata: metadata,
            openIDRequested: scopes.contains("openid")
        )
    }
}
