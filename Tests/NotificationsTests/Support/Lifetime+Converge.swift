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
    let savedSlow = (
      network: network.isSlow, settings: settings.isSlow, changeLog: changeLog.isSlow
    )
    let saved = LockedState(InMemoryNotificationBackend.Faults())
    backend.updateFaults { faults in
      saved.withLock { $0 = faults }
      faults = .init()
    }
    network.isSlow = false
    settings.isSlow = false
    changeLog.isSlow = false
    let tokenFailures = tokens.failureRate
    tokens.failureRate = 0
    await drain()
    // Everything queued is sent: what the person claimed holds again (but what a late page
    // listed is there until a refresh).
    model.resumeClaims()
    if store.state.connection == .offline {
      store.send(.onAppear)
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
    if LifetimeModelTests.theUnreadCountAgreesBeforeEveryPageIsLoaded,
      await backendChangeCursor() == afterFirst.backend,
      store.state.unreadCount != afterFirst.unread
    {
      fail([
        "the unread count was \(afterFirst.unread) after a refresh, \(store.state.unreadCount) "
          + "after the next, though the backend had not changed"
      ])
    }
    model.suspendedUntilARefresh = []
    model.deletedPushesAwaitingLookUp = []
    compareWithBackend(everyPageLoaded: false)
    await loadEveryPage()
    compareWithBackend(everyPageLoaded: true)
    await comparePersisted()
    if !failed {
      let problems = tokens.problems
      if !problems.isEmpty { fail(problems) }
    }
    tokens.failureRate = tokenFailures
    clearAllMayBeQueued = false
    let restored = saved.withLock { $0 }
    backend.updateFaults { $0 = restored }
    network.isSlow = savedSlow.network
    settings.isSlow = savedSlow.settings
    changeLog.isSlow = savedSlow.changeLog
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
    for _ in 0..<20 where store.state.paging.hasMore && !failed {
      store.send(.loadMoreRequested)
      await drain()
    }
  }

  /// The backend's feed as the list must show it.
  func expectedFeed(listed state: Feature.State) -> [NotificationData] {
    backend.notifications
  }

  /// The pushes the feature keeps that the backend's feed (`feedIDs`) does not have: those the
  /// model keeps, and those whose deletion was refused with an error.
  func unlistedPushes(in state: Feature.State, feedIDs: Set<String>) -> [NotificationData] {
    state.shown.filter { $0.id.hasPrefix("push") && !feedIDs.contains($0.id) }
  }

  /// With everything drained and the live stream connected, before any refresh: everything
  /// listed is as the backend has it, everything the pages loaded is listed, and the unread
  /// count is the backend's. A disagreement that only a refresh would fix is a failure.
  func compareBeforeRefresh() {
    check()
    guard !failed else { return }
    let state = store.state
    let feed = expectedFeed(listed: state)
    let feedIDs = Set(feed.map(\.id))
    let backendRead = Dictionary(feed.map { ($0.id, $0.isRead) }, uniquingKeysWith: { a, _ in a })
    let unlisted = Set(unlistedPushes(in: state, feedIDs: feedIDs).map(\.id))
    // None is loaded when every first page of this launch failed, as an error said (the person
    // refreshes): nothing then looked up the pushes the feature holds unlisted, so what the
    // server did with them since is not known until then.
    let noPageLoaded = state.server.listing == nil && log.reportedErrors > errorsAtLaunch
    var problems: [String] = []
    for notification in state.shown
    where !notification.isLocal && !unlisted.contains(notification.id)
      && !model.deletedPushesAwaitingLookUp.contains(notification.id)
      && !(noPageLoaded && state.log.unlisted.contains(id: notification.id))
    {
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
    let nextPage = state.paging.hasMore ? state.paging.next.flatMap(PageKey.init(cursor:)) : nil
    if !noPageLoaded, !state.paging.hasMore || nextPage != nil {
      let missing = feed.filter { notification in
        nextPage.map { !$0.precedes(notification) } ?? true
          && !state.shown.contains(id: notification.id)
      }
      if !missing.isEmpty {
        problems.append(
          "the pages loaded hold \(Self.describe(missing)) on the backend, which are not listed")
      }
    }
    let unread = expectedUnreadCount(state: state, feed: feed, unlisted: unlisted)
    if LifetimeModelTests.theUnreadCountAgreesBeforeEveryPageIsLoaded,
      !unread.contains(state.unreadCount)
    {
      problems.append(countProblem(state, expected: unread))
    }
    if !problems.isEmpty { fail(["before a refresh: "] + problems) }
  }

  func countProblem(_ state: Feature.State, expected: ClosedRange<Int>) -> String {
    let expected =
      expected.count == 1
      ? "\(expected.lowerBound)" : "\(expected.lowerBound)...\(expected.upperBound)"
    let notHeld = state.server.unreadNotHeld.map { String($0.count) } ?? "none"
    return "the unread count is \(state.unreadCount) (\(state.shown.unreadCount) listed, "
      + "\(notHeld) not held), the backend's \(expected)"
  }

  /// The backend's unread notifications, and the unread pushes it has not listed.
  func expectedUnreadCount(
    state: Feature.State, feed: [NotificationData], unlisted: Set<String>
  ) -> ClosedRange<Int> {
    let unread = listedUnreadCount(state: state, feed: feed, unlisted: unlisted)
    return unread...unread
  }

  func listedUnreadCount(
    state: Feature.State, feed: [NotificationData], unlisted: Set<String>
  ) -> Int {
    let unreadPushes = state.shown.count { unlisted.contains($0.id) && !$0.isRead }
    return feed.count { !$0.isRead } + unreadPushes
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
    guard everyPageLoaded || !state.paging.hasMore else {
      let unlisted = Set(unlistedPushes(in: state, feedIDs: Set(feed.map(\.id))).map(\.id))
      let unread = expectedUnreadCount(state: state, feed: feed, unlisted: unlisted)
      if LifetimeModelTests.theUnreadCountAgreesBeforeEveryPageIsLoaded,
        !unread.contains(state.unreadCount)
      {
        fail([countProblem(state, expected: unread)])
      }
      return
    }
    let feedIDs = Set(feed.map(\.id))
    let unlistedPushes = unlistedPushes(in: state, feedIDs: feedIDs)
    let notices = state.shown.filter(\.isLocal)
    var problems: [String] = []
    let expected = (feed + unlistedPushes + notices).sorted(by: NotificationData.isOrderedBefore)
    let listed = state.shown.elements
    if listed.map(\.id) != expected.map(\.id) || listed.map(\.isRead) != expected.map(\.isRead) {
      problems.append(
        "the list is not the backend's feed: listed \(Self.describe(state.shown.elements)), "
          + "expected \(Self.describe(expected))")
    }
    if notices.contains(where: { !$0.isRead }) {
      problems.append("a local notice is unread: \(Self.describe(notices))")
    }
    let unread = expectedUnreadCount(
      state: state, feed: feed, unlisted: Set(unlistedPushes.map(\.id)))
    if !unread.contains(state.unreadCount) {
      problems.append(
        countProblem(state, expected: unread)
          + (everyPageLoaded ? ", with every page loaded since the refresh" : ""))
    }
    if state.connection != .live { problems.append("the connection is \(state.connection)") }
    if !problems.isEmpty { fail(problems) }
  }

  /// With everything drained and refreshed: the saved log is the log, with no change left in
  /// it (every one was sent, and what is seen reflects it); the pushes saved are the pushes
  /// shown that the backend has not listed, with their read state, and the local notices; the
  /// filter and the muted types shown and saved are the person's last choices.
  func comparePersisted() async {
    guard !failed else { return }
    let state = store.state
    var problems: [String] = []
    let saved = await changeLog.saved()
    let feedIDs = Set(backend.notifications.map(\.id))
    // Only changes to pushes the backend has not listed wait: it does not have them yet. A
    // change the backend applied leaves once what is seen of it (every copy held as new as its
    // cursor) reaches its cursor: the next change the stream brings, while copies loaded before
    // the refresh are held beyond the first page's reach.
    let left = state.log.records.filter { record in
      if case .acknowledged(let cursor) = record.status {
        return state.server.current.map { cursor <= $0 } ?? false
      }
      return record.status != .awaitingListing || record.intent.ids.isEmpty
        || record.intent.ids.contains(where: feedIDs.contains)
    }
    if !left.isEmpty {
      problems.append(
        "changes are left though everything was sent and seen: \(left.map(\.intent))")
    }
    if saved.records != state.log.records {
      problems.append(
        "the saved changes are \(saved.records.map(\.intent)); the log's are "
          + "\(state.log.records.map(\.intent))")
    }
    let pushes = unlistedPushes(in: state, feedIDs: feedIDs)
    // As a launch would show them: the saved changes replayed on the saved pushes.
    let savedPushes = saved.shown(over: []).filter { !$0.isLocal }
    if Self.describe(savedPushes) != Self.describe(pushes) {
      problems.append(
        "the saved pushes are \(Self.describe(savedPushes)); the pushes shown that the "
          + "backend has not listed are \(Self.describe(pushes))")
    }
    let notices = state.shown.filter(\.isLocal)
    let savedNotices = saved.unlisted.filter(\.isLocal)
    if savedNotices.map(\.id) != notices.map(\.id) {
      problems.append(
        "the saved notices are \(Self.describe(savedNotices)); shown: \(Self.describe(notices))")
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
