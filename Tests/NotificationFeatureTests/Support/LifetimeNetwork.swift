import Foundation
import Loom
import NotificationClients
import NotificationFeature

/// The network between the feature and an in-memory backend, for the lifetime model-based test.
///
/// Every call first waits a random time on a test clock, so calls in flight together reach the
/// backend, and answer, in an order the seed decides; while ``isSlow`` the wait is seconds
/// (injected latency). The backend's own fault injection decides which calls fail. The test
/// asks which changes are still on their way (``idsInFlight``) and whether a call is inside the
/// backend right now (``callsInBackend``: the backend's client runs off the main actor).
@MainActor
final class LifetimeNetwork {
  /// What a change in flight touches.
  enum Touch {
    case nothing
    case ids([String])
    case everything
  }

  let backend: InMemoryNotificationBackend
  let clock: TestClock
  /// Whether calls take seconds rather than milliseconds.
  var isSlow = false
  private var random: SeededRandomNumberGenerator
  private var nextCall = 0
  private var changesInFlight: [Int: Touch] = [:]
  /// Calls inside the backend (off the main actor) right now.
  private(set) var callsInBackend = 0

  init(backend: InMemoryNotificationBackend, clock: TestClock, seed: UInt64) {
    self.backend = backend
    self.clock = clock
    self.random = SeededRandomNumberGenerator(seed: seed &+ 0x9E37_79B9)
  }

  /// The ids the changes in flight (waiting on the clock) touch; `nil` when one of them touches
  /// every notification.
  var idsInFlight: Set<String>? {
    var ids: Set<String> = []
    for touch in changesInFlight.values {
      switch touch {
      case .nothing: break
      case .ids(let touched): ids.formUnion(touched)
      case .everything: return nil
      }
    }
    return ids
  }

  /// The client the feature uses.
  var client: NotificationClient {
    let backend = backend.client
    return NotificationClient(
      fetchPage: { @MainActor request in
        try await self.call { try await backend.fetchPage(request) }
      },
      updates: { @MainActor since in
        try await self.call { try await backend.updates(since) }
      },
      changesSince: { @MainActor cursor in
        try await self.call { try await backend.changesSince(cursor) }
      },
      apply: { @MainActor request in
        let touch: Touch =
          switch request.intent {
          case .markAllAsRead(nil), .deleteAll: .everything
          default: .ids(request.intent.ids)
          }
        return try await self.call(touching: touch) { try await backend.apply(request) }
      })
  }

  private func call<Value: Sendable>(
    touching touch: Touch = .nothing, _ body: @Sendable () async throws -> Value
  ) async throws -> Value {
    nextCall += 1
    let id = nextCall
    changesInFlight[id] = touch
    defer { changesInFlight[id] = nil }
    let delay =
      isSlow
      ? Int.random(in: 2_000...8_000, using: &random) : Int.random(in: 0...400, using: &random)
    try await clock.sleep(for: .milliseconds(delay))
    callsInBackend += 1
    defer { callsInBackend -= 1 }
    return try await body()
  }
}
