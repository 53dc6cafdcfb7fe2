public import Foundation
public import HTTPTypes

// Step-up authentication (RFC 9470): a resource's `insufficient_user_authentication` challenge met by one new sign-in.
extension Session {
    /// Sends `request` as ``send(_:body:)`` does; when the resource answers with an RFC 9470 step-up challenge
    /// (`401`, `WWW-Authenticate: Bearer error="insufficient_user_authentication"`), signs the same user in again
    /// through `userAgent` with the challenge's `acr_values` (as essential) and `max_age`, and retries the request
    /// once with the new tokens.
    ///
    /// The new sign-in goes through every check of ``AuthClient/signIn(with:options:)``, and its ID token must name
    /// the signed-in user, carry an `acr` among the challenge's `acr_values` and an `auth_time` within its `max_age`;
    /// only then are its tokens stored (under this session's account) and used. At most one step-up per call: a
    /// second challenge after it is `step_up_loop`, never another sign-in. A request challenged after another caller's
    /// step-up of this session retries with those tokens first, so concurrent challenges share one sign-in.
    ///
    /// - Parameters:
    ///   - request: the request; the access token (and, for a DPoP-bound token, a proof) is added.
    ///   - body: the request body, if any.
    ///   - userAgent: what shows the step-up sign-in to the user (the one the app signs in with).
    ///   - redirectURI: the redirect URI of the step-up sign-in when `userAgent` listens elsewhere than the provider's
    ///     registered one (a loopback agent on an ephemeral port: its `redirectURI`); `nil`: the registered one.
    /// - Throws: the errors of ``send(_:body:)`` other than `step_up_required`; the sign-in's errors (`user_cancelled`,
    ///   …); `step_up_not_satisfied` when the new ID token's `acr` or `auth_time` falls short; `subject_mismatch`
    ///   when another user signed in; `step_up_loop` when the resource challenges the retried request too. Nothing
    ///   is stored when the step-up fails; the session keeps its tokens.
    ///
    /// ```swift
    /// let (data, response) = try await session.send(HTTPRequest(method: .post, url: transferURL), body: body, steppingUpWith: userAgent)
    /// ```
    public func send(
        _ request: HTTPRequest, body: Data? = nil, steppingUpWith userAgent: any UserAgent, redirectURI: URL? = nil
    ) async throws -> (Data, HTTPResponse) {
        let first = try await sendOrChallenge(request, body: body)
        guard case .challenged(var requirement, let stepUpsBefore) = first else { return try answered(first) }
        // Another caller stepped up (or is stepping up) while this request was on its way: its tokens may already
        // satisfy the resource, so they are tried first.
        if stepUps != stepUpsBefore || stepUpInFlight != nil {
            if let running = stepUpInFlight { adoptStepUp(try await running.value) }
            let retried = try await sendOrChallenge(request, body: body)
            guard case .challenged(let again, _) = retried else { return try answered(retried) }
            requirement = again
        }
        try await stepUp(to: requirement, with: userAgent, redirectURI: redirectURI)
        return try answered(await sendOrChallenge(request, body: body))
    }

    /// The answer of `outcome`; a challenge (after the step-up) is `step_up_loop`.
    private func answered(_ outcome: Outcome) throws -> (Data, HTTPResponse) {
        switch outcome {
        case .answered(let data, let response): return (data, response)
        case .challenged(let again, _):
            client.log(.warning, "request.step_up_loop", "The resource challenged the request again after a step-up; not signing in a second time.")
            throw again.error(
                .stepUpLoop,
                "The resource asked for a step-up again after the user authenticated as it asked (RFC 9470); not signing in a second time.",
                providerID: providerID
            )
        }
    }

    /// One step-up sign-in for `requirement` through `userAgent`, its tokens stored under this session's account and
    /// adopted; concurrent callers join the one in flight.
    private func stepUp(to requirement: StepUpRequirement, with userAgent: any UserAgent, redirectURI: URL?) async throws {
        if let running = stepUpInFlight { return adoptStepUp(try await running.value) }
        var options = SignInOptions.stepUp(to: requirement, subject: credential.subject, accountName: credential.accountName)
        options.redirectURI = redirectURI
        client.log(.info, "signin.step_up", "Signing the user in again for a resource's step-up challenge.")
        let client = client
        let task = Task { () async throws -> StepUpResult in
            let stepped = try await client.signIn(with: userAgent, options: options)
            return StepUpResult(credential: await stepped.credential, claims: await stepped.idTokenClaims)
        }
        stepUpInFlight = task
        defer { stepUpInFlight = nil }
        adoptStepUp(try await task.value)
    }
}
