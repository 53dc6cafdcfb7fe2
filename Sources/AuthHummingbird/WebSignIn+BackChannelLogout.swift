#if WebSignIn
import AuthCore
import Foundation
import Hummingbird

extension WebSignIn {
    /// `POST /auth/{provider}/backchannel-logout` (OpenID Connect Back-Channel Logout 1.0 §2.5): the provider says a
    /// user's session with it ended. The `logout_token` is checked as the engine checks every logout token (signature
    /// with the provider's keys, `iss`, `aud`, `iat`, the event, `sub` and/or `sid`, no `nonce`, a `jti` used once);
    /// then every credential of that user (or provider session) is removed and every web session using one of them
    /// ends — on every instance, since the store is shared. No cookie or CSRF token: the provider calls it directly,
    /// and the signed token is the authentication.
    ///
    /// Answers 200 with no body, or 400 with an OAuth error (§2.8); never caches.
    func backChannelLogout(_ request: Request, context: Context) async throws -> Response {
        let name = context.parameters.get("provider") ?? ""
        guard let client = clients[name] else {
            return Self.backChannelError(status: .notFound, "There is no provider named '\(name)' here.")
        }
        let body = try await request.body.collect(upTo: 16 * 1024)
        guard let token = FormEncoding.decode(String(buffer: body)).first(where: { $0.0 == "logout_token" })?.1, !token.isEmpty else {
            return Self.backChannelError(status: .badRequest, "The request has no logout_token.")
        }
        do {
            let result = try await client.handleBackChannelLogout(token)
            for account in result.endedAccounts {
                try await store.removeSessions(account: account)
                await sessionCache?.forget(account: account)
            }
            return Response(status: .ok, headers: [.cacheControl: "no-store"])
        } catch let error as AuthError where error.code == .storageUnavailable || error.code == .storageFailed {
            // Not the token's fault: the provider may retry (§2.8 leaves retries to it).
            return Self.backChannelError(status: .serviceUnavailable, "\(error.message) (\(error.code.rawValue))")
        } catch let error as AuthError {
            return Self.backChannelError(status: .badRequest, "\(error.message) (\(error.code.rawValue))")
        }
    }

    /// `{"error": "invalid_request", "error_description": …}` with `status`.
    static func backChannelError(status: HTTPResponse.Status, _ description: String) -> Response {
        let body: JSONValue = ["error": "invalid_request", "error_description": .string(description)]
        return Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: (try? body.jsonData()) ?? Data()))
        )
    }
}
#endif
