import Foundation
import Loom
import NotificationClients
import Notifications

/// Converging: the faults stop, everything drains, and what the person sees and what is saved
/// must be the backend's truth and the person's choices, before a refresh and after one.
extension Lifetime {
  /// Stops the faults, lets everything drain, and checks the list and the unread count against
  /// the backend without a refresh; then refreshes, loads every page, and checks the whole list,
  /// the count and what is saved.
  func converge() async {
    record("converge")
    let savedSlow = (network: network.isSlow, settings: settings.isSlow)
    let saved = LockedState(InMemoryNotificationBackend.Faults())
    backend.updateFaults { faults in
      saved.withLock { $0 = faults }
      faults = .init()
    }
    network.isSlow = false
    settings.isSlow = false
    let tokenFailures = tokens.failureRate
    tokens.failureRate = 0
    await drain()
    // Everything queued is sent: what the person claimed holds again (but what a late page
    // listed is there until a refresh).
    model.resumeClaims()
    if store.state.connection == .offline {
      store.send(.onAppear)
      if !LifetimeModelTests.aCatchUpSkipsWhatANewerPageHas { await drain() }
    } else {
      compareBeforeRefresh()
    }
    store.send(.refreshRequested)
    await drain()
    let afterFirst = (unread: store.state.unreadCount, backend: await backendChangeCursor())
    // A first page can owe the backend a change (a push the person deleted before the feed
    // listed it), which then moves the backend's first page past what was loaded: the page
    // after that is the one to compare with.
    store.send(.refreshRequested)
    await drain()
    // A refresh of a backend that has not changed changes no count: the catch-up of the
    // reconnect, racing the first refresh, replayed nothing that refresh's page had.
    if LifetimeModelTests.aCatchUpSkipsWhatANewerPageHas,
      await backendChangeCursor() == afterFirst.backend,
      store.state.unreadCount != afterFirst.unread
    {
      fail([
        "the unread count was \(afterFirst.unread) after a refresh, \(store.state.unreadCount) "
          + "after the next, though the backend had not changed"
      ])
    }
    model.suspendedUntilARefresh = []
    firstPagesBeforeTheLateOne = nil
    compareWithBackend(everyPageLoaded: false)
    await loadEveryPage()
    compareWithBackend(everyPageLoaded: true)
    comparePersisted()
    if LifetimeModelTests.theTokenBackendEndsWithTheCurrentTokenOnly, !failed {
      let problems = tokens.problems
      if !problems.isEmpty { fail(problems) }
    }
    tokens.failureRate = tokenFailures
    clearAllMayBeQueued = false
    clearAllBoundMayBeTheDevicesTime = false
    let restored = saved.withLock { $0 }
    backend.updateFaults { $0 = restored }
    network.isSlow = savedSlow.network
    settings.isSlow = savedSlow.settings
  }

  /// The backend's newest change cursor, as its pages say it (faults are off while converging).
  func backendChangeCursor() async -> ChangeCursor? {
    try? await backend.client.fetchPage(PageRequest(limit: 1)).changeCursor
  }

  /// Runs the clock until nothing waits on it.
  func drain() async {
    for _ in 0..<200 {
      await settle()
      if clock.sleeperCount == 0 { return }
      await clock.run()
    }
  }

  func loadEveryPage() async {
    for _ in 0..<20 where store.state.hasMore && !failed {
      store.send(.loadMoreRequested)
      await drain()
    }
  }

  /// The backend's feed as the list must show it: without what the person cleared that a
  /// clear-all bounded by a device's time left on the backend, while the flag forgives it.
  func expectedFeed(listed state: Feature.State) -> [NotificationData] {
    clearedUnderADeviceTime = clearedUnderADeviceTime.filter {
      !state.notifications.contains(id: $0)
    }
    let keptAsPushes = keptAsPushes(in: state)
    return backend.notifications.filter {
      !clearedUnderADeviceTime.contains($0.id) && !keptAsPushes.contains($0.id)
    }
  }

  /// The notifications of the backend's that the feature keeps as pushes it has not listed,
  /// while the flag forgives it (see
  /// `LifetimeModelTests.aPushOfANotificationTheBackendHasBecomesTheBackends`).
  func keptAsPushes(in state: Feature.State) -> Set<String> {
    guard !LifetimeModelTests.aPushOfANotificationTheBackendHasBecomesTheBackends else { return [] }
    let feedIDs = Set(backend.notifications.map(\.id))
    return state.unlistedPushIDs.filter { feedIDs.contains($0) }
  }

  /// The pushes listed that the backend's feed (`feedIDs`) does not have: those the model
  /// keeps, those whose deletion was rolled back with an error, and those the feature keeps as
  /// pushes though the backend has them.
  func unlistedPushes(in state: Feature.State, feedIDs: Set<String>) -> [NotificationData] {
    let keptAsPushes = keptAsPushes(in: state)
    return state.notifications.filter {
      ($0.id.hasPrefix("push") || keptAsPushes.contains($0.id)) && !feedIDs.contains($0.id)
    }
  }

  /// With everything drained and the live stream connected, before any refresh: everything
  /// listed is as the backend has it, everything the pages loaded is listed, and the unread
  /// count is the backend's. A disagreement that only a refresh would fix is a failure.
  func compareBeforeRefresh() {
    check()
    guard LifetimeModelTests.theListAndCountAgreeWithoutARefresh, !failed else { return }
    let state = store.state
    let feed = expectedFeed(listed: state)
    let feedIDs = Set(feed.map(\.id))
    let backendRead = Dictionary(feed.map { ($0.id, $0.isRead) }, uniquingKeysWith: { a, _ in a })
    let unlisted = Set(unlistedPushes(in: state, feedIDs: feedIDs).map(\.id))
    var problems: [String] = []
    for notification in state.notifications
    where !notification.isLocal && !unlisted.contains(notification.id) {
      guard let isRead = backendRead[notification.id] else {
        problems.append("\(notification.id) is listed; the backend deleted it")
        continue
      }
      if isRead != notification.isRead {
        problems.append(
          "\(notification.id) is listed \(notification.isRead ? "read" : "unread"); the backend "
            + "has it \(isRead ? "read" : "unread")")
      }
    }
    // The pages loaded end where the next one starts.
    let nextPage = state.hasMore ? state.nextCursor.flatMap(PageKey.init(cursor:)) : nil
    if !state.hasMore || nextPage != nil {
      let missing = feed.filter { notification in
        nextPage.map { !$0.precedes(notification) } ?? true
          && !state.notifications.contains(id: notification.id)
      }
      if !missing.isEmpty {
        problems.append(
          "the pages loaded hold \(Self.describe(missing)) on the backend, which are not listed")
      }
    }
    let unread = expectedUnreadCount(state: state, feed: feed, unlisted: unlisted)
    if !unread.contains(state.unreadCount) {
      problems.append(countProblem(state, expected: unread))
    }
    if !problems.isEmpty { fail(["before a refresh: "] + problems) }
  }

  func countProblem(_ state: Feature.State, expected: ClosedRange<Int>) -> String {
    let expected =
      expected.count == 1
      ? "\(expected.lowerBound)" : "\(expected.lowerBound)...\(expected.upperBound)"
    return "the unread count is \(state.unreadCount) (\(state.notifications.unreadCount) listed, "
      + "\(state.unreadNotLoaded.map(String.init) ?? "none") not loaded), the backend's \(expected)"
  }

  /// The backend's unread notifications, and the unread pushes it has not listed and notices;
  /// up to those a clear-all bounded by a device's time left on the backend more (the backend
  /// counts them, the list does not show them).
  func expectedUnreadCount(
    state: Feature.State, feed: [NotificationData], unlisted: Set<String>
  ) -> ClosedRange<Int> {
    let unread = listedUnreadCount(state: state, feed: feed, unlisted: unlisted)
    let kept = backend.notifications.count { clearedUnderADeviceTime.contains($0.id) && !$0.isRead }
    // The backend counts those it has that the feature keeps as pushes as it has them.
    let keptAsPushes = keptAsPushes(in: state).count
    return max(0, unread - keptAsPushes)...(unread + kept + keptAsPushes)
  }

  func listedUnreadCount(
    state: Feature.State, feed: [NotificationData], unlisted: Set<String>
  ) -> Int {
    let unreadPushes = state.notifications.count { unlisted.contains($0.id) && !$0.isRead }
    // A local notice is read when recorded, but the person may mark it unread.
    let unreadNotices =
      LifetimeModelTests.aLocalNoticeIsNeverUnread
      ? 0 : state.notifications.count { $0.isLocal && !$0.isRead }
    return feed.count { !$0.isRead } + unreadPushes + unreadNotices
  }

  /// After a refresh, the unread count is the backend's; with every page loaded since, the list
  /// is the backend's feed, with the pushes it has not listed and the local notices, in order,
  /// each with its read state, and the count is still the backend's (unless the flag forgives
  /// a count only a refresh would set right).
  func compareWithBackend(everyPageLoaded: Bool) {
    check()
    guard !failed else { return }
    let state = store.state
    let feed = expectedFeed(listed: state)
    guard everyPageLoaded || !state.hasMore else {
      let unlisted = Set(unlistedPushes(in: state, feedIDs: Set(feed.map(\.id))).map(\.id))
      let unread = expectedUnreadCount(state: state, feed: feed, unlisted: unlisted)
      if !unread.contains(state.unreadCount) { fail([countProblem(state, expected: unread)]) }
      return
    }
    let feedIDs = Set(feed.map(\.id))
    let unlistedPushes = unlistedPushes(in: state, feedIDs: feedIDs)
    let notices = state.notifications.filter(\.isLocal)
    var problems: [String] = []
    let expected = (feed + unlistedPushes + notices).sorted(by: NotificationData.isOrderedBefore)
    var listed = state.notifications.elements
    if !LifetimeModelTests.aNotificationTheBackendNoLongerHasIsNotListedOnceConverged {
      // Forgiven: listed, not expected, and not on the backend (see the flag).
      let expectedIDs = Set(expected.map(\.id))
      let onBackend = Set(backend.notifications.map(\.id))
      listed.removeAll { !expectedIDs.contains($0.id) && !onBackend.contains($0.id) && !$0.isLocal }
    }
    if listed.map(\.id) != expected.map(\.id) || listed.map(\.isRead) != expected.map(\.isRead) {
      problems.append(
        "the list is not the backend's feed: listed \(Self.describe(state.notifications.elements)), "
          + "expected \(Self.describe(expected))")
    }
    if LifetimeModelTests.aLocalNoticeIsNeverUnread, notices.contains(where: { !$0.isRead }) {
      problems.append("a local notice is unread: \(Self.describe(notices))")
    }
    let unread = expectedUnreadCount(
      state: state, feed: feed, unlisted: Set(unlistedPushes.map(\.id)))
    if !unread.contains(state.unreadCount),
      !everyPageLoaded || LifetimeModelTests.theListAndCountAgreeWithoutARefresh
    {
      problems.append(
        countProblem(state, expected: unread)
          + (everyPageLoaded ? ", with every page loaded since the refresh" : ""))
    }
    if state.connection != .live { problems.append("the connection is \(state.connection)") }
    if !problems.isEmpty { fail(problems) }
  }

  /// With everything drained: nothing is left in the outbox, the saved pushes are the pushes
  /// listed that the backend has not, with their read state, and the local notices; the filter
  /// and the muted types shown and saved are the person's last choices.
  func comparePersisted() {
    guard !failed else { return }
    let state = store.state
    var problems: [String] = []
    let outbox = settings.saved(Feature.SavedOutbox.self, forKey: SettingsKey.outbox)
    if let outbox, !outbox.entries.isEmpty {
      problems.append("the saved outbox still holds \(outbox.entries), though everything was sent")
    }
    let feedIDs = Set(expectedFeed(listed: state).map(\.id))
    let pushes = Array(
      unlistedPushes(in: state, feedIDs: feedIDs).prefix(Feature.maximumSavedPushes))
    let notices = state.notifications.filter(\.isLocal).prefix(Feature.maximumSavedNotices)
    let saved = settings.saved(Feature.SavedPushes.self, forKey: SettingsKey.pushes)
    var savedPushes = saved?.pushes ?? []
    if !LifetimeModelTests.theSavedPushesAreThePushesListed {
      // Saved pushes that are not listed as pushes any more may stay saved, while the flag
      // forgives it; every push listed must be saved.
      let listed = Set(pushes.map(\.id))
      savedPushes.removeAll { !listed.contains($0.id) }
    }
    // The read state of a push changed before the restore may differ, while the flag forgives
    // it, until the next write agrees.
    let savedRead = Dictionary(
      savedPushes.map { ($0.id, $0.isRead) }, uniquingKeysWith: { first, _ in first })
    pushesChangedBeforeTheRestore = pushesChangedBeforeTheRestore.filter { id in
      savedRead[id] != state.notifications[id: id]?.isRead
    }
    let forgiven = pushesChangedBeforeTheRestore
    if Self.describe(savedPushes, ignoringTheReadStateOf: forgiven)
      != Self.describe(pushes, ignoringTheReadStateOf: forgiven)
    {
      problems.append(
        "the saved pushes are \(Self.describe(savedPushes)); the pushes listed that the "
          + "backend has not are \(Self.describe(pushes)) (the feature counts "
          + "\(state.unlistedPushIDs.sorted()) as not listed by the backend)")
    }
    if (saved?.notices ?? []).map(\.id) != notices.map(\.id) {
      problems.append(
        "the saved notices are \(Self.describe(saved?.notices ?? [])); listed: "
          + "\(Self.describe(Array(notices)))")
    }
    problems += compareFilter(state) + compareMuted(state)
    if !problems.isEmpty { fail(["what is saved: "] + problems) }
  }

  func compareFilter(_ state: Feature.State) -> [String] {
    let saved = settings.saved(Feature.SavedFilter.self, forKey: SettingsKey.filter)
    let savedChoice = saved ?? Feature.SavedFilter(filter: .all, unreadOnly: false)
    let shown = Feature.SavedFilter(filter: state.filter, unreadOnly: state.unreadOnly)
    guard model.filterIsKnown else {
      // A race a flag forgives may have replaced the person's choice: what is shown is theirs
      // from now on, and known again once it is what is saved.
      model.filter = state.filter
      model.unreadOnly = state.unreadOnly
      model.filterIsKnown = shown == savedChoice
      return []
    }
    let choice = Feature.SavedFilter(filter: model.filter, unreadOnly: model.unreadOnly)
    var problems: [String] = []
    if shown != choice {
      problems.append("the filter shown is \(shown); the person chose \(choice)")
    }
    if savedChoice != choice {
      problems.append("the filter saved is \(savedChoice); the person chose \(choice)")
    }
    return problems
  }

  func compareMuted(_ state: Feature.State) -> [String] {
    let key = NotificationPreferencesFeature.settingsKey
    let saved = Set(settings.saved([NotificationType].self, forKey: key) ?? [])
    let shown = state.preferences.muted
    guard model.mutedIsKnown else {
      model.muted = shown
      model.mutedIsKnown = shown == saved
      return []
    }
    var problems: [String] = []
    let choice = model.muted.map(\.rawValue).sorted()
    if shown != model.muted {
      problems.append(
        "the muted types are \(shown.map(\.rawValue).sorted()); the person chose \(choice)")
    }
    if saved != model.muted {
      problems.append(
        "the muted types saved are \(saved.map(\.rawValue).sorted()); the person chose \(choice)")
    }
    return problems
  }

  static func describe(_ notifications: some Sequence<NotificationData>) -> String {
    describe(notifications, ignoringTheReadStateOf: [])
  }

  /// The ids of `notifications`, each read one marked `r`, but for those in `ignored`.
  static func describe(
    _ notifications: some Sequence<NotificationData>, ignoringTheReadStateOf ignored: Set<String>
  ) -> String {
    notifications.map { notification in
      let read = notification.isRead && !ignored.contains(notification.id)
      return "\(notification.id)\(read ? "r" : "")"
    }
    .joined(separator: " ")
  }
}
