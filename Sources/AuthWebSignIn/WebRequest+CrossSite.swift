import AuthCore
import Foundation
import HTTPTypes

extension WebRequest {
    /// The content types a page of any site may send without asking the server first (the CORS-safelisted ones a
    /// `<form>` or a no-cors `fetch` produce: https://fetch.spec.whatwg.org/#cors-safelisted-request-header).
    static let crossSiteContentTypes: Set<String> = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]

    /// `Content-Type` without its parameters, lowercased; `nil` when there is none.
    var mediaType: String? {
        headerFields[.contentType].map { $0.split(separator: ";", omittingEmptySubsequences: false).first.map(String.init) ?? "" }?
            .trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Why a web page of another site could have sent this request, or `nil` for a request only an app (or a page of
    /// `appOrigin` itself, with a JSON body) sends: a `Sec-Fetch-Site` other than `same-origin` or `none`, an `Origin`
    /// other than `appOrigin`, or a body whose type a cross-site form or a no-cors `fetch` can produce (or no type).
    /// URLSession and other HTTP clients of apps send neither `Origin` nor `Sec-Fetch-*`.
    func crossSiteRefusal(appOrigin: String) -> AuthError? {
        if let site = headerFields[HTTPField.Name("Sec-Fetch-Site")!] {
            let value = site.trimmingCharacters(in: .whitespaces).lowercased()
            guard value == "same-origin" || value == "none" else {
                return AuthError(.crossSiteRequest, "This route is for apps: a request a page of another site sent (Sec-Fetch-Site: \(value.prefix(40))) is refused.")
            }
        }
        if let origin = headerFields[.origin], origin.lowercased() != appOrigin {
            return AuthError(.crossSiteRequest, "This route is for apps: a request from another origin than the app's is refused.")
        }
        let type = mediaType ?? ""
        if type.isEmpty || Self.crossSiteContentTypes.contains(type) {
            return AuthError(
                .crossSiteRequest,
                "This route is for apps and takes an application/json body; a form (or a body without a type), which any site can post, is refused."
            )
        }
        return nil
    }

    /// The body as a JSON object, when the content type is `application/json`; `nil` otherwise.
    var jsonObject: [String: JSONValue]? {
        guard mediaType == "application/json", let body else { return nil }
        return try? JSONValue.parseObject(body)
    }

    /// The origin (`scheme://host[:port]`, the default port left out, lowercased) of `url`, as a browser writes it in
    /// `Origin`.
    static func origin(of url: URL) -> String {
        let scheme = (url.scheme ?? "").lowercased()
        var origin = scheme + "://" + (url.host ?? "").lowercased()
        if let port = url.port, !(scheme == "https" && port == 443), !(scheme == "http" && port == 80) { origin += ":\(port)" }
        return origin
    }
}
