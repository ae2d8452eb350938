import Foundation
import Loom
import Notifications

/// What the stores of a lifetime processed, over every launch: the errors the feature reported,
/// the banners it asked for, how many times it restored what a launch restores, the last actions
/// (for a failure's message) and, when asked, the digest of every action.
///
/// A reducer at the end of each launch's store feeds it (``processed(_:)``); it is `Sendable`
/// because that reducer is.
///
/// When a seed replays differently, two traces of it (`LOOM_MODEL_TRACE=<seed>`, which prints
/// every step and every action) show where: the first line that differs.
final class LifetimeLog: Sendable {
  /// How many times the feature restored each thing a launch restores, over every launch.
  struct Restores: Equatable {
    var filter = 0
    var muted = 0
  }

  private struct State {
    var reportedErrors: [UserFacingError] = []
    var banners: [NotificationData] = []
    var restores = Restores()
    var firstPages = 0
    var deletionsSeen: Set<String> = []
    /// The last actions, oldest first, at most ``LifetimeLog/kept``.
    var recent: [NotificationFeature.Action] = []
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

  /// How many errors the feature reported (`delegate(.errorOccurred)`), over every launch.
  var reportedErrors: Int { state.withLock { $0.reportedErrors.count } }

  /// The errors the feature reported after the first `count`.
  func errors(after count: Int) -> ArraySlice<UserFacingError> {
    state.withLock { $0.reportedErrors.dropFirst(count) }
  }

  var restores: Restores { state.withLock { $0.restores } }

  /// How many first pages (refreshes) the feature has listed, over every launch.
  var firstPages: Int { state.withLock { $0.firstPages } }

  /// The notifications whose deletion the feature has been told of (a live event or a
  /// catch-up), over every launch.
  var deletionsSeen: Set<String> { state.withLock { $0.deletionsSeen } }

  private static func deletions(in events: [NotificationEvent]) -> [String] {
    events.compactMap { event in
      if case .deleted(let id) = event.change { id } else { nil }
    }
  }

  /// The notifications the feature asked to announce since the last call.
  func takeBanners() -> [NotificationData] {
    state.withLock { state in
      defer { state.banners = [] }
      return state.banners
    }
  }

  /// The last actions, described, oldest first.
  var recentActions: [String] {
    state.withLock { $0.recent }.map { String("\($0)".prefix(160)) }
  }

  func processed(_ action: NotificationFeature.Action) {
    // Described only for the digest: describing every action costs more than the rest of the
    // test's bookkeeping.
    let description = digesting ? "\(action)" : ""
    if tracing { print("TRACE action: \(description.prefix(300))") }
    state.withLock { state in
      state.recent.append(action)
      if state.recent.count > 2 * Self.kept { state.recent.removeFirst(Self.kept) }
      switch action {
      case .delegate(.errorOccurred(let error)): state.reportedErrors.append(error)
      case .delegate(.presentBanner(let notification, _)): state.banners.append(notification)
      case .restored, .restoreFailed:
        state.restores.filter += 1
        state.restores.muted += 1
      case .pageLoaded(_, first: true): state.firstPages += 1
      case .liveEvent(let event): state.deletionsSeen.formUnion(Self.deletions(in: [event]))
      default: break
      }
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
