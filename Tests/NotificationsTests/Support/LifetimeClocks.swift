import Foundation
import Loom
import Notifications

/// The device's clock and the backend's, for the lifetime model-based test: both move with the
/// test clock, and the device's is off the backend's by a skew that a step changes (a person
/// who sets their clock, a device that has drifted).
///
/// The backend stamps what it creates with its own time, newest last (``serverTime(for:)``);
/// the feature reads the device's (`date`) for what it stamps itself: a local notice, a push
/// without a timestamp, or one stamped more than a day after the device's time.
final class LifetimeClocks: Sendable {
  let start: Date
  let clock: TestClock
  private let origin: TestClock.Instant
  private let skew = LockedState<TimeInterval>(0)

  init(start: Date, clock: TestClock) {
    self.start = start
    self.clock = clock
    self.origin = clock.now
  }

  /// Seconds the test clock has moved since the lifetime began.
  var elapsed: TimeInterval {
    let components = origin.duration(to: clock.now).components
    return Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }

  /// How far the device's clock is ahead of the backend's (behind: negative).
  var deviceSkew: TimeInterval {
    get { skew.withLock { $0 } }
    set { skew.withLock { $0 = newValue } }
  }

  /// The device's time, as the feature's `date` dependency reads it.
  var deviceNow: Date { start.addingTimeInterval(elapsed + deviceSkew) }

  /// The date the feature reads.
  var date: DateGenerator { DateGenerator { [self] in deviceNow } }

  /// The backend's time for the `sequence`th thing it creates: whole seconds, later for each
  /// one, so that what it creates later is newer.
  func serverTime(for sequence: Int) -> Date {
    start.addingTimeInterval(elapsed.rounded(.down) + Double(sequence))
  }
}
