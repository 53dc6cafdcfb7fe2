import AuthCore
import AuthEmulators
import AuthTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking  // the emulator tool posts notifications; it is a test tool, not a server library
#endif

extension EmulatorGate {
    /// `POST /_emulator/apple-notification` with `username` (a test account), `type` (`email-disabled`,
    /// `email-enabled`, `consent-revoked`, `account-delete`, or another for a hostile test) and optionally `fault`
    /// (`bad-signature`, `wrong-aud`, `wrong-iss`, `events-object`): Apple's server-to-server notification for that
    /// user, `{"payload": "<JWT>"}` POSTed as JSON to the endpoint given with `--notification-uri apple=URL`, as Apple
    /// sends it. Answers with the app's status and body, and the payload sent (a test may send it again to try a
    /// replay). Behind the same gate as the other `/_emulator/` endpoints (no other site, no other `Host`).
    func appleNotification(_ request: CapturedRequest, idp: TestIdentityProvider) async -> (Data, HTTPResponse)? {
        guard request.url?.path.hasSuffix(TestIdentityProvider.emulatorPathPrefix + "apple-notification") == true, request.httpMethod == "POST" else {
            return nil
        }
        guard let uri = notificationURI else {
            return Self.json(
                ["error": "invalid_request", "error_description": "No notification endpoint is registered (auth-emulator emulate --notification-uri apple=URL)."],
                status: 400)
        }
        let form = Dictionary(FormEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self)), uniquingKeysWith: { first, _ in first })
        guard let account = idp.loginAccounts.first(where: { $0.username == form["username"] }) else {
            return Self.json(["error": "invalid_request", "error_description": "username must be one of the test accounts."], status: 400)
        }
        guard let type = form["type"], !type.isEmpty else {
            return Self.json(
                ["error": "invalid_request", "error_description": "type names the event (consent-revoked, account-delete, email-disabled, email-enabled)."], status: 400)
        }
        var fault: TestIdentityProvider.AppleNotificationFault?
        if let name = form["fault"] {
            guard let known = TestIdentityProvider.AppleNotificationFault(rawValue: name) else {
                let names = TestIdentityProvider.AppleNotificationFault.allCases.map(\.rawValue).joined(separator: ", ")
                return Self.json(["error": "invalid_request", "error_description": .string("fault must be one of: \(names)")], status: 400)
            }
            fault = known
        }
        let payload = await idp.appleNotification(type: type, user: account.user, clientID: clientID, fault: fault)
        var post = URLRequest(url: uri)
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = try? JSONValue.object(["payload": .string(payload)]).jsonData()
        do {
            let (body, response) = try await URLSession.shared.data(for: post)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            return Self.json(
                ["sent_to": .string(uri.absoluteString), "status": .number(Double(status)), "body": .string(String(decoding: body, as: UTF8.self)), "payload": .string(payload)],
                status: 200)
        } catch {
            return Self.json(["error": "temporarily_unavailable", "error_description": .string("The app's notification endpoint did not answer.")], status: 502)
        }
    }
}
