import Foundation

enum Fixtures {
  static let now = Date(timeIntervalSince1970: 1_700_000_000)
}

/// The feature's effects call client closures that run off the main actor: under the thread
/// sanitizer on a loaded 2-core machine one such round trip has taken over a second. Passing
/// tests never wait this long; it only bounds how long a failing one takes to report.
let featureTestTimeout: Duration = .seconds(15)

func payload(_ json: String) -> Data { Data(json.utf8) }
