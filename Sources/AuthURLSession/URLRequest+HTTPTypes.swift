import AuthCore
import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// `request` with `body`, as URLSession sends it.
    ///
    /// - Throws: `invalid_configuration` for a request without a URL.
    init(_ request: HTTPRequest, body: Data?) throws {
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw AuthError(.invalidConfiguration, "\(request.summary) has no URL to send to.")
        }
        urlRequest.httpBody = body
        self = urlRequest
    }
}

extension HTTPURLResponse {
    /// This response as swift-http-types' `HTTPResponse`.
    ///
    /// - Throws: `invalid_response` for a status outside 0–999 (which `HTTPResponse` cannot hold).
    func converted(answering request: HTTPRequest) throws -> HTTPResponse {
        guard let response = httpResponse else {
            throw AuthError(.invalidResponse, "\(request.summary) answered with a status outside 0–999.")
        }
        return response
    }
}
