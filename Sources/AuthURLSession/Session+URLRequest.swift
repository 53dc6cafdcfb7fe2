public import AuthCore
public import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension Session {
    /// Sends a `URLRequest` (its method, URL, header fields and `httpBody`) with the session's access token, as
    /// `Session.send(_:body:)` does: on 401 it refreshes once and retries once.
    ///
    /// - Throws: `invalid_configuration` for a request without a URL or with a method HTTP does not allow (header
    ///   fields whose names HTTP does not allow are not sent); refresh errors; `network_error`.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, let converted = request.httpRequest else {
            throw AuthError(.invalidConfiguration, "The request has no URL or an invalid method.", providerID: providerID)
        }
        let (data, response) = try await send(converted, body: request.httpBody)
        guard let legacy = HTTPURLResponse(httpResponse: response, url: url) else {
            throw AuthError(.invalidResponse, "The response to \(converted.summary) could not be represented.", providerID: providerID)
        }
        return (data, legacy)
    }
}
