import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// Lives a whole app lifetime with the notification center, at random, and compares it with a
/// plain reference model (``LifetimeReferenceModel``) after every step.
///
/// Actions interleave: each step sends a few actions without waiting for them, then lets time
/// pass on a test clock by a random amount, so the calls they start (each waiting a random time,
/// see ``LifetimeNetwork``) and the settings' reads and writes (``LifetimeSettings``) finish in a
/// random order. Steps refresh, load more (and refresh twice, the pages answered out of order),
/// mark read and unread, delete, mark all, clear all, receive pushes (new ones, ones without a
/// timestamp, duplicates, and ones the backend lists later), change the backend from another
/// device, drop the live stream, relaunch (a new store from the saved settings and the same
/// backend) or kill the app (what is being written is lost), launch nine times offline, change
/// the filter and the muted types, record local notices, go to the background and back, set the
/// device's clock off the backend's (``LifetimeClocks``), replace the device token
/// (``LifetimeTokens``), and turn faults on and off (retryable and permanent failures, latency).
/// A launch races what it restores: the app may open from a tapped push, receive a push before
/// `onAppear`, or take a filter pick, a change or a preference while the saved ones load.
///
/// After every step: no id listed twice, newest first, nothing the person deleted listed again
/// and no read change undone unless an error was reported since, every push shown and local
/// notice still listed, no banner for a muted type. Every so often and at the end the faults
/// stop and everything drains: before a refresh the list and the unread count must agree with
/// the backend; after one, with every page loaded, the whole list must be the backend's feed
/// (plus the pushes it has not listed yet, and the local notices) with the backend's unread
/// count; and what is saved (the outbox, the pushes and notices, the filter, the muted types)
/// and the token backend must match (see `Lifetime+Converge.swift`). Each known bug of today's
/// engine (the section "Known bugs" below) is forgiven, exactly, while its flag is false.
///
/// CI runs fixed seeds. More, random ones: `LOOM_MODEL_SEEDS=500 swift test --filter
/// LifetimeModelTests`. A failure names its seed and the steps before it; replay one seed, with
/// every step printed: `LOOM_MODEL_TRACE=<seed> swift test --filter LifetimeModelTests`.
///
/// A seed replays identically: everything runs on the main actor and time passes only on the
/// test clock (see ``Lifetime``). `LOOM_MODEL_DIGEST=1` prints a digest of each seed's run (its
/// steps, what the person saw after each, and every action the stores processed); two runs of
/// a seed print the same digest. (That needs `NotificationClient`'s and `SettingsClient`'s
/// endpoints to run on their caller's executor, `nonisolated(nonsending)`: while they are plain
/// `async` closures, each call leaves the main actor and comes back when the machine lets it,
/// and the same seed can take another path.)
@MainActor
struct LifetimeModelTests {
  /// Whether a push the backend has not listed yet is still listed after a relaunch: the
  /// feature saves such pushes through the settings client (`SavedPushes`).
  static let pushesSurviveRelaunch = true
  /// Whether two changes to one notification in flight at once (mark unread, then mark all
  /// read before the first is confirmed) end as the person's last choice: a newer change waits
  /// for the older one's call, see `ChangeOrderTests`.
  static let changesToOneNotificationApplyInOrder = true
  /// Whether a push received while a clear-all waits in the outbox (after a retryable
  /// failure) is listed, and kept by the backend when the entry is sent: a queued clear-all
  /// deletes only what the person cleared, up to the newest notification listed then
  /// (`ChangeIntent.deleteAll(upTo:)`, issue #13).
  static let aQueuedClearAllSparesNewerNotifications = true

  /// Whether the catch-up after a reconnect leaves alone what a first page loaded meanwhile
  /// already reflects: a page carries the cursor of the change it reflects
  /// (`NotificationPage.changeCursor`), so the catch-up replays only what came after it; before,
  /// a replayed update of a notification past the first page took it out of the unread
  /// notifications not loaded a second time (see `CatchUpReplayTests`). While off, converging
  /// lets the catch-up of a reconnect finish before it refreshes.
  static let aCatchUpSkipsWhatANewerPageHas = true

  // MARK: Known bugs (issue #24)
  //
  // The lifetime runs on `NotificationFeature`, the reducer rebuilt on the sync model: the
  // fifteen flags that forgave today's engine its known bugs are gone with its code, each bug
  // now a failure. One disagreement is still forgiven, exactly, while its flag is false.

  /// Whether the unread count is the backend's before every page is loaded since a refresh
  /// (before any refresh, after one, and after a second one when the backend has not changed).
  /// The count adds to the notifications held the server's unread ones not held, from a first
  /// page's total (`ServerFeed.unreadNotHeld`); changes made to notifications not held, and
  /// copies held from before a refresh that the server changed since, move the server's total
  /// and not that number, until every page is loaded (then the count must agree, and does).
  /// Seeds 6, 7, 16, 29, 33 and 54 fail with it turned true.
  static let theUnreadCountAgreesBeforeEveryPageIsLoaded = false

  nonisolated static var seeds: [UInt64] {
    let environment = ProcessInfo.processInfo.environment
    if let seed = environment["LOOM_MODEL_TRACE"].flatMap(UInt64.init) { return [seed] }
    if let count = environment["LOOM_MODEL_SEEDS"].flatMap(Int.init) {
      var system = SystemRandomNumberGenerator()
      return (0..<count).map { _ in system.next() }
    }
    return Array(1...60) + knownSeeds
  }

  /// Seeds that once failed, run on every CI. 14327596062002008173: a replayed "unread" older
  /// than a confirmed mark-all showed the notification unread, until answers and pages were
  /// ordered by cursor (issue #23). 1692594537285933055 and 796014188011893233: a notice
  /// recorded while the saved log loaded, then cleared, was shown again though not saved,
  /// until nothing was written before the launch had read what was saved. 8339972125705800260:
  /// a stream opened from now missed an insertion, until it resumed from the newest first page
  /// (`ServerFeed.resumeCursor`). 11902651592191399676: a push of a notification deleted before
  /// it was listed stayed, until a look-up answered the deletion (`DeletedNotificationError`).
  /// 9806435720515876918: a stream opened from now before the first page missed what changed
  /// between them, until the first page opened it again from its cursor. 1641622519520334210:
  /// a push kept by an earlier launch, listed by the server while the log was read, stayed
  /// unlisted (and listed after its deletion), until the restore took what the server said.
  /// 7838458024297765256: a delete of a notification another device had deleted first failed
  /// "not found", and the copy a look-up held was listed again, until a change to a deleted
  /// notification was answered with the deletion's cursor (`DeletedNotificationError`).
  /// 3665593090842288117 (a fault of the model's, not the feature's): every first page of a
  /// launch failed with an error, so nothing looked up the pushes held unlisted, and the model
  /// compared one the server had listed since before the refresh that error asks for.
  /// 13356000860227269486: the look-up of a tapped push failed offline and was not made again
  /// until the next first page, so the read waiting for it was never sent; a look-up that
  /// fails for now is now made again after a backoff. 13569332322634961093: the launch's
  /// first page, read before a mark-all reached the server, answered after a refresh's page
  /// that let the mark-all's record go, and showed read notifications unread, until a first
  /// page replaced the one in flight. 7919694721165589672: a notification loaded by a later
  /// page, deleted while the stream was down, stayed listed, as the stream resumed from a
  /// refresh's page that did not reach it, until it resumed from where it got to
  /// (`ServerFeed.followed`). 13695547595122874237: an entity opened before a relaunch had read
  /// the saved log fetched and showed a notification a saved clear-all deletes, until the fetch
  /// waited for the restore (`Arrived.targetsOpened`).
  nonisolated static let knownSeeds: [UInt64] = [
    14_327_596_062_002_008_173, 1_692_594_537_285_933_055, 796_014_188_011_893_233,
    8_339_972_125_705_800_260, 11_902_651_592_191_399_676, 9_806_435_720_515_876_918,
    1_641_622_519_520_334_210, 7_838_458_024_297_765_256, 3_665_593_090_842_288_117,
    13_356_000_860_227_269_486, 13_569_332_322_634_961_093, 7_919_694_721_165_589_672,
    13_695_547_595_122_874_237,
  ]

  /// A seed replays identically: lived twice in one process, beside the other tests, it takes
  /// the same path, action for action. A launch's read that ran on the global executor (the
  /// change log's migration step, and the saved tokens' read, were not `nonisolated(nonsending)`)
  /// answered when the machine let it, and every seed took another path on most runs.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func aSeedReplaysIdentically(seed: UInt64) async {
    let first = await Lifetime(seed: seed, tracing: false, digesting: true).live(steps: 60)
    let second = await Lifetime(seed: seed, tracing: false, digesting: true).live(steps: 60)
    #expect(first != nil)
    #expect(first?.hex == second?.hex)
    #expect(first?.count == second?.count)
  }

  @Test(arguments: seeds)
  func aLifetimeOfInterleavedActionsKeepsTheModelsInvariantsAndConverges(seed: UInt64) async {
    let environment = ProcessInfo.processInfo.environment
    let tracing = environment["LOOM_MODEL_TRACE"] == "\(seed)"
    let life = Lifetime(
      seed: seed, tracing: tracing, digesting: environment["LOOM_MODEL_DIGEST"] == "1")
    await life.live(steps: 150)
  }
}
