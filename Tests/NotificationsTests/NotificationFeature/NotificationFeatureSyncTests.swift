import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// `NotificationFeature`, the reducer rebuilt on the sync model (issue #24): its launch, its
/// list and its changes through the log, exhaustively.
@MainActor
struct NotificationFeatureSyncTests {
  typealias Feature = NotificationFeature

  // Written out: the one the compiler makes is type-checked where another suite makes one, and
  // took over 200 ms there (the build's limit).
  init() {}

  static func notification(
    _ id: String, isRead: Bool = false, version: ChangeCursor, minutesAgo: Double
  )
    -> NotificationData
  {
    ChangeLogTests.notification(id, isRead: isRead, version: version, minutesAgo: minutesAgo)
  }

  /// A backend that answers pages from a list and changes with the answers given, and whose
  /// live stream stays open, sending nothing, until the feature leaves the screen.
  final class Backend: Sendable {
    let pages: LockedState<[NotificationPage]>
    let requests = LockedState<[ChangeRequest]>([])
    let answers: LockedState<[Result<ChangeCursor?, UserFacingError>]>
    /// What `fetchNotification` answers, by id (`notFound` for any other).
    let byID: [String: NotificationData]
    /// What `fetchUnread` answers.
    let unread: [NotificationData]

    init(
      pages: [NotificationPage], answers: [Result<ChangeCursor?, UserFacingError>] = [],
      byID: [String: NotificationData] = [:], unread: [NotificationData] = []
    ) {
      self.pages = LockedState(pages)
      self.answers = LockedState(answers)
      self.byID = byID
      self.unread = unread
    }

    var client: NotificationClient {
      NotificationClient(
        fetchPage: { _ in self.pages.withLock { $0.removeFirst() } },
        updates: { _ in AsyncThrowingStream { _ in } },
        changesSince: { _ in [] },
        apply: { request in
          self.requests.withLock { $0.append(request) }
          return try self.answers.withLock { $0.removeFirst() }.get()
        },
        fetchNotification: { id in
          guard let copy = self.byID[id] else { throw UserFacingError.notFound }
          return copy
        },
        fetchUnread: { _ in self.unread })
    }
  }

  func makeStore(
    _ state: Feature.State = Feature.State(), backend: Backend, saved: ChangeLogStore,
    settings: SettingsClient = .inMemory(), client: NotificationClient? = nil
  ) -> TestStore<Feature.State, Feature.Action> {
    let store = TestStore(initialState: state) {
      NotificationFeature()
    } withDependencies: {
      $0.date = .constant(ChangeLogTests.start)
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
      $0.notificationClient = client ?? backend.client
      $0.changeLogStore = saved
      $0.settingsClient = settings
      $0.pushClient = .unavailable
      $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 1))
    }
    store.timeout = featureTestTimeout
    return store
  }

  /// Issue #24, item 5: a change made before the launch has read the saved log is kept on top
  /// of it, nothing is sent before the log is read, and the saved rows are kept; the newer
  /// choice replaces the saved one that was never applied, which is sent with its own id.
  @Test func aChangeMadeBeforeTheSavedLogIsReadIsKeptOnTopOfIt() async throws {
    let unread = Self.notification("n1", version: 3, minutesAgo: 1)
    let other = Self.notification("n2", version: 3, minutesAgo: 2)
    var saved = ChangeLog()
    saved.record(.markAsUnread("n1"), id: UUID(100))
    saved.record(.delete("n2"), id: UUID(101))
    saved.markSending(UUID(101))
    let savedStore = ChangeLogStore.inMemory(saved)
    let page = NotificationPage(items: [unread, other], changeCursor: 5)
    let backend = Backend(pages: [page], answers: [.success(6), .success(7)])
    var launching = Feature.State()
    launching.launch = .restoring()
    let store = makeStore(launching, backend: backend, saved: savedStore)

    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
    }
    #expect(backend.requests.withLock { $0 }.isEmpty)

    await store.send(.restored(Feature.Saved(log: saved))) {
      $0.log = saved.restoredForLaunch.merging(newer: $0.log)
      $0.launch = .ready
      $0.paging.isLoading = true
      $0.log.markSending(UUID(101))
      $0.log.markSending(UUID(0))
    }
    await store.receive(.pageLoaded(page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: page)
      $0.connection = .connecting
      $0.shown = [Self.notification("n1", isRead: true, version: 3, minutesAgo: 1)]
    }
    // The answer is the server's word at 6: n2 is deleted there, so the record is reflected.
    await store.receive(.changeAnswered(UUID(101), 6)) {
      $0.log.acknowledge(UUID(101), at: 6)
      $0.server.remove("n2", at: 6)
      Ported.forgetSeen(&$0, reflectedIn: ["n2"])
    }
    await store.receive(.changeAnswered(UUID(0), 7)) {
      $0.log.acknowledge(UUID(0), at: 7)
    }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.send(.onDisappear) { $0.connection = .offline }

    #expect(
      backend.requests.withLock { $0 } == [
        ChangeRequest(id: UUID(101), .delete("n2")), ChangeRequest(id: UUID(0), .markAsRead("n1")),
      ])
    // The rows: the saved unread, replaced, is gone; so is the delete, done as the answer
    // shows; the read is kept until seen.
    let rows = try await savedStore.load()
    #expect(rows.records.ids == [UUID(0)])
    #expect(rows.records.map(\.status) == [.acknowledged(7)])
  }

  /// A store that has launched and listed `page`, and whose live stream has ended.
  func launched(
    with page: NotificationPage, backend: Backend, settings: SettingsClient = .inMemory(),
    client: NotificationClient? = nil
  ) async -> TestStore<Feature.State, Feature.Action> {
    let store = await loadingFirstPage(page, backend: backend, settings: settings, client: client)
    await store.receive(.updatesConnected) { $0.connection = .live }
    let unread = store.state.unreadCount
    if unread > 0 { await store.receive(.delegate(.unreadCountChanged(unread))) }
    return store
  }

  /// A store launched with nothing saved, up to its first page, `page`: the live stream opens.
  func loadingFirstPage(
    _ page: NotificationPage, backend: Backend, settings: SettingsClient = .inMemory(),
    client: NotificationClient? = nil
  ) async -> TestStore<Feature.State, Feature.Action> {
    let store = makeStore(backend: backend, saved: .inMemory(), settings: settings, client: client)
    await Ported.appearWithNothingSaved(store)
    await store.receive(.pageLoaded(page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: page)
      $0.paging.hasMore = page.hasMore
      $0.paging.next = page.nextCursor
      $0.shown = NotificationFeed(uniqueElements: page.items)
      $0.connection = .connecting
    }
    return store
  }

  /// An older page answered after a newer change does not undo it: another device deleted n1
  /// at 8, and a refresh asked for before answers with the page at 4 that lists it.
  @Test func aFirstPageAnsweredLateDoesNotListWhatANewerEventDeleted() async {
    let unread = Self.notification("n1", version: 3, minutesAgo: 1)
    let first = NotificationPage(items: [unread], changeCursor: 5)
    let late = NotificationPage(items: [unread], changeCursor: 4)
    let backend = Backend(pages: [first, late])
    let store = await launched(with: first, backend: backend)
    let deleted = NotificationEvent(.deleted(id: "n1"), cursor: 8)
    await store.send(.liveEvent(deleted)) {
      $0.server.apply(deleted)
      $0.shown = []
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.send(.refreshRequested) { $0.paging.isLoading = true }
    await store.receive(.pageLoaded(late, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: late)
    }
    #expect(store.state.shown.isEmpty)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// A change that fails for now is sent again, with the same id, after a backoff; once the
  /// server applied it at a cursor, it leaves when the feed sees that cursor.
  @Test func aChangeFailingForNowIsSentAgainWithItsIDAndLeavesOnceSeen() async {
    let unread = Self.notification("n1", version: 3, minutesAgo: 1)
    let page = NotificationPage(items: [unread], changeCursor: 5)
    let backend = Backend(pages: [page], answers: [.failure(.server(status: 503)), .success(9)])
    let store = await launched(with: page, backend: backend)
    let read = Self.notification("n1", isRead: true, version: 3, minutesAgo: 1)
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown = [read]
    }
    await store.receive(.changeFailed(UUID(0), .server(status: 503))) {
      _ = $0.log.fail(UUID(0), with: .server(status: 503), at: ChangeLogTests.start)
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.receive(.retryDue(UUID(0))) {
      $0.log.retry(UUID(0))
      $0.log.markSending(UUID(0))
    }
    await store.receive(.changeAnswered(UUID(0), 9)) { $0.log.acknowledge(UUID(0), at: 9) }
    #expect(
      backend.requests.withLock { $0 }
        == Array(repeating: ChangeRequest(id: UUID(0), .markAsRead("n1")), count: 2))
    // The server's copy at 9 reflects it: the record leaves.
    let changed = NotificationEvent(
      .updated(Self.notification("n1", isRead: true, version: 9, minutesAgo: 1)), cursor: 9)
    await store.send(.liveEvent(changed)) {
      $0.server.apply(changed)
      $0.log.forget(upTo: 9)
      $0.shown = [Self.notification("n1", isRead: true, version: 9, minutesAgo: 1)]
    }
    #expect(store.state.log.isEmpty)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// A change the server refuses leaves the log, and the notification is shown as the server
  /// has it, with the error: no undo payload.
  @Test func aRefusedChangeLeavesAndTheServersCopyIsShown() async {
    let unread = Self.notification("n1", version: 3, minutesAgo: 1)
    let page = NotificationPage(items: [unread], changeCursor: 5)
    let backend = Backend(pages: [page], answers: [.failure(.notFound)])
    let store = await launched(with: page, backend: backend)
    await store.send(.delete("n1")) {
      $0.log.record(.delete("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown = []
    }
    await store.receive(.changeFailed(UUID(0), .notFound)) {
      _ = $0.log.fail(UUID(0), with: .notFound, at: ChangeLogTests.start)
      $0.error = .notFound
      $0.shown = [unread]
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.receive(.delegate(.errorOccurred(.notFound)))
    await store.receive(.delegate(.unreadCountChanged(1)))
    #expect(store.state.log.isEmpty)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// The payload of a push of the notification `id`, `minutesAgo` before the tests' start.
  static func pushPayload(_ id: String, minutesAgo: Double) -> Data {
    let timestamp = Int(ChangeLogTests.start.timeIntervalSince1970 - minutesAgo * 60)
    return payload(
      #"{"id":"\#(id)","type":"ping","title":"\#(id)","body":"","timestamp":\#(timestamp)}"#)
  }

  /// Issue #24, item 1: a cold start from a tapped push (or a push received before the saved
  /// pushes are read) keeps the pushes earlier launches saved: each push is a row of its own,
  /// so saving one cannot write over the others, and the launch puts what it read under it.
  @Test func aPushBeforeTheSavedPushesAreReadKeepsThem() async throws {
    var saved = ChangeLog()
    let earlier = try PushPayloadParser.parse(
      Self.pushPayload("p1", minutesAgo: 30), receivedAt: ChangeLogTests.start)
    saved.receive(earlier, at: ChangeLogTests.start)
    let rows = ChangeLogStore.inMemory(saved)
    let page = NotificationPage(items: [], changeCursor: 5)
    var launching = Feature.State()
    launching.launch = .restoring()
    let store = makeStore(launching, backend: Backend(pages: [page]), saved: rows)
    let tapped = try PushPayloadParser.parse(
      Self.pushPayload("p2", minutesAgo: 1), receivedAt: ChangeLogTests.start)

    await store.send(.pushReceived(Self.pushPayload("p2", minutesAgo: 1))) {
      $0.log.receive(tapped, at: ChangeLogTests.start)
      $0.shown = [tapped]
      // Announced once the muted types are read.
      $0.launch = .restoring(Feature.Arrived(banners: [tapped]))
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.restored(Feature.Saved(log: saved))) {
      $0.log = saved.restoredForLaunch.merging(newer: $0.log)
      $0.launch = .ready
      $0.paging.isLoading = true
      $0.shown = [tapped, earlier]
    }
    await store.receive(.pageLoaded(page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: page)
      $0.connection = .connecting
    }
    await store.receive(.delegate(.presentBanner(tapped, [.banner, .sound, .badge])))
    await store.receive(.delegate(.unreadCountChanged(2)))
    // The first page looks up the pushes it does not list: the server has neither yet.
    await store.receive(.pushLookedUp(id: "p2", nil))
    await store.receive(.pushLookedUp(id: "p1", nil))
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.send(.onDisappear) { $0.connection = .offline }
    #expect(try await rows.load().unlisted.ids == ["p2", "p1"])
  }

  /// Nothing is written before the launch has read what was saved: the launch's read cannot
  /// see half of what this launch did. Before, a notice recorded while the saved log loaded was
  /// written at once; the read, made after that write, returned it; a clear-all made next
  /// removed it from the rows, but the launch put what it read back on screen, where it stayed
  /// though nothing saved it (lifetime seed 1692594537285933055).
  @Test func nothingIsWrittenBeforeTheLaunchHasReadWhatWasSaved() async throws {
    let rows = ChangeLogStore.inMemory()
    var launching = Feature.State()
    launching.launch = .restoring()
    let page = NotificationPage(items: [], changeCursor: 5)
    let store = makeStore(launching, backend: Backend(pages: [page]), saved: rows)
    let notice = NotificationData(
      id: "local-\(UUID(0).uuidString.lowercased())", type: .system, title: "Saved",
      message: "", timestamp: ChangeLogTests.start, isRead: true, priority: .silent,
      isLocal: true)

    await store.send(.recordLocalNotice(title: "Saved", message: "")) {
      $0.log.recordNotice(notice)
      $0.shown = [notice]
    }
    #expect(try await rows.load() == ChangeLog())
    await store.send(.restored(Feature.Saved(log: ChangeLog()))) {
      $0.launch = .ready
      $0.paging.isLoading = true
    }
    await store.receive(.pageLoaded(page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: page)
      $0.connection = .connecting
    }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.send(.onDisappear) { $0.connection = .offline }
    #expect(try await rows.load().unlisted.ids == [notice.id])
  }

  /// A live stream opened while nothing was listed (the first page failed) starts from now; the
  /// first page that then arrives opens it again from the page's cursor, so the catch-up covers
  /// what changed between the page and the stream (lifetime seed 9806435720515876918: two
  /// deletions made then stayed listed).
  @Test func theFirstPageOpensAStreamOpenedFromNowAgainFromItsCursor() async throws {
    let page = NotificationPage(items: [], changeCursor: 5)
    let backend = Backend(pages: [page, page])
    let opened = LockedState<[ChangeCursor?]>([])
    var client = backend.client
    client.updates = { cursor in
      opened.withLock { $0.append(cursor) }
      return AsyncThrowingStream { _ in }
    }
    var ready = Feature.State()
    ready.launch = .ready
    let store = makeStore(ready, backend: backend, saved: .inMemory(), client: client)
    store.exhaustivity = .off

    await store.send(.pageFailed(.server(status: 400)))
    await store.receive(.updatesConnected)
    // Connected with nothing listed: the first page is asked for again.
    await store.receive(.pageLoaded(page, first: true))
    await store.receive(.updatesConnected)
    let openedFrom: [ChangeCursor?] = opened.withLock { $0 }
    #expect(openedFrom == [nil, 5])
    #expect(store.state.connection == .live)
    await store.send(.onDisappear)
  }

  /// A first page with no cursor (a backend that does not order what it says, or the cache of
  /// the command-line tool offline) lists nothing to resume from: it does not open the stream
  /// again. It did, once the first page opened a stream opened from now again, and the stream's
  /// connection asked for the first page again, for ever (every offline `notifications` command
  /// spun until it was killed).
  @Test func aFirstPageWithNoCursorDoesNotOpenTheStreamAgain() async throws {
    let page = NotificationPage(items: [Self.notification("n1", version: 1, minutesAgo: 1)])
    let store = await loadingFirstPage(page, backend: Backend(pages: [page, page]))
    // Connected with nothing listed by a page with a cursor: the first page is asked again.
    await store.receive(.updatesConnected) {
      $0.connection = .live
      $0.paging.isLoading = true
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.pageLoaded(page, first: true)) { $0.paging.isLoading = false }
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// What an earlier version saved in the settings (its outbox, in today's format and the
  /// older one of entries alone, its unlisted pushes and its local notices) is moved into the
  /// log on the first launch, with nothing lost: written to the store, then the settings keys
  /// emptied. A second launch finds nothing more to move.
  @Test func anEarlierVersionsOutboxAndPushesMoveIntoTheLogOnTheFirstLaunch() async throws {
    let push = try PushPayloadParser.parse(
      Self.pushPayload("p2", minutesAgo: 5), receivedAt: ChangeLogTests.start)
    let notice = NotificationData(
      id: "local-1", type: .system, title: "Notice", message: "",
      timestamp: ChangeLogTests.start, isRead: true, priority: .silent, isLocal: true)
    let formats = [
      "today": NotificationFeatureMigrationTests.outboxWithRollbacks,
      "entries alone": NotificationFeatureMigrationTests.outboxEntriesAlone,
    ]
    for (format, outbox) in formats.sorted(by: { $0.key < $1.key }) {
      let settings = SettingsClient.inMemory([
        Feature.SettingsKey.outbox: Data(outbox.utf8),
        Feature.SettingsKey.pushes: try JSONEncoder().encode(
          Feature.SavedPushes(pushes: [push], notices: [notice])),
      ])
      let rows = ChangeLogStore.inMemory()
      for launch in 1...2 {
        let page = NotificationPage(items: [], changeCursor: 5)
        // The changes stay on their way: what is saved is what was moved.
        var client = Backend(pages: [page, page]).client
        client.apply = { _ in
          try await Task.sleep(for: .seconds(3_600))
          return nil
        }
        let store = makeStore(
          backend: Backend(pages: []), saved: rows, settings: settings, client: client)
        store.exhaustivity = .off
        await store.send(.onAppear)
        await store.receive(
          CasePath(Feature.Action.restored) { if case .restored(let saved) = $0 { saved } else { nil } }
        )
        var expected = ChangeLog()
        expected.receive(push, at: ChangeLogTests.start)
        expected.recordNotice(notice)
        expected.record(.markAsRead("n1"), id: Feature.migratedRecordID(1))
        expected.record(.delete("p2"), id: Feature.migratedRecordID(2))
        func described(_ log: ChangeLog) -> [String] {
          log.records.map { "\($0.id) \($0.intent)" }
        }
        #expect(
          try await described(rows.load()) == described(expected), "\(format), launch \(launch)")
        #expect(
          try await rows.load().unlisted == expected.unlisted, "\(format), launch \(launch)")
        #expect(
          store.state.log.records.map(\.intent) == [.markAsRead("n1"), .delete("p2")],
          "\(format), launch \(launch)")
        #expect(store.state.shown.ids == [notice.id], "\(format), launch \(launch)")
        let emptied = try await settings.load(
          Feature.SavedOutbox.self, forKey: Feature.SettingsKey.outbox)
        #expect(emptied?.entries == [], "\(format), launch \(launch)")
        await store.send(.onDisappear)
        await store.skipInFlightEffects()
      }
    }
  }

  /// Issue #24, item 3: two processes on one inbox lose no push and no notice. Each writes its
  /// own rows; a third launch reads all of them.
  @Test func twoProcessesReceivingPushesAndNoticesAtOnceLoseNone() async throws {
    let rows = ChangeLogStore.inMemory()
    let processes = (0..<2).map { _ in
      Store(initialState: Feature.State()) {
        NotificationFeature()
      } withDependencies: {
        $0.date = .constant(ChangeLogTests.start)
        $0.uuid = .incrementing
        $0.continuousClock = ImmediateClock()
        $0.notificationClient =
          Backend(pages: [NotificationPage(items: [], changeCursor: 0)])
          .client
        $0.changeLogStore = rows
      }
    }
    // Each process writes once its launch has read what was saved.
    for process in processes { process.send(.onAppear) }
    for _ in 0..<1_000 where processes.contains(where: { $0.state.launch != .ready }) {
      await Task.yield()
    }
    try #require(processes.allSatisfy { $0.state.launch == .ready })
    for index in 0..<40 {
      let process = processes[index % 2]
      if index.isMultiple(of: 4) {
        process.send(.recordLocalNotice(title: "Notice \(index)", message: ""))
      } else {
        process.send(.pushReceived(Self.pushPayload("p\(index)", minutesAgo: Double(index))))
      }
    }
    let saved = try await rows.load()
    #expect(saved.unlisted.count == 40)
    #expect(saved.unlisted.filter(\.isLocal).count == 10)
  }
}
