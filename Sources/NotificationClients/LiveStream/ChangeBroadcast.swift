import Foundation
import Loom
import Notifications

/// The open live streams of one backend's changes: each stream is sent each change once, in
/// the order of the changes' cursors.
///
/// A stream whose reader is cancelled ends (its `onTermination` runs) while Swift holds the
/// reading task's status lock, and sending a value to a reader that is waiting takes that same
/// lock. So a value must never be sent while holding a lock that ending a stream takes: the
/// sending thread would wait for the cancelling one, which waits for the lock the sender holds.
/// Here the table of streams has a lock of its own, held only to read or change the table, and
/// values are sent under `delivery`, which ending a stream never takes.
///
/// `delivery` also keeps the changes in order: a change is made and sent as one step under it,
/// so changes made at once on several threads reach each stream in the order they were made.
final class ChangeBroadcast: Sendable {
  typealias Stream = AsyncThrowingStream<NotificationEvent, any Error>

  private struct Listener {
    var continuation: Stream.Continuation
    /// The cursor of the newest change the stream was sent (or had seen when it opened).
    var cursor: ChangeCursor
  }

  /// A plain lock, not a `LockedState<Void>`: an empty value shares its address with the lock's
  /// reference, and the thread sanitizer reports the two as a race.
  private let delivery = NSLock()
  private let listeners = LockedState<[UUID: Listener]>([:])

  /// How many streams are open.
  var count: Int {
    listeners.withLock { $0.count }
  }

  /// Makes a change with `body` and sends the events it returns to every open stream, as one
  /// step; returns what `body` returns.
  func change<Result>(_ body: () throws -> (Result, [NotificationEvent])) rethrows -> Result {
    try delivery.withLock {
      let (result, events) = try body()
      send(events, to: nil)
      return result
    }
  }

  /// Opens the stream `id`. `start`, called while no change can be sent, gives the cursor the
  /// stream starts after and the changes after it that it is sent first. `onTermination` runs
  /// when the stream ends, after it is closed here.
  func open(
    _ id: UUID = UUID(),
    _ start: () throws -> (cursor: ChangeCursor, missed: [NotificationEvent]),
    onTermination: @escaping @Sendable () -> Void = {}
  ) rethrows -> Stream {
    try delivery.withLock {
      let (cursor, missed) = try start()
      let (stream, continuation) = Stream.makeStream()
      var listener = Listener(continuation: continuation, cursor: cursor)
      // No reader yet: nothing can be waiting on the stream's task.
      for event in Self.unsent(missed, after: &listener.cursor) { continuation.yield(event) }
      listeners.withLock { $0[id] = listener }
      continuation.onTermination = { [listeners] _ in
        _ = listeners.withLock { $0.removeValue(forKey: id) }
        onTermination()
      }
      return stream
    }
  }

  /// Sends the stream `stream` the changes `missed` gives after the cursor it has seen, as one
  /// step with no other change sent meanwhile.
  func catchUp(_ stream: UUID, with missed: (ChangeCursor) -> [NotificationEvent]?) {
    delivery.withLock {
      guard let cursor = listeners.withLock({ $0[stream]?.cursor }), let events = missed(cursor)
      else { return }
      send(events, to: stream)
    }
  }

  /// Ends every open stream with `error`. Streams opened afterwards work as usual.
  func finishAll(throwing error: any Error) {
    delivery.withLock {
      let ended = listeners.withLock { listeners in
        defer { listeners.removeAll() }
        return listeners.values.map(\.continuation)
      }
      for continuation in ended { continuation.finish(throwing: error) }
    }
  }

  /// Sends `events` to the stream `id`, or to every stream, each the events it was not sent
  /// yet. Called under `delivery`; yields outside the table's lock.
  private func send(_ events: [NotificationEvent], to id: UUID?) {
    guard !events.isEmpty else { return }
    let sends = listeners.withLock { listeners in
      var sends: [(Stream.Continuation, [NotificationEvent])] = []
      for key in id.map({ [$0] }) ?? Array(listeners.keys) {
        guard var listener = listeners[key] else { continue }
        let unsent = Self.unsent(events, after: &listener.cursor)
        listeners[key] = listener
        if !unsent.isEmpty { sends.append((listener.continuation, unsent)) }
      }
      return sends
    }
    for (continuation, events) in sends {
      for event in events { continuation.yield(event) }
    }
  }

  /// The events with a cursor after `cursor`, which moves on to the last of them: a change
  /// this process made arrives both when it is made and when the log is read again, and is
  /// sent once.
  private static func unsent(_ events: [NotificationEvent], after cursor: inout ChangeCursor)
    -> [NotificationEvent]
  {
    var unsent: [NotificationEvent] = []
    for event in events {
      guard let eventCursor = event.cursor, eventCursor > cursor else { continue }
      cursor = eventCursor
      unsent.append(event)
    }
    return unsent
  }
}
