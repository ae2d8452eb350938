import Loom

extension Effect {
  /// Sends `action` every second on `clock` until cancelled: the running effect the navigation
  /// tests end (a presentation dismissed, an element popped) to see it cancelled.
  static func everySecond(on clock: any Clock<Duration>, send action: Action) -> Self
  where Action: Sendable {
    .run { send in
      while true {
        try await clock.sleep(for: .seconds(1))
        await send(action)
      }
    }
  }
}
