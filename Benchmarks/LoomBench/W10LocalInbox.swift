import Foundation
import NotificationClients
import Notifications

/// W10: the local inbox (SQLite) holding N = 1,000, 10,000 and 100,000 notifications on disk.
/// Each operation is timed alone and the median reported, in ms:
///
/// - open: a new `LocalInbox` on the file (a new connection, the schema check) and its first
///   page of 50, as a CLI run does;
/// - mark-read: mark one unread notification read, committed (a different one each time);
/// - unread-count: the inbox's unread count;
/// - changes-since: the changes after a cursor 100 changes back;
/// - unread-about: the unread notifications about one contact (10 of them, wherever they are
///   in the feed), what opening the contact's screen fetches.
///
/// The inbox is filled outside the timing, in one transaction. `--quick` divides N by 10.
@MainActor
func runW10(scale: Int) async {
  for size in [1_000, 10_000, 100_000] {
    do {
      try await runW10(count: size / scale, label: size)
    } catch {
      FileHandle.standardError.write(Data("W10 n=\(size): \(error)\n".utf8))
      exit(1)
    }
  }
}

@MainActor
private func runW10(count: Int, label: Int) async throws {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("loom-bench-w10-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  let url = folder.appendingPathComponent("inbox.sqlite")
  let start = Date(timeIntervalSince1970: 1_700_000_000)
  let inbox = LocalInbox(url: url)
  try inbox.insert(
    (0..<count).map { index in
      NotificationData(
        id: "n\(index)", type: NotificationType.knownCases[index % 7], title: "Title \(index)",
        message: "Message \(index)", timestamp: start.addingTimeInterval(-Double(index)),
        target: .contact(contactID: "c\(index % (count / 10))"))
    })
  let client = inbox.notificationClient

  let open = try await medianMilliseconds(repetitions: 21) {
    let page = try await LocalInbox(url: url).notificationClient.fetchPage(PageRequest(limit: 50))
    guard page.items.count == min(50, count) else { throw W10Error("first page has \(page.items.count)") }
  }
  var next = 0
  let markRead = try await medianMilliseconds(repetitions: 51) {
    // Spread over the inbox, each a real change.
    let id = "n\((next * 7_919) % count)"
    next += 1
    try await client.markAsRead(id)
  }
  let unread = try await medianMilliseconds(repetitions: 201) {
    guard try inbox.unreadCount() <= count else { throw W10Error("unread count out of range") }
  }
  let latest = try await client.changesSince(.zero).last?.cursor ?? .zero
  let changes = try await medianMilliseconds(repetitions: 51) {
    let events = try await client.changesSince(ChangeCursor(latest.position - 100))
    guard events.count == 100 else { throw W10Error("\(events.count) changes since") }
  }
  var contact = 0
  let unreadAbout = try await medianMilliseconds(repetitions: 51) {
    // A different contact each time, its notifications spread over the whole feed.
    let entity = NotificationFeature.Entity.contact("c\((contact * 7_919) % (count / 10))")
    contact += 1
    let unread = try await client.fetchUnread(entity).count
    guard (1...10).contains(unread) else { throw W10Error("\(unread) unread about \(entity)") }
  }
  report("W10", "open-first-page n=\(label)", open, "ms/op")
  report("W10", "mark-read n=\(label)", markRead, "ms/op")
  report("W10", "unread-count n=\(label)", unread, "ms/op")
  report("W10", "changes-since n=\(label)", changes, "ms/op")
  report("W10", "unread-about n=\(label)", unreadAbout, "ms/op")
}

private struct W10Error: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Times each run of `body` alone (after one warm-up) and returns the median, in ms.
@MainActor
private func medianMilliseconds(
  repetitions: Int, _ body: @MainActor () async throws -> Void
) async throws -> Double {
  try await body()
  var samples: [Duration] = []
  for _ in 0..<repetitions {
    let began = ContinuousClock.now
    try await body()
    samples.append(ContinuousClock.now - began)
  }
  return samples.sorted()[samples.count / 2].nanoseconds / 1e6
}
