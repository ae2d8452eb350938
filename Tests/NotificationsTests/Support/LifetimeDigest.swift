/// A digest of a lifetime: what it did, step by step, and the actions the store processed, so
/// that two runs of one seed can be compared (`LOOM_MODEL_DIGEST=1` prints one line per seed).
///
/// A 64-bit FNV-1a hash, the same in every process (Swift's `Hasher` is seeded per process).
struct LifetimeDigest {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
  /// How many pieces of text it holds.
  private(set) var count = 0

  /// Adds `text`, in order.
  mutating func add(_ text: String) {
    for byte in text.utf8 { mix(byte) }
    mix(0)
    count += 1
  }

  /// Adds `text` with its characters counted, not ordered: a description that holds a set or a
  /// dictionary prints its elements in the process's hash order, which differs between runs.
  mutating func addUnordered(_ text: String) {
    var counts = [Int](repeating: 0, count: 256)
    for byte in text.utf8 { counts[Int(byte)] += 1 }
    for (byte, times) in counts.enumerated() where times > 0 {
      mix(UInt8(byte))
      for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: times >> shift)) }
    }
    mix(0)
    count += 1
  }

  var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  private mutating func mix(_ byte: UInt8) {
    value ^= UInt64(byte)
    value = value &* 0x100_0000_01b3
  }
}
