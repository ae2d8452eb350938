import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// A clear-all deletes what the person cleared (the list then, and the older notifications not
/// loaded), not what arrives afterwards, also when it waits in the outbox and is sent later
/// (issue #13).
@MainActor
struct BoundedClearAllTests {
  typealias PendingChange = NotificationsFeature.PendingChange
  typealias SavedOutbox = NotificationsFeature.SavedOutbox
  let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()

  @Test func aNotificationThatArrivesWhileAClearAllIsQueuedStaysListedAndOnTheBackend() async {
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    backend.failNext(1, with: .network)
    let clock = TestClock()
    let store = makeStore {
      $0.continuousClock = clock
      $0.notificationClient = backend.client
    }
    let clear = PendingChange.clearAll(Fixtures.feed)
    let entry = NotificationsFeature.OutboxEntry.deleteAll(upTo: FeedPosition(Fixtures.feed[0]))
    await store.send(.clearAll) {
      $0.notifications = []
      $0.deletedIDs = ["n1", "n2", "n3"]
      $0.sync.pendingChanges[changeID] = clear
    }
    await store.receive(.sync(.changeFailed(changeID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [entry]
      $0.sync.outboxRollbacks = [entry: clear]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [entry], rollbacks: [entry: clear])
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }

    // Another device adds a notification while the clear-all waits: the person did not clear
    // it, so it is listed.
    var newer = Fixtures.notification("n4")
    backend.insert(newer)
    newer.version = 1
    await store.send(.liveEvent(NotificationEvent(.inserted(newer)))) {
      $0.notifications = [newer]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))

    await clock.advance(by: .seconds(1))
    await store.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = entry
    }
    await store.receive(.sync(.outboxEntrySent(entry, at: 2))) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outbox = []
      $0.sync.outboxRollbacks = [:]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.finish()
    // The backend deleted what the person cleared, and kept the newer notification.
    let kept: [NotificationData] = backend.notifications
    #expect(kept == [newer])
  }

  @Test func aQueuedClearAllHidesWhatItCoversAndNothingNewer() {
    var state = NotificationSyncEngine.State()
    let bound = FeedPosition(Fixtures.feed[0])
    state.outbox = [.deleteAll(upTo: bound)]
    let newer = Fixtures.notification("n4")
    let olderArrivingLate = Fixtures.notification("n0", minutesAgo: 2.5)
    let sameTimeAfterInOrder = Fixtures.notification("n1a", minutesAgo: 1)
    let sameTimeBeforeInOrder = Fixtures.notification("n0a", minutesAgo: 1)
    var notice = Fixtures.notification("local-1", minutesAgo: 5)
    notice.isLocal = true
    #expect(state.applyingPendingChanges(to: newer) == newer)
    #expect(state.applyingPendingChanges(to: Fixtures.feed[0]) == nil)
    #expect(state.applyingPendingChanges(to: olderArrivingLate) == nil)
    #expect(state.applyingPendingChanges(to: sameTimeAfterInOrder) == nil)
    #expect(state.applyingPendingChanges(to: sameTimeBeforeInOrder) == sameTimeBeforeInOrder)
    // A local notice is the device's alone: a clear-all on the backend does not cover it.
    #expect(state.applyingPendingChanges(to: notice) == notice)
    #expect(!state.isDeletionPending(of: newer))
    #expect(state.isDeletionPending(of: olderArrivingLate))
    #expect(state.isClearAllPending)
  }

  @Test func aPendingClearAllHidesWhatItCoversAndNothingNewer() {
    var state = NotificationSyncEngine.State()
    state.pendingChanges[changeID] = .clearAll(Fixtures.feed)
    let newer = Fixtures.notification("n4")
    let notLoaded = Fixtures.notification("n9", minutesAgo: 60)
    #expect(state.applyingPendingChanges(to: newer) == newer)
    #expect(state.applyingPendingChanges(to: notLoaded) == nil)
    #expect(state.isDeletionPending("n2"))
    #expect(!state.isDeletionPending("n4"))
  }

  @Test func aClearAllIsBoundedByTheNewestNotificationOfTheBackendListed() {
    var notice = Fixtures.notification("local-1")
    notice.isLocal = true
    let clear = PendingChange.clearAll([notice] + Fixtures.feed)
    #expect(clear.outboxEntry == .deleteAll(upTo: FeedPosition(Fixtures.feed[0])))
    // Nothing of the backend's listed (only unread ones not loaded): everything.
    #expect(PendingChange.clearAll([], unreadNotLoaded: 3).outboxEntry == .deleteAll(upTo: nil))
  }

  @Test func clearingOnlyLocalNoticesCallsNoBackend() async {
    var notice = Fixtures.notification("local-1", isRead: true)
    notice.isLocal = true
    let store = makeStore([notice])
    await store.send(.clearAll) { $0.notifications = [] }
  }

  @Test func aQueuedClearAllKeepsItsBoundAcrossARelaunch() throws {
    let entry = NotificationsFeature.OutboxEntry.deleteAll(upTo: FeedPosition(Fixtures.feed[0]))
    let saved = SavedOutbox(
      entries: [entry], rollbacks: [entry: .clearAll(Fixtures.feed)], failures: [entry: 2])
    let data = try JSONEncoder().encode(saved)
    #expect(try JSONDecoder().decode(SavedOutbox.self, from: data) == saved)
  }

  /// An outbox saved before clear-alls were bounded still loads: its bare delete-all deletes
  /// everything, as the person asked then.
  @Test func anOutboxSavedWithABareDeleteAllStillDecodes() throws {
    let old = #"{"entries":[{"markAsRead":{"_0":"n1"}},{"deleteAll":{}}],"rollbacks":[],"failures":[{"deleteAll":{}},3]}"#
    let saved = try JSONDecoder().decode(SavedOutbox.self, from: Data(old.utf8))
    #expect(
      saved
        == SavedOutbox(
          entries: [.markAsRead("n1"), .deleteAll(upTo: nil)], failures: [.deleteAll(upTo: nil): 3]))
    let entries = try JSONDecoder().decode(
      [NotificationsFeature.OutboxEntry].self, from: Data(#"[{"deleteAll":{}}]"#.utf8))
    #expect(entries == [.deleteAll(upTo: nil)])
  }

  @Test func twoQueuedClearAllsMergeIntoTheWiderOne() {
    let older = FeedPosition(Fixtures.feed[1])
    let newer = FeedPosition(Fixtures.feed[0])
    var outbox: [NotificationsFeature.OutboxEntry] = [.deleteAll(upTo: newer)]
    outbox.enqueue(.deleteAll(upTo: older))
    #expect(outbox == [.deleteAll(upTo: newer)])
    // Merged in the first one's place; what was queued after it stays after it.
    outbox = [.markAsRead("n8"), .deleteAll(upTo: older), .markAsRead("n9")]
    outbox.enqueue(.deleteAll(upTo: newer))
    #expect(outbox == [.markAsRead("n8"), .deleteAll(upTo: newer), .markAsRead("n9")])
    outbox.enqueue(.deleteAll(upTo: nil))
    #expect(outbox == [.markAsRead("n8"), .deleteAll(upTo: nil), .markAsRead("n9")])
    outbox.enqueue(.deleteAll(upTo: newer))
    #expect(outbox == [.markAsRead("n8"), .deleteAll(upTo: nil), .markAsRead("n9")])
  }
}
