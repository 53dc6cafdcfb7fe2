import AuthApple
import AuthCore
import Foundation
import Testing

/// The rule `WebAuthenticationSessionUserAgent` resumes its sign-in by: exactly once, whichever of the completion
/// handler and the app's cancellation comes first (Apple does not call the handler after `cancel()`). A checked
/// continuation traps when resumed twice, so each test here would crash without the rule, and would hang if the
/// cancellation did not resume it.
@Suite("AuthApple: a web session's sign-in is resumed exactly once")
@MainActor
struct WebSessionResumptionTests {
    let callback = URL(string: "com.example.app:/oauth/callback?code=c&state=s")!

    @Test("A cancellation resumes the waiting sign-in with user_cancelled at once; a late completion is ignored")
    func cancellationResumes() async {
        do {
            _ = try await withCheckedThrowingContinuation { continuation in
                let resumption = WebSessionResumption(continuation, providerID: "oidc")
                #expect(!resumption.isFinished)
                #expect(resumption.cancel())
                #expect(resumption.isFinished)
                // The system's handler, should it still run after cancel(): no second resume.
                #expect(!resumption.finish(.success(callback)))
                #expect(!resumption.cancel())
            }
            Issue.record("a cancelled sign-in returned a callback")
        } catch let error as AuthError {
            #expect(error.code == .userCancelled && error.providerID == "oidc")
        } catch {
            Issue.record("expected user_cancelled, got \(error)")
        }
    }

    @Test("A completion resumes the sign-in with its callback; a cancellation after it is ignored")
    func completionFirst() async throws {
        let url = try await withCheckedThrowingContinuation { continuation in
            let resumption = WebSessionResumption(continuation, providerID: "oidc")
            #expect(resumption.finish(.success(callback)))
            #expect(!resumption.cancel())
        }
        #expect(url == callback)
    }
}
