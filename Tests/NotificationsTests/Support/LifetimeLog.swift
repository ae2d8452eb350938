import Foundation
import Loom
import Notifications

/// What the stores of a lifetime processed, over every launch: the errors the feature reported,
/// the last actions (for a failure's message) and, when asked, the digest of every action.
///
/// A reducer at the end of each launch's store feeds it (``processed(_:)``); it is `Sendable`
/// because that reducer is.
///
/// When a seed replays differently, two traces of it (`LOOM_MODEL_TRACE=<seed>`, which prints
/// every step and every action) show where: the first line that differs.
final class LifetimeLog: Sendable {
  private struct State {
    var reportedErrors = 0
    /// The last actions, oldest first, at most ``LifetimeLog/kept``.
    var recent: [NotificationsFeature.Action] = []
    var digest = LifetimeDigest()
  }

  /// How many of the last actions a failure's message shows.
  static let kept = 40

  /// Whether every action goes into the digest.
  let digesting: Bool
  /// Whether every action is printed, as `TRACE action: …`.
  let tracing: Bool
  private let state = LockedState(State())

  init(digesting: Bool, tracing: Bool) {
    self.digesting = digesting || tracing
    self.tracing = tracing
  }

  /// The errors the feature reported (`delegate(.errorOccurred)`), over every launch.
  var reportedErrors: Int { state.withLock { $0.reportedErrors } }

  /// The last actions, described, oldest first.
  var recentActions: [String] {
    state.withLock { $0.recent }.map { String("\($0)".prefix(160)) }
  }

  func processed(_ action: NotificationsFeature.Action) {
    // Described only for the digest: describing every action costs more than the rest of the
    // test's bookkeeping.
    let description = digesting ? "\(action)" : ""
    if tracing { print("TRACE action: \(description.prefix(300))") }
    state.withLock { state in
      state.recent.append(action)
      if state.recent.count > 2 * Self.kept { state.recent.removeFirst(Self.kept) }
      if case .delegate(.errorOccurred) = action { state.reportedErrors += 1 }
      if digesting { state.digest.addUnordered(description) }
    }
  }

  /// Adds a line of the trace to the digest, and returns the digest.
  func digest(adding line: String) -> LifetimeDigest {
    state.withLock { state in
      state.digest.add(line)
      return state.digest
    }
  }
}
