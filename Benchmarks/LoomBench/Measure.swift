import Foundation

/// Runs `body` once to warm up, then `repetitions` times, and returns the median duration.
func median(repetitions: Int = 5, _ body: () -> Void) -> Duration {
  body()
  var samples: [Duration] = []
  for _ in 0..<repetitions {
    let start = ContinuousClock.now
    body()
    samples.append(ContinuousClock.now - start)
  }
  return samples.sorted()[samples.count / 2]
}

/// The asynchronous version of ``median(repetitions:_:)``.
@MainActor
func median(repetitions: Int = 5, _ body: @MainActor () async -> Void) async -> Duration {
  await body()
  var samples: [Duration] = []
  for _ in 0..<repetitions {
    let start = ContinuousClock.now
    await body()
    samples.append(ContinuousClock.now - start)
  }
  return samples.sorted()[samples.count / 2]
}

extension Duration {
  var nanoseconds: Double {
    Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
  }
}

/// Formats a figure with one decimal.
func figure(_ value: Double) -> String {
  String(format: "%.1f", value)
}

/// A value the optimizer must assume is used, so measured work is not removed.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// The process's memory from /proc/self/status, in KiB: `VmRSS` (now) or `VmHWM` (peak).
func memoryKiB(_ field: String) -> Double? {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return nil
  }
  for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
    let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
    return Double(String(digits))
  }
  return nil
}

