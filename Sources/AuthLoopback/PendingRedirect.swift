import AuthCore
import Foundation

/// The answer the listener waits for: the pending authorization request's `state`, and whether the provider was asked
/// to answer with a form `POST` (`response_mode=form_post`) rather than in the redirect's query.
struct PendingRedirect: Sendable, Equatable {
    let state: String
    let formPost: Bool

    /// The pending answer for the authorization request at `url` with `state`.
    init(state: String, authorizationURL url: URL) {
        self.state = state
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        self.formPost = FormEncoding.decode(query).contains { $0.0 == "response_mode" && $0.1 == "form_post" }
    }

    /// Whether `bytes` (a body the listener cannot parse as a form) contain this state, as it is or percent-encoded:
    /// the state is the request's unguessable value, so only the provider (or the browser it redirected) has it.
    func isNamed(in bytes: [UInt8]) -> Bool {
        guard !state.isEmpty else { return false }
        return [state, FormEncoding.escape(state)].contains { needle in
            let needle = Array(needle.utf8)
            guard needle.count <= bytes.count else { return false }
            return (0...(bytes.count - needle.count)).contains { start in bytes[start..<(start + needle.count)].elementsEqual(needle) }
        }
    }
}
