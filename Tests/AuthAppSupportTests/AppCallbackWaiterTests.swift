import AuthAppSupport
import AuthCore
import AuthTesting
import Foundation
import Testing

/// The engine's "hand off to an app and await its callback", which Grab, Uber and third-party providers share.
@Suite("App callback waiter")
struct AppCallbackWaiterTests {
    /// An app that opens (or not) and never calls back by itself.
    private struct SilentApp: AppHandoff {
        let opens: Bool
        func canOpen(_ url: URL) async -> Bool { true }
        func open(_ url: URL) async -> Bool { opens }
    }

    private let redirect = URL(string: "com.example.app://oauth/callback")!
    private let link = URL(string: "vendorapp://authorize?client_id=c")!

    private func waiting(_ waiter: AppCallbackWaiter) async throws {
        for _ in 0..<10_000 where !waiter.isWaiting { await Task.yield() }
        try #require(waiter.isWaiting)
    }

    @Test("The matching callback is handed over once; other URLs are refused")
    func deliveredOnce() async throws {
        let waiter = AppCallbackWaiter(providerID: "vendor", clock: ManualClock())
        let handOff = Task { try await waiter.handOff(link, through: SilentApp(opens: true), redirectURI: redirect, appName: "The app") }
        try await waiting(waiter)
        #expect(waiter.deliver(URL(string: "com.example.app://other?code=1")!) == false, "another path")
        #expect(waiter.deliver(URL(string: "https://oauth/callback?code=1")!) == false, "another scheme")
        let callback = redirect.appendingQuery([("code", "1"), ("state", "s")])
        #expect(waiter.deliver(callback))
        #expect(try await handOff.value == callback)
        #expect(waiter.deliver(callback) == false, "a second delivery")
        #expect(!waiter.isWaiting)
    }

    @Test("An app that does not open ends the wait with app_not_opened at once")
    func notOpened() async throws {
        let clock = ManualClock()
        let waiter = AppCallbackWaiter(providerID: "vendor", clock: clock)
        let error = await #expect(throws: AuthError.self) {
            _ = try await waiter.handOff(link, through: SilentApp(opens: false), redirectURI: redirect, appName: "The app")
        }
        #expect(error?.code == .appNotOpened && error?.providerID == "vendor")
        #expect(!waiter.isWaiting && clock.sleeperCount == 0)
    }

    @Test("A newer login ends a waiting hand-off with sign_in_superseded; an older login's later hand-off is refused before anything opens")
    func newerLoginReplacesOlder() async throws {
        actor CountingApp: AppHandoff {
            var opened = 0
            func canOpen(_ url: URL) -> Bool { true }
            func open(_ url: URL) -> Bool {
                opened += 1
                return true
            }
        }
        let clock = ManualClock()
        let waiter = AppCallbackWaiter(providerID: "vendor", clock: clock)
        let older = waiter.beginLogin()
        let olderHandOff = Task { try await waiter.handOff(link, through: SilentApp(opens: true), redirectURI: redirect, appName: "The app", login: older) }
        try await waiting(waiter)
        let newer = waiter.beginLogin()
        let superseded = await #expect(throws: AuthError.self) { _ = try await olderHandOff.value }
        #expect(superseded?.code == .signInSuperseded && !waiter.isWaiting)

        // The older login reaches another app only now (it was still preparing): refused, and the app is never opened.
        let app = CountingApp()
        let late = await #expect(throws: AuthError.self) {
            _ = try await waiter.handOff(link, through: app, redirectURI: redirect, appName: "The app", login: older)
        }
        #expect(late?.code == .signInSuperseded && !waiter.isWaiting)
        #expect(await app.opened == 0)

        // The newest login hands off as usual.
        let newerHandOff = Task { try await waiter.handOff(link, through: app, redirectURI: redirect, appName: "The app", login: newer) }
        try await waiting(waiter)
        let callback = redirect.appendingQuery([("code", "1"), ("state", "s")])
        #expect(waiter.deliver(callback))
        #expect(try await newerHandOff.value == callback)
        #expect(clock.sleeperCount == 0, "no timer left behind")
    }

    @Test("The timeout passes on the injected clock, not before")
    func timeout() async throws {
        let clock = ManualClock()
        let waiter = AppCallbackWaiter(providerID: "vendor", clock: clock, timeout: .seconds(30))
        let handOff = Task { try await waiter.handOff(link, through: SilentApp(opens: true), redirectURI: redirect, appName: "The app") }
        try await waiting(waiter)
        clock.advance(by: 29)
        for _ in 0..<100 { await Task.yield() }
        #expect(waiter.isWaiting)
        clock.advance(by: 1)
        let error = await #expect(throws: AuthError.self) { _ = try await handOff.value }
        #expect(error?.code == .timedOut && error?.message.contains("30 seconds") == true)
        #expect(waiter.deliver(redirect.appendingQuery([("code", "late")])) == false)
    }

    @Test("cancel(), task cancellation and a newer hand-off each end the wait with their own code")
    func endings() async throws {
        let clock = ManualClock()
        let waiter = AppCallbackWaiter(providerID: "vendor", clock: clock)
        let app = SilentApp(opens: true)
        #expect(waiter.cancel() == false, "nothing to cancel")

        let cancelled = Task { try await waiter.handOff(link, through: app, redirectURI: redirect, appName: "The app") }
        try await waiting(waiter)
        #expect(waiter.cancel())
        #expect(await #expect(throws: AuthError.self) { _ = try await cancelled.value }?.code == .userCancelled)

        let dropped = Task { try await waiter.handOff(link, through: app, redirectURI: redirect, appName: "The app") }
        try await waiting(waiter)
        dropped.cancel()
        #expect(await #expect(throws: AuthError.self) { _ = try await dropped.value }?.code == .signInCancelled)

        let older = Task { try await waiter.handOff(link, through: app, redirectURI: redirect, appName: "The app") }
        try await waiting(waiter)
        let newer = Task { try await waiter.handOff(link, through: app, redirectURI: redirect, appName: "The app") }
        #expect(await #expect(throws: AuthError.self) { _ = try await older.value }?.code == .signInSuperseded)
        try await waiting(waiter)
        #expect(waiter.deliver(redirect.appendingQuery([("code", "2")])))
        #expect(try await newer.value.query == "code=2")
        for _ in 0..<100 where clock.sleeperCount > 0 { await Task.yield() }
        #expect(clock.sleeperCount == 0, "every timer was cancelled")
    }

    @Test("A task cancelled before it waits ends at once")
    func cancelledBeforeWaiting() async throws {
        let waiter = AppCallbackWaiter(providerID: "vendor", clock: ManualClock())
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await waiter.handOff(link, through: SilentApp(opens: true), redirectURI: redirect, appName: "The app")
        }
        #expect(await #expect(throws: AuthError.self) { _ = try await task.value }?.code == .signInCancelled)
    }
}
