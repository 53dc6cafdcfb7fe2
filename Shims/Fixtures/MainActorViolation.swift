// expect: main actor-isolated class property 'shared' can not be referenced from a nonisolated context
// Asking UIApplication from a nonisolated function: UIKit is main-actor isolated, so this must not compile.
import Foundation
import UIKit

func canOpen(_ url: URL) -> Bool {
    UIApplication.shared.canOpenURL(url)
}
