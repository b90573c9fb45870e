#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether to colour output: only on a terminal, never with `NO_COLOR` set.
package struct Style: Sendable {
    /// Whether colours are on.
    package let isColored: Bool

    /// Plain output.
    package static let plain = Style(isColored: false)

    /// Colours when `descriptor` is a terminal and `NO_COLOR` is unset.
    package static func forOutput(_ descriptor: Int32 = STDOUT_FILENO, environment: [String: String] = ProcessInfo.processInfo.environment) -> Style {
        Style(isColored: isatty(descriptor) != 0 && environment["NO_COLOR"] == nil)
    }

    /// Creates a style.
    package init(isColored: Bool) {
        self.isColored = isColored
    }

    private func paint(_ text: String, _ code: String) -> String {
        isColored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func red(_ text: String) -> String { paint(text, "31") }
    func green(_ text: String) -> String { paint(text, "32") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func cyan(_ text: String) -> String { paint(text, "36") }
}
