public import AuthCore
import Foundation

// Who signed in: GitHub issues no ID token, so the REST API says it, with the new access token, before anything is
// stored.
extension GitHubProvider {
    /// Reads `GET /user` and `GET /user/emails` with the new access token and returns the user's numeric `id` as the
    /// subject, with `login`, `name` (when set) and the primary **verified** `email` as the profile.
    ///
    /// The numeric id is the subject because a login can be renamed and then taken by someone else; the id never
    /// changes (https://docs.github.com/en/rest/users/users#get-the-authenticated-user). The email is the primary one
    /// only if GitHub verified it: an unverified address proves nothing about who controls it
    /// (https://docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user).
    ///
    /// Every request sends `Accept: application/vnd.github+json`, `X-GitHub-Api-Version` and a `User-Agent`, which
    /// GitHub requires (https://docs.github.com/en/rest/using-the-rest-api/getting-started-with-the-rest-api#user-agent).
    ///
    /// - Throws: `github_no_verified_email` when no primary address is verified, or the list cannot be read (the token
    ///   lacks `user:email`, or a GitHub App lacks the "Email addresses" permission); `invalid_response` for a user
    ///   without a numeric `id` or `login`; the engine's HTTP errors. Nothing is stored then.
    public func resolveIdentity(_ context: IdentityContext) async throws -> ProviderIdentity? {
        let headers = ["X-GitHub-Api-Version": Self.apiVersion, "User-Agent": userAgent]
        let accept = "application/vnd.github+json"
        let userData = try await context.get(api("/user"), endpoint: "github_user", accept: accept, headers: headers)
        guard let user = try? JSONDecoder().decode(GitHubUser.self, from: userData), let subject = user.subject else {
            throw AuthError(.invalidResponse, "GitHub's user API answered without a numeric 'id' and a 'login'.", providerID: Self.id)
        }
        let emailsData: Data
        do {
            emailsData = try await context.get(api("/user/emails?per_page=100"), endpoint: "github_user_emails", accept: accept, headers: headers)
        } catch let error as AuthError where error.code == .httpError {
            throw AuthError(
                .githubNoVerifiedEmail,
                "GitHub did not list the user's email addresses (HTTP \(error.httpStatus.map(String.init) ?? "?")): an OAuth app needs the 'user:email' scope, a GitHub App the \"Email addresses\" permission; nothing was stored.",
                providerID: Self.id,
                httpStatus: error.httpStatus
            )
        }
        guard let emails = try? JSONDecoder().decode([GitHubEmail].self, from: emailsData) else {
            throw AuthError(.invalidResponse, "GitHub's email API did not answer with a list of addresses.", providerID: Self.id)
        }
        guard let primary = emails.first(where: { $0.primary == true && $0.verified == true }), !primary.email.isEmpty else {
            throw AuthError(
                .githubNoVerifiedEmail,
                "The GitHub account has no verified primary email address; verify it at GitHub and sign in again. Nothing was stored.",
                providerID: Self.id
            )
        }
        var profile = ["login": user.login, "email": primary.email]
        if let name = user.name, !name.isEmpty { profile["name"] = name }
        return ProviderIdentity(subject: subject, profile: profile)
    }
}

/// The members of `GET /user` this provider reads.
private struct GitHubUser: Decodable {
    let id: Double
    let login: String
    let name: String?

    /// The numeric id as text, for an integral id GitHub can have issued (positive, below 2^53).
    var subject: String? {
        guard id > 0, id < 9_007_199_254_740_992, id.rounded(.towardZero) == id, !login.isEmpty else { return nil }
        return String(Int64(id))
    }
}

/// One entry of `GET /user/emails`.
private struct GitHubEmail: Decodable {
    let email: String
    let primary: Bool?
    let verified: Bool?
}
