import AuthCore
import AuthWebSignIn
import Foundation
import Testing

@Suite("web sign-in core: request values")
struct WebRequestTests {
    @Test("The first cookie of a name wins, whitespace and other cookies aside; a name that only prefixes another does not match")
    func cookies() {
        let request = WebRequest(
            method: .get, path: "/",
            headerFields: [.cookie: "a=1; __Host-auth_session_x=no;  __Host-auth_session=first; __Host-auth_session=second"]
        )
        #expect(request.cookie("__Host-auth_session") == "first")
        #expect(request.cookie("a") == "1")
        #expect(request.cookie("missing") == nil)
    }
}
