import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// The outbox over an app's lifetime: retries are bounded, and the outbox and how to undo each
/// queued change survive a relaunch (a new store over the same settings).
@MainActor
struct OutboxLifetimeTests {
  let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()
  let outboxKey = NotificationsFeature.SettingsKey.outbox
  let read = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
  let entry = NotificationsFeature.OutboxEntry.markAsRead("n1")

  // MARK: The outcome

  @Test func aChangeThatNeverGetsThroughIsGivenUpAndUndone() async {
    let calls = LockedState(0)
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in
        // Fails for far longer than any bound; gets through only after that.
        if calls.withLock({ $0 += 1; return $0 }) <= 40 { throw UserFacingError.network }
      }
    }
    store.exhaustivity = .off
    await store.send(.markAsRead("n1"))
    await store.finish()
    #expect(store.state.notifications[id: "n1"]?.isRead == false)
    #expect(store.state.sync.outbox.isEmpty)
    #expect(store.state.error != nil)
    #expect(calls.withLock { $0 } < 40)
  }

  /// Found by the lifetime model-based test (11 of 200 seeds) when changes to one notification
  /// were first made to wait for each other: a change still waiting when the app was killed
  /// was in no outbox, so the next launch never sent it. It is written with the outbox.
  @Test func aChangeWaitingWhenTheAppIsKilledIsWrittenWithTheOutbox() async {
    let settings = SettingsClient.inMemory()
    let readArrives = TestContinuation<Void>()
    let store = makeStore {
      $0.settingsClient = settings
      $0.notificationClient.markAsRead = { _ in try await readArrives.value }
    }
    let unread = NotificationsFeature.PendingChange.setRead(
      id: "n1", isRead: false, previous: true)
    let waiting = NotificationsFeature.SavedOutbox(
      entries: [.markAsUnread("n1")], rollbacks: [.markAsUnread("n1"): unread])
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = read
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    let secondID = UUID(1)
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.sync.pendingChanges[secondID] = unread
      $0.sync.waiting[secondID] = .markAsUnread("n1")
      $0.sync.outboxBeingSaved = waiting
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.unreadCountChanged(2)))
    // Killed here, the read still in flight: the next launch restores and sends the unread.
    #expect(await saved(settings) == waiting)
    await store.skipInFlightEffects()
  }

  /// Queues a read of n1 that failed for now, in a first launch over `settings`.
  func queueReadOfN1(_ settings: SettingsClient) async {
    let first = makeStore {
      $0.settingsClient = settings
      $0.notificationClient.markAsRead = { _ in throw UserFacingError.network }
      $0.continuousClock = TestClock()
    }
    first.exhaustivity = .off
    await first.send(.markAsRead("n1"))
    await first.receive(.sync(.changeFailed(changeID, .network)))
    await first.skipInFlightEffects()
  }

  @Test func aQueuedChangeThatFailsForGoodAfterARelaunchIsRolledBack() async {
    let settings = SettingsClient.inMemory()
    await queueReadOfN1(settings)

    // The next launch: the outbox is restored before the first page, so n1 is listed read; the
    // backend, which still has n1 unread, then refuses the queued read for good.
    let page = TestContinuation<NotificationPage>()
    let refusal = TestContinuation<Void>()
    let relaunched = makeStore([]) {
      $0.settingsClient = settings
      $0.notificationClient.fetchPage = { _ in try await page.value }
      $0.notificationClient.markAsRead = { _ in
        try await refusal.value
        throw UserFacingError.server(status: 400)
      }
      $0.notificationClient.updates = { _ in TestStream<NotificationEvent>().throwingStream }
      $0.pushClient.responses = { TestStream<PushClient.Response>().stream }
    }
    relaunched.exhaustivity = .off
    let appear = await relaunched.send(.onAppear)
    await relaunched.receive(.sync(.retryOutbox(attempt: 0)))
    page.resume(returning: NotificationPage(items: Fixtures.feed))
    await relaunched.receive(.pageLoaded(NotificationPage(items: Fixtures.feed), replacing: true))
    #expect(relaunched.state.notifications[id: "n1"]?.isRead == true)
    refusal.resume()
    await relaunched.receive(
      .sync(.outboxEntryFailed(.markAsRead("n1"), .server(status: 400), attempt: 0)))
    #expect(relaunched.state.notifications[id: "n1"]?.isRead == false)
    #expect(relaunched.state.sync.outbox.isEmpty)
    #expect(relaunched.state.error == .server(status: 400))
    await relaunched.send(.onDisappear)
    await appear.cancel()
  }

  // MARK: How

  @Test func retriesStopAtTheMaximumAndTheChangeIsUndoneWithAnError() async {
    let calls = LockedState(0)
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in
        calls.withLock { $0 += 1 }
        throw UserFacingError.network
      }
    }
    let maximum: Int = NotificationSyncEngine.maximumOutboxAttempts
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = read
    }
    await store.receive(.sync(.changeFailed(changeID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [entry]
      $0.sync.outboxRollbacks = [entry: read]
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(
        entries: [entry], rollbacks: [entry: read])
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = entry
    }
    for failures in 1..<maximum {
      await store.receive(.sync(.outboxEntryFailed(entry, .network, attempt: failures - 1))) {
        $0.sync.outboxEntryInFlight = nil
        $0.sync.outboxFailures = [entry: failures]
        $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(
          entries: [entry], rollbacks: [entry: read], failures: [entry: failures])
      }
      await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
      await store.receive(.sync(.retryOutbox(attempt: failures))) {
        $0.sync.outboxEntryInFlight = entry
      }
    }
    await store.receive(.sync(.outboxEntryFailed(entry, .network, attempt: maximum - 1))) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outbox = []
      $0.sync.outboxRollbacks = [:]
      $0.sync.outboxFailures = [:]
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(entries: [])
    }
    await store.receive(.sync(.delegate(.rollBack(read, error: .outboxGaveUp)))) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.error = .outboxGaveUp
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.errorOccurred(.outboxGaveUp)))
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.finish()
    #expect(calls.withLock { $0 } == 1 + maximum)
  }

  @Test func theOutboxIsSavedWithHowToUndoEachChangeAndHowOftenItFailed() async {
    let settings = SettingsClient.inMemory()
    let clock = TestClock()
    let failures = LockedState<[UserFacingError]>([.network, .network])
    let store = makeStore {
      $0.settingsClient = settings
      $0.continuousClock = clock
      $0.notificationClient.markAsRead = { _ in
        let failure = failures.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if let failure { throw failure }
      }
    }
    let queued = NotificationsFeature.SavedOutbox(entries: [entry], rollbacks: [entry: read])
    let failedOnce = NotificationsFeature.SavedOutbox(
      entries: [entry], rollbacks: [entry: read], failures: [entry: 1])
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = read
    }
    await store.receive(.sync(.changeFailed(changeID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [entry]
      $0.sync.outboxRollbacks = [entry: read]
      $0.sync.outboxBeingSaved = queued
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    #expect(await saved(settings) == queued)
    await clock.advance(by: .seconds(1))
    await store.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = entry
    }
    await store.receive(.sync(.outboxEntryFailed(entry, .network, attempt: 0))) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outboxFailures = [entry: 1]
      $0.sync.outboxBeingSaved = failedOnce
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    #expect(await saved(settings) == failedOnce)

    // A relaunch restores all of it, and counts on from there.
    // The relaunched list has n1 read: the queued read applied to the first page.
    var listed = Fixtures.feed
    listed[0].isRead = true
    let relaunched = makeStore(listed) {
      $0.settingsClient = settings
      $0.notificationClient.markAsRead = { _ in throw UserFacingError.server(status: 400) }
    }
    await relaunched.send(.sync(.outboxRestored(failedOnce))) {
      $0.sync.outbox = [entry]
      $0.sync.outboxRollbacks = [entry: read]
      $0.sync.outboxFailures = [entry: 1]
    }
    await relaunched.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = entry
    }
    await relaunched.receive(.sync(.outboxEntryFailed(entry, .server(status: 400), attempt: 0))) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outbox = []
      $0.sync.outboxRollbacks = [:]
      $0.sync.outboxFailures = [:]
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(entries: [])
    }
    await relaunched.receive(.sync(.delegate(.rollBack(read, error: .server(status: 400))))) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.error = .server(status: 400)
    }
    await relaunched.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await relaunched.receive(.delegate(.errorOccurred(.server(status: 400))))
    await relaunched.receive(.delegate(.unreadCountChanged(2)))
    await relaunched.finish()
    #expect(await saved(settings) == NotificationsFeature.SavedOutbox(entries: []))
    await store.skipInFlightEffects()
  }

  @Test func anOutboxChangeMadeWhileAWriteIsInFlightIsWrittenAfterIt() async {
    let settings = ControlledSettings()
    let clock = TestClock()
    let first = NotificationsFeature.SavedOutbox(entries: [entry], rollbacks: [entry: read])
    let readN2 = NotificationsFeature.PendingChange.setRead(id: "n2", isRead: true, previous: false)
    let second = NotificationsFeature.SavedOutbox(
      entries: [entry, .markAsRead("n2")], rollbacks: [entry: read, .markAsRead("n2"): readN2])
    let firstWrite = settings.holdWrites(of: first, forKey: outboxKey)
    let store = makeStore {
      $0.settingsClient = settings.client
      $0.continuousClock = clock
      $0.notificationClient.markAsRead = { _ in throw UserFacingError.network }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = read
    }
    await store.receive(.sync(.changeFailed(changeID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [entry]
      $0.sync.outboxRollbacks = [entry: read]
      $0.sync.outboxBeingSaved = first
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.markAsRead("n2")) {
      $0.notifications[id: "n2"]?.isRead = true
      $0.sync.pendingChanges[secondID] = readN2
    }
    // No second write starts while the first is in flight.
    await store.receive(.sync(.changeFailed(secondID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [entry, .markAsRead("n2")]
      $0.sync.outboxRollbacks = [entry: read, .markAsRead("n2"): readN2]
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    let none: [NotificationsFeature.SavedOutbox] = []
    #expect(settings.writes(of: NotificationsFeature.SavedOutbox.self, forKey: outboxKey) == none)
    firstWrite.resume()
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = second }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    let written: [NotificationsFeature.SavedOutbox] = [first, second]
    #expect(
      settings.writes(of: NotificationsFeature.SavedOutbox.self, forKey: outboxKey) == written)
    await store.skipInFlightEffects()
  }

  // MARK: The saved filter

  @Test func theSavedFilterIsRestoredAfterARelaunch() async {
    let settings = ControlledSettings()
    let first = makeStore { $0.settingsClient = settings.client }
    let alerts = NotificationsFeature.SavedFilter(filter: .type(.alert), unreadOnly: false)
    await first.send(.filterChanged(.type(.alert))) {
      $0.filter = .type(.alert)
      $0.filterBeingSaved = alerts
    }
    await first.receive(.filterSaved) { $0.filterBeingSaved = nil }
    await first.send(.unreadOnlyChanged(true)) {
      $0.unreadOnly = true
      $0.filterBeingSaved = NotificationsFeature.SavedFilter(
        filter: .type(.alert), unreadOnly: true)
    }
    await first.receive(.filterSaved) { $0.filterBeingSaved = nil }

    // The saved filter answers when the test says, so that the order is known.
    let filterLoad = settings.holdLoads(forKey: NotificationsFeature.SettingsKey.filter)
    let page = TestContinuation<NotificationPage>()
    let relaunched = makeStore([]) {
      $0.settingsClient = settings.client
      $0.notificationClient.fetchPage = { _ in try await page.value }
      $0.notificationClient.updates = { _ in TestStream<NotificationEvent>().throwingStream }
      $0.pushClient.responses = { TestStream<PushClient.Response>().stream }
    }
    let appear = await relaunched.send(.onAppear) {
      $0.isLoading = true
      $0.connection = .connecting
      $0.isLoadingPreferences = true
    }
    filterLoad.resume()
    let restored = NotificationsFeature.SavedFilter(filter: .type(.alert), unreadOnly: true)
    await relaunched.receive(.savedFilterLoaded(restored)) {
      $0.filter = .type(.alert)
      $0.unreadOnly = true
    }
    await relaunched.receive(.preferences(.mutedLoaded(nil))) { $0.isLoadingPreferences = false }
    page.resume(returning: NotificationPage(items: []))
    await relaunched.receive(.pageLoaded(NotificationPage(items: []), replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
    }
    // The stream opens once the first page is loaded.
    await relaunched.receive(.updatesConnected) { $0.connection = .live }
    await relaunched.send(.onDisappear) { $0.connection = .offline }
    await appear.cancel()
  }

  func saved(_ settings: SettingsClient) async -> NotificationsFeature.SavedOutbox? {
    try? await settings.load(NotificationsFeature.SavedOutbox.self, forKey: outboxKey)
  }
}
