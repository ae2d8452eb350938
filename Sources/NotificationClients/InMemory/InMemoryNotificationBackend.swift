import Foundation
import Loom
import Notifications

/// An in-memory notification backend with fault injection, for tests, previews and demos.
///
/// ```swift
/// let backend = InMemoryNotificationBackend(seed: notifications)
/// backend.failNext(2, with: .network)
/// let store = Store(initialState: NotificationFeature.State()) { NotificationFeature() }
///   withDependencies: {
///     $0.notificationClient = backend.client
///     $0.changeLogStore = .inMemory()
///   }
/// ```
public final class InMemoryNotificationBackend: Sendable {
  /// The kinds of failure the backend can inject.
  public struct Faults: Sendable {
    /// Calls that fail next, with the error each throws, in order. Opening the live stream is
    /// a call.
    public var failNext: [UserFacingError] = []
    /// The chance (0...1) that any call fails with `randomError`.
    public var failureRate = 0.0
    public var randomError: UserFacingError = .network
    /// How long each call takes, on `clock`.
    public var latency: Duration = .zero

    public init() {}
  }

  struct State {
    /// Newest first; by id, so each call finds its notification in O(1).
    var notifications: IdentifiedArrayOf<NotificationData>
    var cursor: UInt64 = 0
    var faults = Faults()
    var random: SeededRandomNumberGenerator
    var log: [(cursor: UInt64, change: NotificationChange)] = []
    /// The cursor each change id was answered with.
    var applied: [UUID: UInt64] = [:]
    /// The cursor of each notification's deletion.
    var deletions: [String: UInt64] = [:]
  }

  private let state: LockedState<State>
  private let broadcast = ChangeBroadcast()
  private let clock: any Clock<Duration>

  /// Creates a backend holding `seed`, failing at random with a generator seeded by
  /// `randomSeed`, and waiting `latency` on `clock`.
  public init(
    seed: [NotificationData] = [], randomSeed: UInt64 = 0,
    clock: any Clock<Duration> = ContinuousClock()
  ) {
    self.state = LockedState(
      State(
        notifications: IdentifiedArray(seed.sorted(by: NotificationData.isOrderedBefore), id: \.id),
        random: SeededRandomNumberGenerator(seed: randomSeed)))
    self.clock = clock
  }

  /// The notifications the backend holds, newest first.
  public var notifications: [NotificationData] {
    state.withLock { $0.notifications.elements }
  }

  /// Changes the injected faults.
  public func updateFaults(_ update: @Sendable (inout Faults) -> Void) {
    state.withLock { update(&$0.faults) }
  }

  /// Makes the next `count` calls fail with `error`.
  public func failNext(_ count: Int, with error: UserFacingError) {
    state.withLock { $0.faults.failNext += Array(repeating: error, count: count) }
  }

  /// Ends every open live stream with `error`, as a dropped connection would. Streams opened
  /// afterwards work as usual.
  public func dropUpdates(with error: UserFacingError = .network) {
    broadcast.finishAll(throwing: error)
  }

  /// How many live streams are open.
  public var openUpdateStreams: Int {
    broadcast.count
  }

  /// Adds a notification as if another device created it (or replaces the one with its id),
  /// telling live listeners; its version is the cursor of the change.
  public func insert(_ notification: NotificationData) {
    change { state in
      var notification = notification
      notification.version = ChangeCursor(state.cursor + 1)
      _ = state.notifications.remove(id: notification.id)
      _ = state.notifications.append(notification)
      state.notifications.sort(by: NotificationData.isOrderedBefore)
      Self.record(.inserted(notification), in: &state)
    }
  }

  /// The client backed by this backend. Its work is a few dictionary and array operations
  /// under a lock, so it runs on the caller's executor: called from the main actor, a call
  /// without latency or faults answers without leaving it.
  public var client: NotificationClient {
    NotificationClient(
      fetchPage: { request in
        try await self.call()
        guard request.limit > 0 else {
          throw UserFacingError.invalidData(reason: "a page holds 1 or more notifications")
        }
        let key = try request.cursor.map { cursor in
          guard let key = PageKey(cursor: cursor) else {
            throw UserFacingError.invalidData(
              reason: "the cursor \"\(cursor.prefix(40))\" is not one this backend gave")
          }
          return key
        }
        return self.state.withLock { state in
          // The page starts right after the last notification the previous one listed, whatever
          // was inserted or deleted since: found by a binary search of the feed's order.
          let elements = state.notifications.elements
          let start = key.map { key in Self.firstIndex(in: elements, after: key) } ?? 0
          // A filtered page holds the next notifications that pass, one more telling whether
          // there are more.
          var items = Array(elements[start...].lazy.filter(request.passes).prefix(request.limit + 1))
          let hasMore = items.count > request.limit
          if hasMore { items.removeLast() }
          return NotificationPage(
            items: items, nextCursor: hasMore ? items.last.map { PageKey(after: $0).cursor } : nil,
            hasMore: hasMore, unreadTotal: elements.count(where: { !$0.isRead }),
            changeCursor: ChangeCursor(state.cursor))
        }
      },
      updates: { since in
        try await self.call()
        // The changes after `since` are replayed and the stream opened as one step, so no
        // change is missed or told twice.
        return self.broadcast.open {
          self.state.withLock { state in
            let after = since?.position ?? state.cursor
            let missed = state.log.filter { $0.cursor > after }.map {
              NotificationEvent($0.change, cursor: ChangeCursor($0.cursor))
            }
            return (ChangeCursor(min(after, state.cursor)), missed)
          }
        }
      },
      changesSince: { cursor in
        try await self.call()
        let since = cursor.position
        return self.state.withLock { state in
          // A cursor newer than any change is another backend's: the whole feed instead.
          guard since <= state.cursor else {
            return [
              NotificationEvent(
                .snapshot(state.notifications.elements), cursor: ChangeCursor(state.cursor))
            ]
          }
          return state.log.filter { $0.cursor > since }.map {
            NotificationEvent($0.change, cursor: ChangeCursor($0.cursor))
          }
        }
      },
      apply: { request in
        try await self.call()
        return try self.change { state in try Self.apply(request, to: &state) }
      },
      fetchNotification: { id in
        try await self.call()
        let (notification, deletedAt) = self.state.withLock { state in
          (state.notifications[id: id], state.deletions[id])
        }
        if let notification { return notification }
        if let deletedAt {
          throw DeletedNotificationError(id: id, cursor: ChangeCursor(deletedAt))
        }
        throw UserFacingError.notFound
      },
      fetchUnread: { entity in
        try await self.call()
        return self.state.withLock { state in
          state.notifications.filter { !$0.isRead && entity.matches($0.target) }
        }
      }
    )
  }

  /// The position of the first notification of `elements` (in the feed's order) after `key`.
  ///
  /// - Complexity: O(log *n*).
  private static func firstIndex(in elements: [NotificationData], after key: PageKey) -> Int {
    var low = 0
    var high = elements.count
    while low < high {
      let middle = (low + high) / 2
      if key.precedes(elements[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// Makes the change `request` asks for, once: a change id applied before answers the cursor
  /// it answered then. Answers the cursor of the newest change after it.
  private static func apply(_ request: ChangeRequest, to state: inout State) throws -> ChangeCursor {
    if let answered = state.applied[request.id] { return ChangeCursor(answered) }
    switch request.intent {
    case .markAsRead(let id): try setRead(id, true, in: &state)
    case .markAsUnread(let id): try setRead(id, false, in: &state)
    case .markAllAsRead(let ids):
      for var notification in state.notifications.elements
      where !notification.isRead && ids.map({ $0.contains(notification.id) }) ?? true {
        notification.isRead = true
        notification.version = ChangeCursor(state.cursor + 1)
        state.notifications[id: notification.id] = notification
        record(.updated(notification), in: &state)
      }
    case .delete(let id):
      guard state.notifications.remove(id: id) != nil else { throw missing(id, in: state) }
      record(.deleted(id: id), in: &state)
      state.deletions[id] = state.cursor
    case .deleteAll(upTo: nil):
      let deleted = state.notifications.ids
      state.notifications.removeAll()
      record(.snapshot([]), in: &state)
      for id in deleted { state.deletions[id] = state.cursor }
    case .deleteAll(upTo: let bound?):
      // The feed is newest first: what the bound covers is a suffix of it.
      let deleted = state.notifications.filter { bound.covers($0) }.map(\.id)
      state.notifications.removeAll { bound.covers($0) }
      record(.snapshot(state.notifications.elements), in: &state)
      for id in deleted { state.deletions[id] = state.cursor }
    }
    state.applied[request.id] = state.cursor
    return ChangeCursor(state.cursor)
  }

  /// The error for a change to a notification the backend does not have: deleted, at the
  /// deletion's cursor, when it remembers the deletion; else not found.
  private static func missing(_ id: String, in state: State) -> any Error {
    guard let deletedAt = state.deletions[id] else { return UserFacingError.notFound }
    return DeletedNotificationError(id: id, cursor: ChangeCursor(deletedAt))
  }

  private static func setRead(_ id: String, _ isRead: Bool, in state: inout State) throws {
    // Found once, then read and written at its position.
    guard let position = state.notifications.index(id: id) else { throw missing(id, in: state) }
    // A write that changes nothing is no change: an `.updated` for it told a client that had
    // not loaded the notification to count it again.
    var notification = state.notifications[position]
    guard notification.isRead != isRead else { return }
    notification.isRead = isRead
    notification.version = ChangeCursor(state.cursor + 1)
    state.notifications[position] = notification
    record(.updated(notification), in: &state)
  }

  /// Applies latency and injected failures to one call, on the caller's executor.
  nonisolated(nonsending) private func call() async throws {
    // Without latency, one lock: the faults are read and the failure drawn together.
    let (latency, failure) = state.withLock { state in
      let latency = state.faults.latency
      return (latency, latency > .zero ? nil : Self.drawFailure(&state))
    }
    guard latency > .zero else {
      if let failure { throw failure }
      return
    }
    try await clock.sleep(for: latency)
    if let failure = state.withLock({ Self.drawFailure(&$0) }) { throw failure }
  }

  /// The failure an injected fault makes of a call, if any.
  private static func drawFailure(_ state: inout State) -> UserFacingError? {
    if !state.faults.failNext.isEmpty { return state.faults.failNext.removeFirst() }
    if state.faults.failureRate > 0,
      Double.random(in: 0..<1, using: &state.random) < state.faults.failureRate
    {
      return state.faults.randomError
    }
    return nil
  }

  /// Makes a change to the state and tells the live streams about the changes it recorded, as
  /// one step.
  private func change<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try broadcast.change {
      try state.withLock { state in
        let logged = state.log.count
        let result = try body(&state)
        let events = state.log[logged...].map {
          NotificationEvent($0.change, cursor: ChangeCursor($0.cursor))
        }
        return (result, Array(events))
      }
    }
  }

  private static func record(_ change: NotificationChange, in state: inout State) {
    state.cursor += 1
    state.log.append((state.cursor, change))
  }
}
