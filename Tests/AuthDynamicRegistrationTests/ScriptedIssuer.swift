import AuthCore
import AuthTesting
import Foundation

/// An issuer at `https://id.example.test` whose registration endpoint echoes the request (RFC 7591 §3.2.1) and then
/// applies `tamper`, so each test changes one field of an otherwise correct answer.
final class ScriptedIssuer: Sendable {
    static let issuer = "https://id.example.test"
    let requests = LockedRequests()
    let tamper: @Sendable (inout [String: JSONValue]) -> Void
    let registrationStatus: Int

    init(status: Int = 201, tamper: @escaping @Sendable (inout [String: JSONValue]) -> Void = { _ in }) {
        self.tamper = tamper
        self.registrationStatus = status
    }

    var transport: InProcessTransport {
        InProcessTransport().adding(host: "id.example.test") { request in
            self.requests.append(request)
            let path = request.url?.path ?? ""
            switch path {
            case "/.well-known/openid-configuration":
                return Self.json([
                    "issuer": .string(Self.issuer), "registration_endpoint": .string(Self.issuer + "/register"),
                    "authorization_endpoint": .string(Self.issuer + "/authorize"), "token_endpoint": .string(Self.issuer + "/token")
                ])
            case "/register", "/register/client-1":
                var answer = (try? JSONValue.parseObject(request.body ?? Data("{}".utf8))) ?? [:]
                answer["client_id"] = "client-1"
                if answer["token_endpoint_auth_method"]?.stringValue != "none" {
                    answer["client_secret"] = "s3cret-value"
                    answer["client_secret_expires_at"] = 0
                }
                answer["registration_access_token"] = "rat-value"
                answer["registration_client_uri"] = .string(Self.issuer + "/register/client-1")
                self.tamper(&answer)
                return Self.json(answer, status: path == "/register" ? self.registrationStatus : 200)
            default:
                return (Data(), .make(status: 404))
            }
        }
    }

    static func json(_ object: [String: JSONValue], status: Int = 200) -> (Data, HTTPResponse) {
        ((try? JSONValue.object(object).jsonData()) ?? Data(), .make(status: status, headers: ["Content-Type": "application/json"]))
    }
}

/// The requests an issuer saw.
final class LockedRequests: Sendable {
    private let state = LockedValue<[CapturedRequest]>([])
    func append(_ request: CapturedRequest) { state.withLock { $0.append(request) } }
    var all: [CapturedRequest] { state.withLock { $0 } }
}
