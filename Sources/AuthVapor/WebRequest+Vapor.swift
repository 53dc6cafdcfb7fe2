#if VaporSignIn
    public import AuthWebSignIn
    import Foundation
    import HTTPTypes
    public import Vapor

    extension WebRequest {
        /// The core's view of a Vapor request: method, path, query, header fields, and the body when the route
        /// collected it.
        public init(_ request: Request) {
            var headerFields = HTTPFields()
            for (name, value) in request.headers {
                // Vapor's parser only admits valid field names; one that is not cannot be a cookie or a content type.
                guard let fieldName = HTTPField.Name(name) else { continue }
                headerFields.append(HTTPField(name: fieldName, value: value))
            }
            self.init(
                method: HTTPRequest.Method(request.method.rawValue) ?? .get,
                path: request.url.path,
                query: request.url.query,
                headerFields: headerFields,
                body: request.body.data.map { Data($0.readableBytesView) }
            )
        }
    }

    extension Response {
        /// A Vapor response with the core's status, header fields (every `Set-Cookie`, in order) and body.
        public convenience init(_ response: WebResponse) {
            var headers = HTTPHeaders()
            for field in response.headerFields {
                headers.add(name: field.name.rawName, value: field.value)
            }
            self.init(
                status: HTTPResponseStatus(statusCode: response.status.code, reasonPhrase: response.status.reasonPhrase),
                headers: headers,
                body: Response.Body(data: response.body)
            )
        }
    }
#endif
