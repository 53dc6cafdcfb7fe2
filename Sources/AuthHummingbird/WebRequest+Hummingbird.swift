#if HummingbirdSignIn
    public import AuthWebSignIn
    public import Foundation
    public import Hummingbird

    extension WebRequest {
        /// The core's view of a Hummingbird request: method, path, query, header fields, and `body` when the route
        /// collected it.
        public init(_ request: Request, body: Data?) {
            self.init(method: request.method, path: request.uri.path, query: request.uri.query, headerFields: request.headers, body: body)
        }
    }

    extension Response {
        /// A Hummingbird response with the core's status, header fields (every `Set-Cookie`) and body.
        public init(_ response: WebResponse) {
            self.init(status: response.status, headers: response.headerFields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
        }
    }
#endif
